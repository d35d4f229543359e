package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.internal.action.GenerationTemplate;
import dev.gatlingllm.internal.action.RequestPreview;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The body of {@code responses(name)}: the Responses API's field names, in order. */
class ResponsesRequestTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<String> fields(JsonNode body) {
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }

  @Test
  void thePromptIsTheInputAndTheSystemPromptTheInstructions() throws Exception {
    RequestPreview.Rendered r = RequestPreview.render(LlmDsl.responses("r").fromDataset()
            .systemPrompt("Be brief.").ignoreEos(true).topP(0.9),
        Map.of("prompt", "why is the sky blue", "prompt_len", 5, "output_len", 7), "m");
    assertEquals("/v1/responses", r.path());
    assertFalse(r.pooling());
    JsonNode body = JSON.readTree(r.body());
    assertEquals(List.of("model", "input", "instructions", "max_output_tokens", "temperature",
        "top_p", "ignore_eos", "stream"), fields(body));
    assertEquals("m", body.get("model").asText());
    assertEquals("why is the sky blue", body.get("input").asText());
    assertEquals("Be brief.", body.get("instructions").asText());
    assertEquals(7, body.get("max_output_tokens").asInt());
    assertEquals(0.0, body.get("temperature").asDouble());
    assertEquals(0.9, body.get("top_p").asDouble());
    assertTrue(body.get("ignore_eos").asBoolean());
    assertTrue(body.get("stream").asBoolean());
  }

  @Test
  void messagesGoAsTheInputList() throws Exception {
    RequestPreview.Rendered r = RequestPreview.render(LlmDsl.responses("r").stream(false)
        .messages(s -> List.of(Map.of("role", "user", "content", "hi"),
            Map.of("role", "assistant", "content", "hello"))), Map.of(), "m");
    JsonNode body = JSON.readTree(r.body());
    assertEquals(List.of("model", "input", "temperature", "stream"), fields(body));
    assertEquals(2, body.get("input").size());
    assertEquals("assistant", body.get("input").get(1).get("role").asText());
    assertFalse(body.get("stream").asBoolean());
  }

  @Test
  void theRunIsNamedAfterTheBackendAndChatOnlyOptionsAreRefused() {
    assertEquals("openai-responses",
        new GenerationTemplate(LlmDsl.responses("r").prompt("p").spec()).endpointType());
    IllegalArgumentException media = assertThrows(IllegalArgumentException.class,
        () -> LlmDsl.responses("r").multiModal("#{mm_content}"));
    assertEquals("multiModal(...) is only for chat requests", media.getMessage());
    IllegalArgumentException logprobs = assertThrows(IllegalArgumentException.class,
        () -> LlmDsl.responses("r").logprobs(2));
    assertEquals("logprobs(...) is only for completions requests", logprobs.getMessage());
    IllegalArgumentException system = assertThrows(IllegalArgumentException.class,
        () -> LlmDsl.completions("c").systemPrompt("s"));
    assertEquals("systemPrompt(...) is only for chat and Responses requests",
        system.getMessage());
  }
}
