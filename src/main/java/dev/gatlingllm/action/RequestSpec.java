package dev.gatlingllm.action;

import java.util.List;
import java.util.Map;

/**
 * The validated, immutable content of an {@link LlmRequestBuilder}: what the action needs to
 * build each request body. Sampling parameters left null are not sent.
 */
record RequestSpec(
    Endpoint endpoint,
    String name,
    String path,
    SessionValue<String> prompt,
    SessionValue<List<Map<String, Object>>> messages,
    String systemPrompt,
    SessionValue<Integer> maxTokens,
    SessionValue<Integer> promptTokens,
    Boolean ignoreEos,
    Double temperature,
    Double topP,
    Integer topK,
    Double minP,
    Double frequencyPenalty,
    Double presencePenalty,
    Double repetitionPenalty,
    Map<String, Object> extraBody,
    boolean stream,
    String saveTextAs,
    SessionValue<String> requestId,
    SessionValue<String> model,
    Integer logprobs,
    SessionValue<Object> multiModal,
    SessionValue<Object> promptTokenIds) {

  /** The OpenAI generation endpoints we speak. */
  enum Endpoint {
    COMPLETIONS("openai", "completions", "max_tokens"),
    CHAT("openai-chat", "chat", "max_completion_tokens"),
    /** The Responses API: {@code input}, {@code instructions}, typed events back. */
    RESPONSES("openai-responses", "openai-responses", "max_output_tokens");

    /** vLLM's backend of this endpoint, whose path is the default. */
    final String backend;
    final String endpointType;
    final String maxTokensField;

    Endpoint(String backend, String endpointType, String maxTokensField) {
      this.backend = backend;
      this.endpointType = endpointType;
      this.maxTokensField = maxTokensField;
    }

    String defaultPath() {
      return Backends.resolve(backend).defaultEndpoint();
    }
  }
}
