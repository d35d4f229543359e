package dev.gatlingllm.internal.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The JSON-Schema subset structured-output requests use, to say whether an answer is what the
 * request asked for: {@code type} (one name or a list), {@code properties}, {@code required},
 * {@code additionalProperties: false}, {@code enum}, {@code items}. Other keywords
 * ({@code description}, {@code title}, formats, bounds) are not checked: an answer is judged on
 * this subset, which is what a constrained decoder is asked to hold to and what the shipped
 * structured-output dataset writes. Small on purpose: a library would bring a second JSON stack
 * and drafts this check does not need.
 */
public final class JsonSchema {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final JsonNode schema;

  private JsonSchema(JsonNode schema) {
    this.schema = schema;
  }

  /**
   * The schema of {@code value}: a JSON-Schema object as a {@code Map} (as a dataset or a
   * simulation holds it) or a {@link JsonNode}.
   *
   * @throws IllegalArgumentException when it is not a JSON object
   */
  public static JsonSchema of(Object value) {
    JsonNode node = value instanceof JsonNode n ? n : MAPPER.valueToTree(value);
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("a JSON schema is a JSON object, got " + node);
    }
    return new JsonSchema(node);
  }

  /** Whether {@code answer} is one JSON value that satisfies the schema. */
  public boolean accepts(String answer) {
    if (answer == null || answer.isBlank()) {
      return false;
    }
    JsonNode value;
    try {
      value = MAPPER.readTree(answer);
    } catch (IOException e) {
      return false;
    }
    return value != null && problems(schema, value, "$", new ArrayList<>(1), 1).isEmpty();
  }

  /** Why {@code value} does not satisfy the schema, one line per place; empty when it does. */
  public List<String> problems(JsonNode value) {
    return problems(schema, value, "$", new ArrayList<>(), Integer.MAX_VALUE);
  }

  private static List<String> problems(JsonNode schema, JsonNode value, String at,
      List<String> out, int limit) {
    if (out.size() >= limit || !schema.isObject()) {
      return out;
    }
    JsonNode type = schema.get("type");
    if (type != null && !typeMatches(type, value)) {
      out.add(at + ": expected " + type + ", got " + typeOf(value));
      return out;
    }
    JsonNode allowed = schema.get("enum");
    if (allowed != null && allowed.isArray() && !contains(allowed, value)) {
      out.add(at + ": " + value + " is not one of " + allowed);
    }
    if (value.isObject()) {
      object(schema, value, at, out, limit);
    } else if (value.isArray() && schema.has("items")) {
      for (int i = 0; i < value.size() && out.size() < limit; i++) {
        problems(schema.get("items"), value.get(i), at + "[" + i + "]", out, limit);
      }
    }
    return out;
  }

  private static void object(JsonNode schema, JsonNode value, String at, List<String> out,
      int limit) {
    JsonNode required = schema.path("required");
    for (JsonNode name : required) {
      if (name.isTextual() && !value.has(name.textValue())) {
        out.add(at + ": missing required property " + name);
      }
    }
    JsonNode properties = schema.path("properties");
    boolean closed = schema.path("additionalProperties").isBoolean()
        && !schema.get("additionalProperties").booleanValue();
    for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext()
        && out.size() < limit; ) {
      Map.Entry<String, JsonNode> member = it.next();
      JsonNode sub = properties.get(member.getKey());
      if (sub != null) {
        problems(sub, member.getValue(), at + "." + member.getKey(), out, limit);
      } else if (closed) {
        out.add(at + ": property \"" + member.getKey() + "\" is not allowed");
      }
    }
  }

  private static boolean typeMatches(JsonNode type, JsonNode value) {
    if (type.isArray()) {
      for (JsonNode t : type) {
        if (typeMatches(t, value)) {
          return true;
        }
      }
      return false;
    }
    return switch (type.asText()) {
      case "object" -> value.isObject();
      case "array" -> value.isArray();
      case "string" -> value.isTextual();
      // 1.0 is an integer in JSON Schema: a number with no fraction
      case "integer" -> value.isIntegralNumber()
          || value.isNumber() && value.asDouble() == Math.rint(value.asDouble());
      case "number" -> value.isNumber();
      case "boolean" -> value.isBoolean();
      case "null" -> value.isNull();
      default -> true; // a type this subset does not know is not held against the answer
    };
  }

  private static boolean contains(JsonNode allowed, JsonNode value) {
    for (JsonNode a : allowed) {
      if (a.equals(value) || a.isNumber() && value.isNumber()
          && a.decimalValue().compareTo(value.decimalValue()) == 0) {
        return true;
      }
    }
    return false;
  }

  private static String typeOf(JsonNode value) {
    return value.isObject() ? "object" : value.isArray() ? "array" : value.isTextual() ? "string"
        : value.isIntegralNumber() ? "integer" : value.isNumber() ? "number"
        : value.isBoolean() ? "boolean" : "null";
  }
}
