package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/** The body of {@code messages(name)}: the Messages API's fields, in order, and only those. */
class MessagesRequestTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<String> fields(JsonNode body) {
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }

  @Test
  void thePromptIsTheUserMessageAndTheSystemPromptTheSystemField() throws Exception {
    RequestPreview.Rendered r = RequestPreview.render(LlmDsl.messages("m").fromDataset()
            .systemPrompt("Be brief.").ignoreEos(true).topP(0.9).topK(5).minP(0.1)
            .presencePenalty(0.5),
        Map.of("prompt", "why is the sky blue", "prompt_len", 5, "output_len", 7), "served");
    assertEquals("/v1/messages", r.path());
    assertFalse(r.pooling());
    JsonNode body = JSON.readTree(r.body());
    // ignore_eos, min_p and the penalty are not the Messages API's: not sent
    assertEquals(List.of("model", "system", "messages", "max_tokens", "temperature", "top_p",
        "top_k", "stream"), fields(body));
    assertEquals("served", body.get("model").asText());
    assertEquals("Be brief.", body.get("system").asText());
    assertEquals(1, body.get("messages").size());
    assertEquals("user", body.get("messages").get(0).get("role").asText());
    assertEquals("why is the sky blue", body.get("messages").get(0).get("content").asText());
    assertEquals(7, body.get("max_tokens").asInt());
    assertEquals(0.0, body.get("temperature").asDouble());
    assertEquals(0.9, body.get("top_p").asDouble());
    assertEquals(5, body.get("top_k").asInt());
    assertTrue(body.get("stream").asBoolean());
  }

  /**
   * A system message of the list moves to {@code system} (the API has no system role), after
   * the system prompt; without a budget the request asks 1,024 tokens, as the API requires
   * one; the extra body wins over both.
   */
  @Test
  void systemMessagesMoveToTheSystemFieldAndTheBudgetIsAlwaysSent() throws Exception {
    RequestPreview.Rendered r = RequestPreview.render(LlmDsl.messages("m").stream(false)
        .systemPrompt("One. ")
        .messages(s -> List.of(Map.of("role", "system", "content", "Two."),
            Map.of("role", "user", "content", "hi"),
            Map.of("role", "assistant", "content", "hello"),
            Map.of("role", "user", "content", "and?"))), Map.of(), "served");
    JsonNode body = JSON.readTree(r.body());
    assertEquals(List.of("model", "system", "messages", "temperature", "stream", "max_tokens"),
        fields(body));
    assertEquals("One. Two.", body.get("system").asText());
    assertEquals(3, body.get("messages").size());
    assertEquals("assistant", body.get("messages").get(1).get("role").asText());
    assertEquals(1024, body.get("max_tokens").asInt());
    assertFalse(body.get("stream").asBoolean());

    JsonNode extra = JSON.readTree(RequestPreview.render(LlmDsl.messages("m").prompt("p")
        .maxTokens(3).extraBody("max_tokens", 9).extraBody("ignore_eos", true), Map.of(),
        "served").body());
    assertEquals(9, extra.get("max_tokens").asInt());
    assertTrue(extra.get("ignore_eos").asBoolean(), "the extra body is the user's word");
  }

  @Test
  void theRunIsNamedAfterTheBackend() {
    assertEquals("anthropic-messages",
        new GenerationTemplate(LlmDsl.messages("m").prompt("p").spec()).endpointType());
    assertEquals("max_tokens", LlmDsl.messages("m").prompt("p").spec().api().maxTokensField());
  }
}
