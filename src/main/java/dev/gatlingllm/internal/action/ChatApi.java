package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.action.RequestFlags;
import dev.gatlingllm.dataset.BfclDataset;
import dev.gatlingllm.dataset.StructuredOutputDataset;
import dev.gatlingllm.internal.protocol.ServerCompliance;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The chat completions API ({@code /v1/chat/completions}): the prompt as the user message (its
 * text part first, the dataset's media after it, as vLLM's chat backend builds it), a
 * system message before it, the dataset's tools after the messages, the budget as
 * {@code max_completion_tokens}; the answer's chunks carry {@code choices[0].delta.content},
 * read by the shared fast path. The server renders the messages with its chat template.
 */
public final class ChatApi extends GenerationApi {

  public static final ChatApi INSTANCE = new ChatApi();

  private ChatApi() {
    super("openai-chat", "/v1/chat/completions", List.of("chat/completions"), true,
        "max_completion_tokens", true, false);
  }

  @Override
  public LlmRequestBuilder request(RequestFlags flags) {
    // vLLM sends the prompt as a text part of the user message, the media after it
    return BackendRequests.generation(BuilderAccess.generation(this, "chat").fromDataset()
        .multiModal(BackendRequests::mediaParts), flags, false);
  }

  @Override
  List<Map<String, Object>> messages(RequestSpec spec, Session session, String prompt) {
    return spec.messages() != null ? spec.messages().resolve(session)
        : userTurn(spec, prompt, spec.multiModal() == null ? null
            : MultiModal.parts(spec.multiModal().resolve(session)));
  }

  @Override
  List<Map<String, Object>> warmUpMessages(RequestSpec spec, String prompt) {
    return userTurn(spec, prompt, null);
  }

  @Override
  void putInput(Map<String, Object> body, RequestSpec spec, Object prompt,
      List<Map<String, Object>> messages, Object tools) {
    body.put("messages", messages);
    if (tools != null) {
      body.put("tools", tools);
    }
    if (spec.toolChoice() != null) {
      body.put("tool_choice", spec.toolChoice());
    }
  }

  /** The builder's JSON schema, else the dataset's ({@code response_format}); null for none. */
  @Override
  Object responseFormat(RequestSpec spec, Session session) {
    return spec.responseFormat() != null ? spec.responseFormat()
        : session.attributes().get(StructuredOutputDataset.RESPONSE_FORMAT).getOrElse(() -> null);
  }

  /** A dataset's tools (BFCL), sent with chat requests as vLLM sends them; null for none. */
  @Override
  Object tools(Session session) {
    return session.attributes().get(BfclDataset.TOOLS).getOrElse(() -> null);
  }

  @Override
  ServerCompliance.Asked asked(Integer maxTokens, ExtraBudgets extra, boolean ignoreEos,
      String model) {
    return openAiAsked(maxTokens, extra, ignoreEos, model, true);
  }

  /**
   * The user turn (after the system prompt, if any). With multimodal parts the content is a
   * list, the text part first and the media after it, as vLLM's chat backend builds it.
   */
  private static List<Map<String, Object>> userTurn(RequestSpec spec, String prompt,
      List<Map<String, Object>> media) {
    List<Map<String, Object>> messages = new ArrayList<>(2);
    if (spec.systemPrompt() != null) {
      messages.add(message("system", spec.systemPrompt()));
    }
    if (media == null) {
      messages.add(message("user", prompt));
    } else {
      List<Object> content = new ArrayList<>(1 + media.size());
      content.add(MultiModal.textPart(prompt));
      content.addAll(media);
      messages.add(message("user", content));
    }
    return messages;
  }

  static Map<String, Object> message(String role, Object content) {
    Map<String, Object> m = new LinkedHashMap<>(2);
    m.put("role", role);
    m.put("content", content);
    return m;
  }
}
