package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.action.KoMessages;
import dev.gatlingllm.internal.action.RequestBodies;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestBuildersTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode body(LlmRequestBuilder builder, String prompt,
      List<Map<String, Object>> messages, Integer maxTokens) throws IOException {
    return JSON.readTree(RequestBodies.build(builder.spec(), "served", prompt, messages, maxTokens));
  }

  @Test
  void completionsBodyIsGreedyStreamedWithUsage() throws IOException {
    JsonNode b = body(LlmRequestBuilder.completions("c").prompt("hi").ignoreEos(true), "hi",
        null, 16);
    assertEquals("{\"model\":\"served\",\"prompt\":\"hi\",\"max_tokens\":16,\"temperature\":0.0,"
        + "\"ignore_eos\":true,\"stream\":true,\"stream_options\":{\"include_usage\":true}}",
        b.toString());
  }

  @Test
  void chatUsesMessagesAndMaxCompletionTokensAndOnlySetSamplingFields() throws IOException {
    LlmRequestBuilder chat = LlmRequestBuilder.chat("c").prompt("q").temperature(0.7).topP(0.9)
        .topK(40).minP(0.05).frequencyPenalty(0.5).presencePenalty(-0.5).repetitionPenalty(1.1)
        .extraBody("seed", 7).stream(false);
    JsonNode b = body(chat, "q", List.of(Map.of("role", "user", "content", "q")), 8);
    assertEquals(JSON.readTree("[{\"role\":\"user\",\"content\":\"q\"}]"), b.get("messages"));
    assertEquals(8, b.get("max_completion_tokens").asInt());
    assertEquals(0.7, b.get("temperature").asDouble());
    assertEquals(0.9, b.get("top_p").asDouble());
    assertEquals(40, b.get("top_k").asInt());
    assertEquals(0.05, b.get("min_p").asDouble());
    assertEquals(0.5, b.get("frequency_penalty").asDouble());
    assertEquals(-0.5, b.get("presence_penalty").asDouble());
    assertEquals(1.1, b.get("repetition_penalty").asDouble());
    assertEquals(7, b.get("seed").asInt());
    assertEquals(false, b.get("stream").asBoolean());
    assertEquals(null, b.get("stream_options"), "no stream options without streaming");
    assertEquals(null, b.get("max_tokens"));
  }

  @Test
  void extraBodyWinsOverAStandardField() throws IOException {
    JsonNode b = body(LlmRequestBuilder.completions("c").prompt("p").extraBody("temperature", 1.5),
        "p", null, null);
    assertEquals(1.5, b.get("temperature").asDouble());
    assertEquals(null, b.get("max_tokens"), "no max tokens unless set");
  }

  @Test
  void badValuesAreRejectedWhenTheSimulationIsBuilt() {
    assertEquals("topP must be in (0, 1], got 1.5", assertThrows(IllegalArgumentException.class,
        () -> LlmRequestBuilder.completions("c").topP(1.5)).getMessage());
    assertEquals("maxTokens must be >= 1, got 0", assertThrows(IllegalArgumentException.class,
        () -> LlmRequestBuilder.completions("c").maxTokens(0)).getMessage());
    assertEquals("systemPrompt(...) is only for chat and Responses requests", assertThrows(
        IllegalArgumentException.class,
        () -> LlmRequestBuilder.completions("c").systemPrompt("s")).getMessage());
    assertEquals("request 'c': prompt(...) is required", assertThrows(
        IllegalArgumentException.class, () -> LlmRequestBuilder.completions("c").asScala())
        .getMessage());
    assertEquals("extraBody cannot set 'stream': use stream(boolean) instead", assertThrows(
        IllegalArgumentException.class,
        () -> LlmRequestBuilder.completions("c").extraBody("stream", false)).getMessage());
    assertEquals("prompt: invalid Gatling EL '#{unclosed'", assertThrows(
        IllegalArgumentException.class,
        () -> LlmRequestBuilder.completions("c").prompt("#{unclosed")).getMessage()
        .replaceAll(": Failed to parse.*", ""));
  }

  @Test
  void koMessagesLoseTheirNumbersButKeepTheirMeaning() {
    assertEquals("HTTP 400: maximum context length is # tokens, you requested # tokens",
        KoMessages.lowCardinality(
            "HTTP 400: maximum context length is 2048 tokens, you requested 2100 tokens"));
    assertEquals("idle timeout (400 ms without data)",
        KoMessages.lowCardinality("idle timeout (400 ms without data)"));
    assertEquals("error event: request # aborted",
        KoMessages.lowCardinality("error event: request 17 aborted"));
    assertEquals("malformed JSON chunk: Unexpected character (code #)",
        KoMessages.lowCardinality("malformed JSON chunk: Unexpected character (code 125)"));
  }
}
