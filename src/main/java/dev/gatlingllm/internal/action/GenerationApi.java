package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.protocol.ServerCompliance;
import io.gatling.core.session.Session;
import java.util.List;
import java.util.Map;

/**
 * A streamed generation API whose body {@link RequestBodies} writes from an
 * {@link LlmRequestBuilder}'s spec: the shared fields (model, budget, sampling, stream) there,
 * what differs (the input, the budget's name, the stream options, what it asks of the
 * server) here, one subclass per API.
 */
public abstract class GenerationApi extends Api {

  private final String maxTokensField;
  private final boolean takesMessages;
  private final boolean takesTokenPrompt;

  /**
   * @param maxTokensField   the body's name of the output budget
   * @param takesMessages    whether a system prompt and a message list can be its input
   * @param takesTokenPrompt whether its prompt can go as token ids, with {@code logprobs}
   */
  GenerationApi(String endpointType, String defaultPath, List<String> endpointEndings,
      boolean chatTemplate, String maxTokensField, boolean takesMessages,
      boolean takesTokenPrompt) {
    super(endpointType, defaultPath, endpointEndings, true, TaskType.GENERATION, chatTemplate);
    this.maxTokensField = maxTokensField;
    this.takesMessages = takesMessages;
    this.takesTokenPrompt = takesTokenPrompt;
  }

  public final String maxTokensField() {
    return maxTokensField;
  }

  public final boolean takesMessages() {
    return takesMessages;
  }

  public final boolean takesTokenPrompt() {
    return takesTokenPrompt;
  }

  /**
   * The messages of this user's request, or null when its input is the prompt alone.
   *
   * @param prompt the resolved prompt; null when the builder gave messages
   */
  abstract List<Map<String, Object>> messages(RequestSpec spec, Session session, String prompt);

  /** The messages of a warm-up request asking {@code prompt}; null: the prompt alone. */
  abstract List<Map<String, Object>> warmUpMessages(RequestSpec spec, String prompt);

  /**
   * Puts the request's input into the body, after its {@code model}.
   *
   * @param prompt   the prompt text, or its token ids
   * @param messages what {@link #messages} gave
   * @param tools    the dataset's tools (BFCL) when it has some, else null
   */
  abstract void putInput(Map<String, Object> body, RequestSpec spec, Object prompt,
      List<Map<String, Object>> messages, Object tools);

  /** The dataset's tools this user's request sends; null for none (the default). */
  Object tools(Session session) {
    return null;
  }

  /** Whether a streamed body asks for the usage chunk with {@code stream_options}. */
  boolean streamOptions() {
    return true;
  }

  /**
   * Last changes to a body the shared fields are in, before the extra body is merged over it:
   * none by default. An API that requires a field the builder may leave unset, or that has no
   * place for some shared ones, adjusts them here.
   */
  void completeBody(Map<String, Object> body) {}

  /**
   * What the body asks of the server, for the compliance check.
   *
   * @param maxTokens the builder's budget; null when none is sent
   * @param extra     the budgets the extra body sets, which win as they do in the body
   */
  abstract ServerCompliance.Asked asked(Integer maxTokens, ExtraBudgets extra, boolean ignoreEos,
      String model);

  /** The budget fields the extra body sets for this API, read once per request builder. */
  final ExtraBudgets extraBudgets(Map<String, Object> extraBody) {
    return new ExtraBudgets(ExtraBudgets.integer(extraBody.get("max_tokens")),
        ExtraBudgets.integer(extraBody.get("max_completion_tokens")),
        ExtraBudgets.integer(extraBody.get(maxTokensField)));
  }

  /**
   * The budget fields an extra body sets: the OpenAI ones ({@code max_tokens},
   * {@code max_completion_tokens}) and the API's own ({@link #maxTokensField()}); null where
   * unset.
   */
  record ExtraBudgets(Integer maxTokens, Integer maxCompletionTokens, Integer own) {

    private static Integer integer(Object value) {
      return value instanceof Number n ? n.intValue() : null;
    }
  }

  /**
   * What completions and chat bodies ask: {@code max_tokens} and {@code max_completion_tokens}
   * as the server reads them, the smaller one bounding the answer.
   *
   * @param chat whether the builder's budget went as {@code max_completion_tokens}
   */
  static ServerCompliance.Asked openAiAsked(Integer maxTokens, ExtraBudgets extra,
      boolean ignoreEos, String model, boolean chat) {
    Integer tokens = extra.maxTokens() != null ? extra.maxTokens() : chat ? null : maxTokens;
    Integer completion = extra.maxCompletionTokens() != null ? extra.maxCompletionTokens()
        : chat ? maxTokens : null;
    int max = Math.max(tokens == null ? -1 : tokens, completion == null ? -1 : completion);
    int min = tokens == null ? max : completion == null ? tokens : Math.min(tokens, completion);
    return new ServerCompliance.Asked(max, min, completion != null && tokens == null,
        ignoreEos, model, chat);
  }
}
