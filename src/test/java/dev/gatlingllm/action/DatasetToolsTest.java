package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.dataset.BfclDataset;
import dev.gatlingllm.internal.action.GenerationTemplate;
import io.gatling.commons.stats.OK$;
import io.gatling.core.session.Session;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import scala.collection.immutable.Map$;
import scala.collection.immutable.Nil$;
import scala.runtime.BoxedUnit;

/** A dataset's tools (BFCL) go into chat bodies after the messages, and only there. */
class DatasetToolsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<Map<String, Object>> TOOLS = List.of(Map.of("type", "function",
      "function", Map.of("name", "w", "parameters", Map.of("type", "object"))));

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Session session(Object tools) {
    scala.collection.immutable.Map attributes = Map$.MODULE$.empty();
    attributes = (scala.collection.immutable.Map) attributes.updated("prompt", "Weather?");
    if (tools != null) {
      attributes = (scala.collection.immutable.Map) attributes.updated(BfclDataset.TOOLS, tools);
    }
    return new Session("scn", 1L, attributes, OK$.MODULE$,
        (scala.collection.immutable.List) Nil$.MODULE$, s -> BoxedUnit.UNIT, null);
  }

  private static JsonNode body(LlmRequestBuilder b, Object tools) throws Exception {
    return JSON.readTree(new GenerationTemplate(b.spec()).body(session(tools), "m", "r1")
        .bytes());
  }

  @Test
  void chatSendsTheToolsRightAfterItsMessages() throws Exception {
    JsonNode chat = body(LlmRequestBuilder.chat("c").prompt("#{prompt}").maxTokens(8), TOOLS);
    assertEquals(JSON.readTree("[{\"type\": \"function\", \"function\": {\"name\": \"w\","
        + " \"parameters\": {\"type\": \"object\"}}}]"), chat.get("tools"));
    List<String> fields = new java.util.ArrayList<>();
    chat.fieldNames().forEachRemaining(fields::add);
    assertEquals(fields.indexOf("messages") + 1, fields.indexOf("tools"));
    assertFalse(body(LlmRequestBuilder.chat("c").prompt("#{prompt}").maxTokens(8), null)
        .has("tools"), "no tools in the session, none sent");
  }

  @Test
  void completionsHaveNoTools() throws Exception {
    assertFalse(body(LlmRequestBuilder.completions("c").prompt("#{prompt}").maxTokens(8),
        TOOLS).has("tools"));
  }
}
