package dev.gatlingllm.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.dataset.SampleRequest;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * vLLM's "initial test run" request: the first sampled prompt, sent the way the run sends
 * its requests (same model, fields and sampling values) but without a request id. The ready
 * check polls with it and {@code --profile} posts it to the profiler endpoints, as vLLM does.
 * {@code BenchServeIntegrationTest} checks it against the run's first request, field by field.
 */
final class TestRequest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private TestRequest() {}

  static byte[] body(BenchPlan plan, SampleRequest first) {
    BenchArgs args = plan.args();
    boolean chat = plan.backend().request() == Backends.Request.CHAT;
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("model", plan.requestModelName());
    if (chat) {
      body.put("messages", List.of(Map.of("role", "user", "content",
          List.of(Map.of("type", "text", "text", first.prompt())))));
      body.put("max_completion_tokens", first.expectedOutputLen());
    } else {
      body.put("prompt", first.prompt());
      body.put("max_tokens", first.expectedOutputLen());
      args.integer("logprobs").ifPresent(n -> body.put("logprobs", n));
    }
    body.put("temperature", args.decimal("temperature").orElse(0.0));
    args.decimal("top-p").ifPresent(v -> body.put("top_p", v));
    args.integer("top-k").ifPresent(v -> body.put("top_k", v));
    args.decimal("min-p").ifPresent(v -> body.put("min_p", v));
    args.decimal("frequency-penalty").ifPresent(v -> body.put("frequency_penalty", v));
    args.decimal("presence-penalty").ifPresent(v -> body.put("presence_penalty", v));
    if (args.has("repetition-penalty") || !chat) {
      body.put("repetition_penalty", args.decimal("repetition-penalty").orElse(1.0));
    }
    if (args.on("ignore-eos")) {
      body.put("ignore_eos", true);
    }
    body.put("stream", true);
    body.put("stream_options", Map.of("include_usage", true));
    try {
      return JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
