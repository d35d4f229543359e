package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.action.RequestBodies;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The two options vLLM's --lora-modules and --logprobs need. */
class RequestModelAndLogprobsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void logprobsIsSentOnlyWhenSet() throws IOException {
    LlmRequestBuilder plain = LlmRequestBuilder.completions("c").prompt("hi");
    JsonNode without = JSON.readTree(RequestBodies.build(plain.spec(), "m", "hi", null, 4));
    assertFalse(without.has("logprobs"));
    JsonNode with = JSON.readTree(
        RequestBodies.build(plain.logprobs(3).spec(), "m", "hi", null, 4));
    assertEquals(3, with.get("logprobs").asInt());
  }

  @Test
  void logprobsIsForCompletionsAndNotNegative() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> LlmRequestBuilder.chat("c").logprobs(1)).getMessage().contains("completions"));
    assertEquals("logprobs must be >= 0, got -1", assertThrows(IllegalArgumentException.class,
        () -> LlmRequestBuilder.completions("c").logprobs(-1)).getMessage());
  }

  @Test
  void modelIsKeptAsASessionValueAndCopiedWithTheBuilder() {
    LlmRequestBuilder b = LlmRequestBuilder.completions("c").prompt("hi").model("#{lora}");
    assertTrue(b.spec().model() != null);
    assertTrue(b.maxTokens(3).spec().model() != null, "kept by later calls");
    assertEquals(null, LlmRequestBuilder.completions("c").prompt("hi").spec().model());
  }
}
