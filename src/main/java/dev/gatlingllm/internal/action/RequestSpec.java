package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.LlmRequestBuilder;
import java.util.List;
import java.util.Map;

/**
 * The validated, immutable content of an {@link LlmRequestBuilder}: what the action needs to
 * build each request body, and the API that body is for. Sampling parameters left null are not
 * sent; so are {@code tools} (null: the dataset's, if any), {@code toolChoice} and
 * {@code responseFormat} (null: the dataset's, if any).
 */
public record RequestSpec(
    GenerationApi api,
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
    SessionValue<Object> promptTokenIds,
    SessionValue<Object> tools,
    Object toolChoice,
    Map<String, Object> responseFormat) {
}
