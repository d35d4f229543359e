package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.dataset.StructuredOutputDataset;
import dev.gatlingllm.internal.action.GenerationTemplate;
import dev.gatlingllm.internal.action.RequestTemplate;
import io.gatling.commons.stats.OK$;
import io.gatling.core.session.Session;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import scala.collection.immutable.Map$;
import scala.collection.immutable.Nil$;
import scala.runtime.BoxedUnit;

/**
 * {@code tools}, {@code toolChoice} and {@code jsonSchema} on a chat request: what the body
 * sends, and the schema the answer will be checked against, wherever the request asked it.
 */
class ToolsAndSchemaBuilderTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<Map<String, Object>> TOOLS = List.of(Map.of("type", "function",
      "function", Map.of("name", "w", "parameters", Map.of("type", "object"))));
  private static final Map<String, Object> SCHEMA = Map.of("type", "object",
      "properties", Map.of("n", Map.of("type", "integer")), "required", List.of("n"));

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Session session(Object responseFormat) {
    scala.collection.immutable.Map attributes = Map$.MODULE$.empty();
    attributes = (scala.collection.immutable.Map) attributes.updated("prompt", "Count.");
    if (responseFormat != null) {
      attributes = (scala.collection.immutable.Map) attributes.updated(
          StructuredOutputDataset.RESPONSE_FORMAT, responseFormat);
    }
    return new Session("scn", 1L, attributes, OK$.MODULE$,
        (scala.collection.immutable.List) Nil$.MODULE$, s -> BoxedUnit.UNIT, null);
  }

  private static RequestTemplate.Body body(LlmRequestBuilder b, Object responseFormat) {
    return new GenerationTemplate(b.spec()).body(session(responseFormat), "m", "r1");
  }

  private static JsonNode json(RequestTemplate.Body body) throws Exception {
    return JSON.readTree(body.bytes());
  }

  private static LlmRequestBuilder chat() {
    return LlmRequestBuilder.chat("c").prompt("#{prompt}").maxTokens(8);
  }

  @Test
  void toolsAndANamedChoiceAreSent() throws Exception {
    JsonNode sent = json(body(chat().tools(TOOLS).toolChoice("w"), null));
    assertEquals(JSON.valueToTree(TOOLS), sent.get("tools"));
    assertEquals(JSON.readTree("{\"type\":\"function\",\"function\":{\"name\":\"w\"}}"),
        sent.get("tool_choice"));
    assertEquals("required", json(body(chat().tools(TOOLS).toolChoice("required"), null))
        .get("tool_choice").asText());
    assertNull(body(chat().tools(TOOLS), null).schema(), "tools ask for no schema");
  }

  @Test
  void aJsonSchemaIsSentAsResponseFormatAndCheckedAgainstTheAnswer() throws Exception {
    RequestTemplate.Body b = body(chat().jsonSchema("count", SCHEMA), null);
    assertEquals(JSON.readTree("{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"count\","
        + "\"schema\":" + JSON.writeValueAsString(SCHEMA) + "}}"), json(b).get("response_format"));
    assertTrue(b.schema().accepts("{\"n\": 3}"));
    assertFalse(b.schema().accepts("{\"n\": \"3\"}"));
  }

  @Test
  void theDatasetsFormatAndVllmsOwnFieldAreCheckedToo() {
    Map<String, Object> format = Map.of("type", "json_schema",
        "json_schema", Map.of("name", "count", "schema", SCHEMA));
    RequestTemplate.Body fromDataset = body(chat(), format);
    assertFalse(fromDataset.schema().accepts("{}"));
    assertTrue(fromDataset.schema().accepts("{\"n\": 1}"));
    RequestTemplate.Body vllm = body(chat().extraBody("structured_outputs",
        Map.of("json", Map.of("type", "array"))), null);
    assertTrue(vllm.schema().accepts("[]"));
    assertFalse(vllm.schema().accepts("{}"));
    RequestTemplate.Body older = body(chat().extraBody("guided_json", SCHEMA), null);
    assertTrue(older.schema().accepts("{\"n\": 2}"));
    assertNull(body(chat(), null).schema(), "a plain chat request asks nothing");
  }

  @Test
  void theyAreForChatCompletionsOnly() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LlmRequestBuilder.completions("c").jsonSchema("x", SCHEMA));
    assertEquals("jsonSchema(...) is only for chat requests (/v1/chat/completions)",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> chat().tools(List.of()));
    assertThrows(IllegalArgumentException.class, () -> chat().jsonSchema("x", null));
  }
}
