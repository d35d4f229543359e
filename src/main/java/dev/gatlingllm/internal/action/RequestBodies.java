package dev.gatlingllm.internal.action;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the JSON body of one generation request, in the field order the reference client
 * sends: the fields every generation API shares here, its input and the budget's name from
 * its {@link GenerationApi}.
 */
public final class RequestBodies {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private RequestBodies() {}

  public static byte[] build(RequestSpec spec, String model, String prompt,
      List<Map<String, Object>> messages, Integer maxTokens) {
    return build(spec, model, prompt, messages, maxTokens, null);
  }

  /** With {@code min_tokens} after the token budget when {@code minTokens} is not null. */
  public static byte[] build(RequestSpec spec, String model, String prompt,
      List<Map<String, Object>> messages, Integer maxTokens, Integer minTokens) {
    return build(spec, model, prompt, messages, maxTokens, minTokens, null);
  }

  /**
   * With the chat request's {@code tools} after its messages when {@code tools} is not null.
   * A completions prompt is its text, or its token ids as a list of integers.
   */
  public static byte[] build(RequestSpec spec, String model, Object prompt,
      List<Map<String, Object>> messages, Integer maxTokens, Integer minTokens, Object tools) {
    GenerationApi api = spec.api();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("model", model);
    api.putInput(body, spec, prompt, messages, tools);
    if (maxTokens != null) {
      body.put(api.maxTokensField(), maxTokens);
    }
    putIfSet(body, "min_tokens", minTokens);
    putIfSet(body, "logprobs", spec.logprobs());
    // the builder's greedy default is in the spec already; null: the server's own default
    putIfSet(body, "temperature", spec.temperature());
    putIfSet(body, "top_p", spec.topP());
    putIfSet(body, "top_k", spec.topK());
    putIfSet(body, "min_p", spec.minP());
    putIfSet(body, "frequency_penalty", spec.frequencyPenalty());
    putIfSet(body, "presence_penalty", spec.presencePenalty());
    putIfSet(body, "repetition_penalty", spec.repetitionPenalty());
    putIfSet(body, "ignore_eos", spec.ignoreEos());
    body.put("stream", spec.stream());
    if (spec.stream() && api.streamOptions()) {
      body.put("stream_options", Map.of("include_usage", true));
    }
    api.completeBody(body);
    body.putAll(spec.extraBody());
    try {
      return MAPPER.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new SessionValue.ResolutionException("request body: " + e.getOriginalMessage());
    }
  }

  private static void putIfSet(Map<String, Object> body, String field, Object value) {
    if (value != null) {
      body.put(field, value);
    }
  }
}
