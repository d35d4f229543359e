package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.internal.client.ChunkReader;
import dev.gatlingllm.internal.client.JsonSchema;
import dev.gatlingllm.internal.metrics.TaskType;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Generation requests (completions, chat, Responses), from an {@link LlmRequestBuilder}'s
 * spec: its API gives what differs between them.
 */
public final class GenerationTemplate extends RequestTemplate {

  /** What warm-up requests ask; their answers are thrown away. */
  private static final String WARM_UP_PROMPT = "Warm-up request: please count from one to ten.";

  private final RequestSpec spec;
  /** Fields of the extra body that override what the compliance check compares; null: unset. */
  private final GenerationApi.ExtraBudgets extraBudgets;
  private final Object extraIgnoreEos;
  private final Object extraModel;
  /** The schema an extra body's {@code response_format} or {@code structured_outputs} asks. */
  private final JsonSchema extraSchema;

  public GenerationTemplate(RequestSpec spec) {
    super(spec.name(), spec.path(), spec.promptTokens(), spec.requestId(), spec.saveTextAs());
    this.spec = spec;
    Map<String, Object> extra = spec.extraBody();
    this.extraBudgets = spec.api().extraBudgets(extra);
    this.extraIgnoreEos = extra.get("ignore_eos");
    this.extraModel = extra.get("model");
    this.extraSchema = AnswerSchema.fromExtraBody(extra);
  }

  RequestSpec spec() {
    return spec;
  }

  @Override
  public String endpointType() {
    return spec.api().endpointType();
  }

  @Override
  public TaskType taskType() {
    return TaskType.GENERATION;
  }

  @Override
  public Body body(Session session, String model, String requestId) {
    String prompt = spec.prompt() == null ? null : spec.prompt().resolve(session);
    List<Map<String, Object>> messages = spec.api().messages(spec, session, prompt);
    Integer maxTokens = spec.maxTokens() == null ? null : spec.maxTokens().resolve(session);
    if (maxTokens != null && maxTokens < 1) {
      throw new SessionValue.ResolutionException("maxTokens must be >= 1, got " + maxTokens);
    }
    String requestModel = spec.model() != null ? spec.model().resolve(session) : model;
    Object tools = spec.tools() != null ? spec.tools().resolve(session)
        : spec.api().tools(session);
    Object format = spec.api().responseFormat(spec, session);
    Object sentPrompt = spec.promptTokenIds() == null ? prompt
        : tokenIds(spec.promptTokenIds().resolve(session));
    return new Body(RequestBodies.build(spec, requestModel, sentPrompt, messages, maxTokens,
        null, tools, format), Body.JSON,
        spec.api().asked(maxTokens, extraBudgets, ignoreEos(), model(requestModel)),
        format == null && extraSchema == null ? null : AnswerSchema.of(format, extraSchema));
  }

  /** The prompt's token ids as the body sends them; a request without any fails. */
  static List<Integer> tokenIds(Object value) {
    List<Integer> ids = new ArrayList<>();
    if (value instanceof int[] array) {
      for (int id : array) {
        ids.add(id);
      }
    } else if (value instanceof List<?> list) {
      for (Object id : list) {
        if (!(id instanceof Integer || id instanceof Long || id instanceof Short)
            || ((Number) id).longValue() < 0 || ((Number) id).longValue() > Integer.MAX_VALUE) {
          throw new SessionValue.ResolutionException("promptTokenIds: token ids are whole "
              + "numbers >= 0, got " + id);
        }
        ids.add(((Number) id).intValue());
      }
    } else {
      throw new SessionValue.ResolutionException("promptTokenIds: expected a list of token "
          + "ids, got " + (value == null ? "null" : value.getClass().getSimpleName()));
    }
    if (ids.isEmpty()) {
      throw new SessionValue.ResolutionException("promptTokenIds: the prompt has no token id");
    }
    return ids;
  }

  private boolean ignoreEos() {
    return extraIgnoreEos != null ? Boolean.TRUE.equals(extraIgnoreEos)
        : Boolean.TRUE.equals(spec.ignoreEos());
  }

  private String model(String requestModel) {
    return extraModel != null ? (extraModel instanceof String m ? m : null) : requestModel;
  }

  @Override
  ChunkReader reader() {
    return spec.api().reader();
  }

  @Override
  public IntFunction<byte[]> warmUpBody(String model) {
    return maxTokens -> RequestBodies.build(spec, model, WARM_UP_PROMPT,
        spec.api().warmUpMessages(spec, WARM_UP_PROMPT), maxTokens);
  }
}
