package dev.gatlingllm.internal.action;

import dev.gatlingllm.internal.client.JsonSchema;
import java.util.Map;

/**
 * The JSON schema a chat request asks its answer to follow, wherever the request says it:
 * OpenAI's {@code response_format} ({@code json_schema.schema}, or {@code json_object}: any
 * object), vLLM's {@code structured_outputs.json}, or the {@code guided_json} of vLLM before
 * 0.12 (today's vLLM ignores that field, so its answers are checked against what was asked
 * and not followed). The extra body wins over the builder and the dataset, as it does in the
 * body itself.
 */
final class AnswerSchema {

  private static final JsonSchema ANY_OBJECT = JsonSchema.of(Map.of("type", "object"));

  private AnswerSchema() {}

  /** What an extra body asks, read once per request builder; null when it asks nothing. */
  static JsonSchema fromExtraBody(Map<String, Object> extra) {
    JsonSchema format = ofResponseFormat(extra.get("response_format"));
    if (format != null) {
      return format;
    }
    if (extra.get("structured_outputs") instanceof Map<?, ?> structured
        && structured.get("json") instanceof Map<?, ?> json) {
      return JsonSchema.of(json);
    }
    if (extra.get("guided_json") instanceof Map<?, ?> guided) {
      return JsonSchema.of(guided);
    }
    return null;
  }

  /** The extra body's schema when it has one, else {@code responseFormat}'s; null: none. */
  static JsonSchema of(Object responseFormat, JsonSchema extra) {
    return extra != null ? extra : ofResponseFormat(responseFormat);
  }

  private static JsonSchema ofResponseFormat(Object value) {
    if (!(value instanceof Map<?, ?> format)) {
      return null;
    }
    Object type = format.get("type");
    if ("json_object".equals(type)) {
      return ANY_OBJECT;
    }
    if ("json_schema".equals(type) && format.get("json_schema") instanceof Map<?, ?> spec
        && spec.get("schema") instanceof Map<?, ?> schema) {
      return JsonSchema.of(schema);
    }
    return null;
  }
}
