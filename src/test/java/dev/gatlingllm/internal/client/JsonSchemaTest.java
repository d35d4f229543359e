package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The schema subset structured-output answers are checked against, keyword by keyword. */
class JsonSchemaTest {

  private static final JsonSchema PERSON = JsonSchema.of(Map.of(
      "type", "object",
      "properties", Map.of(
          "name", Map.of("type", "string"),
          "age", Map.of("type", "integer"),
          "role", Map.of("type", "string", "enum", List.of("admin", "user")),
          "tags", Map.of("type", "array", "items", Map.of("type", "string"))),
      "required", List.of("name", "age"),
      "additionalProperties", false));

  @Test
  void anAnswerThatHoldsToEveryKeywordIsAccepted() {
    assertTrue(PERSON.accepts("{\"name\":\"Ada\",\"age\":36,\"role\":\"admin\",\"tags\":[\"x\"]}"));
    assertTrue(PERSON.accepts(" {\"name\":\"Ada\",\"age\":36.0} "));
  }

  @Test
  void eachBrokenKeywordIsNamed() throws Exception {
    ObjectMapper json = new ObjectMapper();
    assertEquals(List.of("$: missing required property \"age\""),
        PERSON.problems(json.readTree("{\"name\":\"Ada\"}")));
    assertEquals(List.of("$.age: expected \"integer\", got string"),
        PERSON.problems(json.readTree("{\"name\":\"Ada\",\"age\":\"36\"}")));
    assertEquals(List.of("$.role: \"root\" is not one of [\"admin\",\"user\"]"),
        PERSON.problems(json.readTree("{\"name\":\"A\",\"age\":1,\"role\":\"root\"}")));
    assertEquals(List.of("$.tags[1]: expected \"string\", got integer"),
        PERSON.problems(json.readTree("{\"name\":\"A\",\"age\":1,\"tags\":[\"a\",2]}")));
    assertEquals(List.of("$: property \"extra\" is not allowed"),
        PERSON.problems(json.readTree("{\"name\":\"A\",\"age\":1,\"extra\":true}")));
    assertEquals(List.of("$: expected \"object\", got array"), PERSON.problems(json.readTree("[]")));
  }

  @Test
  void textThatIsNotOneJsonValueIsRejected() {
    assertFalse(PERSON.accepts("Sure! {\"name\":\"Ada\",\"age\":36}"));
    assertFalse(PERSON.accepts("{\"name\":\"Ada\",\"age\":36"));
    assertFalse(PERSON.accepts(""));
    assertFalse(PERSON.accepts(null));
  }

  @Test
  void aTypeListAcceptsAnyOfItsTypes() {
    JsonSchema nullable = JsonSchema.of(Map.of("type", List.of("string", "null")));
    assertTrue(nullable.accepts("null"));
    assertTrue(nullable.accepts("\"x\""));
    assertFalse(nullable.accepts("1"));
  }

  @Test
  void aSchemaIsAnObject() {
    assertThrows(IllegalArgumentException.class, () -> JsonSchema.of(List.of()));
  }
}
