package dev.gatlingllm.internal.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;

/** Pulls the human message out of an error response body. */
final class ErrorBodies {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int MAX_CHARS = 300;

  private ErrorBodies() {}

  /**
   * vLLM answers {@code {"object":"error","message":...}}, OpenAI {@code {"error":{"message":...}}},
   * proxies plain text or HTML: take the message when there is one, else the start of the text.
   */
  static String message(byte[] body) {
    if (body.length == 0) {
      return "(empty body)";
    }
    try {
      JsonNode node = MAPPER.readTree(body);
      JsonNode message = node.path("message");
      if (message.isTextual()) {
        return clip(message.asText());
      }
      JsonNode error = node.path("error");
      if (error.path("message").isTextual()) {
        return clip(error.path("message").asText());
      }
      if (error.isTextual()) {
        return clip(error.asText());
      }
      if (node.path("detail").isTextual()) {
        return clip(node.path("detail").asText());
      }
    } catch (Exception notJson) {
      // fall through to the raw text
    }
    return clip(new String(body, StandardCharsets.UTF_8).strip());
  }

  private static String clip(String s) {
    String head = s.length() <= MAX_CHARS ? s : s.substring(0, MAX_CHARS) + "…";
    return head.replaceAll("\\s+", " ");
  }
}
