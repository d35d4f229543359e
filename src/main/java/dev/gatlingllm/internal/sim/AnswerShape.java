package dev.gatlingllm.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * What a chat answer is besides words: a tool call (its function's name and the JSON schema of
 * its arguments) or a JSON value that follows the schema the request asked for. Read from the
 * request's {@code tools}, {@code tool_choice}, {@code response_format} and
 * {@code structured_outputs}, refused where vLLM's request checks refuse them (its
 * {@code check_tool_usage}, {@code validate_response_format},
 * {@code check_structured_outputs_count}, and the serving layer's auto tool choice check),
 * with vLLM's words.
 *
 * @param toolName   the function the answer calls; null when it calls none
 * @param schema     the schema of the call's arguments, or of the answer itself when the
 *                   request asked for one; null when the answer is plain words
 */
record AnswerShape(String toolName, JsonNode schema) {

  static final AnswerShape WORDS = new AnswerShape(null, null);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CORRECT_USAGE =
      "Correct usage: `{\"type\": \"function\", \"function\": {\"name\": \"my_function\"}}`";

  boolean toolCall() {
    return toolName != null;
  }

  boolean structured() {
    return toolName == null && schema != null;
  }

  /** The shape of a chat request's answer, refusing what vLLM refuses. */
  static AnswerShape of(JsonNode root, SimulatorConfig config) throws ApiError {
    JsonNode tools = root.get("tools");
    JsonNode choice = root.get("tool_choice");
    boolean hasTools = tools != null && !tools.isNull();
    if (hasTools && tools.isArray() && tools.isEmpty()) {
      throw ApiError.badRequest("`tools` must not be an empty array. Either provide at least "
          + "one tool or omit the field entirely.");
    }
    String mode = choice == null || choice.isNull() ? (hasTools ? "auto" : "none")
        : choice.isTextual() ? choice.textValue() : null;
    AnswerShape tool = WORDS;
    if (!"none".equals(mode)) {
      if (!hasTools) {
        throw ApiError.badRequest("When using `tool_choice`, `tools` must be set.");
      }
      if (mode != null && !mode.equals("auto") && !mode.equals("required")) {
        throw ApiError.badRequest("Invalid value for `tool_choice`: " + mode + "! Only named "
            + "tools, \"none\", \"auto\" or \"required\" are supported.");
      }
      if (mode == null && !choice.isObject()) {
        throw ApiError.badRequest("Invalid value for `tool_choice`: " + choice + "! Only named "
            + "tools, \"none\", \"auto\" or \"required\" are supported.");
      }
      String named = mode == null ? namedFunction(choice) : null;
      JsonNode function = function(tools, named);
      if (named != null && function == null) {
        throw ApiError.badRequest(
            "The tool specified in `tool_choice` does not match any of the specified `tools`");
      }
      if ("auto".equals(mode) && !config.autoToolChoice()) {
        throw ApiError.badRequest("\"auto\" tool choice requires --enable-auto-tool-choice and "
            + "--tool-call-parser to be set");
      }
      boolean calls = named != null || "required".equals(mode) || config.toolCallAnswers();
      if (calls && function != null && function.path("name").isTextual()) {
        JsonNode parameters = function.get("parameters");
        tool = new AnswerShape(function.get("name").textValue(),
            parameters != null && parameters.isObject() ? parameters
                : JsonNodeFactory.instance.objectNode().put("type", "object"));
      }
    }
    JsonNode schema = requestedSchema(root);
    return tool.toolCall() || schema == null ? tool : new AnswerShape(null, schema);
  }

  private static String namedFunction(JsonNode choice) throws ApiError {
    JsonNode function = choice.get("function");
    if (function == null || !function.isObject()) {
      throw ApiError.badRequest("Invalid value for `function`: `" + function + "` in "
          + "`tool_choice`! " + CORRECT_USAGE);
    }
    JsonNode name = function.get("name");
    if (name == null) {
      throw ApiError.badRequest("Expected field `name` in `function` in `tool_choice`! "
          + CORRECT_USAGE);
    }
    if (!name.isTextual() || name.textValue().isEmpty()) {
      throw ApiError.badRequest("Invalid `name` in `function`: `" + name.asText() + "` in "
          + "`tool_choice`! " + CORRECT_USAGE);
    }
    return name.textValue();
  }

