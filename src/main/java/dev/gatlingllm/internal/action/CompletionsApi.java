package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.action.RequestFlags;
import dev.gatlingllm.dataset.PromptTokenIds;
import dev.gatlingllm.internal.protocol.ServerCompliance;
import io.gatling.core.session.Session;
import java.util.List;
import java.util.Map;

/**
 * The completions API ({@code /v1/completions}): the prompt as {@code prompt} (its text, or its
 * token ids), the budget as {@code max_tokens}; the answer's chunks carry
 * {@code choices[0].text}, read by the shared fast path.
 */
public final class CompletionsApi extends GenerationApi {

  public static final CompletionsApi INSTANCE = new CompletionsApi();

  private CompletionsApi() {
    // several backend names send it: the result's endpoint_type is the run's --backend name
    super("completions", "/v1/completions", List.of("completions"), false, "max_tokens", false,
        true);
  }

  @Override
  public LlmRequestBuilder request(RequestFlags flags) {
    LlmRequestBuilder r = BuilderAccess.generation(this, "completions").fromDataset();
    if (flags.on("prompt-token-ids")) {
      // the ids the dataset's tokenizer gave each prompt (PromptTokenIds), as vllm-bench sends
      r = r.promptTokenIds("#{" + PromptTokenIds.FEEDER_KEY + "}");
    }
    return BackendRequests.generation(r, flags, true);
  }

  @Override
  List<Map<String, Object>> messages(RequestSpec spec, Session session, String prompt) {
    return null;
  }

  @Override
  List<Map<String, Object>> warmUpMessages(RequestSpec spec, String prompt) {
    return null;
  }

  @Override
  void putInput(Map<String, Object> body, RequestSpec spec, Object prompt,
      List<Map<String, Object>> messages, Object tools) {
    body.put("prompt", prompt);
  }

  @Override
  ServerCompliance.Asked asked(Integer maxTokens, ExtraBudgets extra, boolean ignoreEos,
      String model) {
    return openAiAsked(maxTokens, extra, ignoreEos, model, false);
  }
}