  /** The function {@code name} names among {@code tools}, or the first when name is null. */
  private static JsonNode function(JsonNode tools, String name) {
    if (!tools.isArray()) {
      return null;
    }
    for (JsonNode tool : tools) {
      JsonNode function = tool.path("function");
      if (name == null || name.equals(function.path("name").asText(null))) {
        return function.isObject() ? function : null;
      }
    }
    return null;
  }

  /** The JSON schema the answer must follow: {@code response_format} or vLLM's own field. */
  private static JsonNode requestedSchema(JsonNode root) throws ApiError {
    JsonNode format = root.get("response_format");
    if (format != null && format.isObject()) {
      String type = format.path("type").asText();
      if (type.equals("json_schema")) {
        JsonNode spec = format.get("json_schema");
        if (spec == null || spec.isNull()) {
          throw ApiError.badRequest("When response_format type is 'json_schema', the "
              + "'json_schema' field must be provided.");
        }
        JsonNode schema = spec.get("schema");
        return schema != null && schema.isObject() ? schema : JsonNodeFactory.instance.objectNode();
      }
      if (type.equals("json_object")) {
        return JsonNodeFactory.instance.objectNode().put("type", "object");
      }
    }
    JsonNode structured = root.get("structured_outputs");
    if (structured != null && structured.isObject()) {
      int kinds = 0;
      for (String k : new String[] {"json", "regex", "choice"}) {
        kinds += structured.hasNonNull(k) ? 1 : 0;
      }
      if (kinds > 1) {
        throw ApiError.badRequest("You can only use one kind of constraints for structured "
            + "outputs ('json', 'regex' or 'choice').");
      }
      JsonNode json = structured.get("json");
      if (json != null && json.isTextual()) {
        try {
          json = JSON.readTree(json.textValue());
        } catch (IOException e) {
          throw ApiError.badRequest("structured_outputs.json is not a JSON schema");
        }
      }
      if (json != null && json.isObject()) {
        return json;
      }
    }
    return null;
  }

  /**
   * A JSON value that follows {@code schema} (the subset datasets use: type, properties,
   * enum, items), the same for the same schema: the first enum value, "text", 1, 1.5, true,
   * one item per array, every property of an object.
   */
  static String valueFor(JsonNode schema) {
    return valueNode(schema).toString();
  }

  private static JsonNode valueNode(JsonNode schema) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    JsonNode allowed = schema.get("enum");
    if (allowed != null && allowed.isArray() && !allowed.isEmpty()) {
      return allowed.get(0);
    }
    JsonNode typeNode = schema.get("type");
    String type = typeNode == null ? (schema.has("properties") ? "object" : "string")
        : typeNode.isArray() ? typeNode.path(0).asText() : typeNode.asText();
    return switch (type) {
      case "object" -> {
        ObjectNode object = f.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields();
            it.hasNext(); ) {
          Map.Entry<String, JsonNode> p = it.next();
          object.set(p.getKey(), valueNode(p.getValue()));
        }
        yield object;
      }
      case "array" -> f.arrayNode().add(valueNode(schema.path("items")));
      case "integer" -> f.numberNode(1);
      case "number" -> f.numberNode(1.5);
      case "boolean" -> f.booleanNode(true);
      case "null" -> f.nullNode();
      default -> f.textNode("text");
    };
  }

  /** The {@code i}-th of {@code n} pieces of {@code text}, as even as they come (some empty). */
  static String piece(String text, int i, int n) {
    int from = (int) ((long) text.length() * i / n);
    int to = (int) ((long) text.length() * (i + 1) / n);
    return text.substring(from, to);
  }
}
