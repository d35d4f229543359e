package dev.gatlingllm.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Reads the few fields we need from an OpenAI-style JSON body (one streamed chunk, or a whole
 * non-streamed response) without building a tree: {@link ChunkScanner} for the common case,
 * Jackson's streaming parser for everything else.
 *
 * <p>Completions put the text in {@code choices[0].text}; chat chunks in
 * {@code choices[0].delta.content}; non-streamed chat in {@code choices[0].message.content}.
 * Reasoning models stream their thinking in {@code reasoning_content} (or {@code reasoning},
 * vLLM's newer name) first: such a chunk has choices, so it counts for TTFT and ITL as in the
 * reference client, but its text is not answer text (the reference's {@code generated_text}
 * holds {@code content} only); it is only flagged. Only the first choice is read, as the
 * reference client does.
 */
final class ChunkParser {

  private static final JsonFactory JSON = new JsonFactory();

  private ChunkParser() {}

  /**
   * Parses {@code bytes[0, length)} into {@code out}, which is reset first: with the fast
   * {@link ChunkScanner} when it is sure, else with Jackson (which also words the errors).
   */
  static void parse(byte[] bytes, int length, ChunkFields out) throws IOException {
    if (!ChunkScanner.scan(bytes, length, out)) {
      parseWithJackson(bytes, length, out);
    }
  }

  /** The reference path: Jackson's streaming parser. */
  static void parseWithJackson(byte[] bytes, int length, ChunkFields out) throws IOException {
    out.reset();
    try (JsonParser p = JSON.createParser(bytes, 0, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("expected a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "choices" -> readChoices(p, value, out);
          case "usage" -> readUsage(p, value, out);
          case "error" -> out.error = readError(p, value);
          default -> p.skipChildren();
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new IOException("trailing content after the JSON object");
      }
    }
  }

  private static void readChoices(JsonParser p, JsonToken value, ChunkFields out)
      throws IOException {
    if (value != JsonToken.START_ARRAY) {
      p.skipChildren();
      return;
    }
    boolean first = true;
    while (p.nextToken() != JsonToken.END_ARRAY) {
      out.hasChoices = true;
      if (first && p.currentToken() == JsonToken.START_OBJECT) {
        readChoice(p, out);
      } else {
        p.skipChildren();
      }
      first = false;
    }
  }

  private static void readChoice(JsonParser p, ChunkFields out) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      switch (field) {
        case "text" -> out.appendText(textOrNull(p, value));
        case "delta", "message" -> readMessage(p, value, out);
        case "finish_reason" -> out.finishReason = textOrNull(p, value);
        default -> p.skipChildren();
      }
    }
  }

  private static void readMessage(JsonParser p, JsonToken value, ChunkFields out)
      throws IOException {
    if (value != JsonToken.START_OBJECT) {
      p.skipChildren();
      return;
    }
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      switch (field) {
        case "content" -> out.appendText(textOrNull(p, v));
        case "reasoning_content", "reasoning" -> {
          String thought = textOrNull(p, v);
          out.reasoning |= thought != null && !thought.isEmpty();
        }
        default -> p.skipChildren();
      }
    }
  }

  private static void readUsage(JsonParser p, JsonToken value, ChunkFields out)
      throws IOException {
    if (value != JsonToken.START_OBJECT) {
      p.skipChildren();
      return;
    }
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      if (v == JsonToken.VALUE_NUMBER_INT && field.equals("completion_tokens")) {
        out.completionTokens = p.getIntValue();
      } else if (v == JsonToken.VALUE_NUMBER_INT && field.equals("prompt_tokens")) {
        out.promptTokens = p.getIntValue();
      } else {
        p.skipChildren();
      }
    }
  }

  /** An in-band error is either a string or an object with a {@code message}. */
  private static String readError(JsonParser p, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value != JsonToken.START_OBJECT) {
      p.skipChildren();
      return value == JsonToken.VALUE_STRING ? p.getText() : "error event";
    }
    String message = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      if (field.equals("message") && v == JsonToken.VALUE_STRING) {
        message = p.getText();
      } else {
        p.skipChildren();
      }
    }
    return message == null ? "error event" : message;
  }

  private static String textOrNull(JsonParser p, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    p.skipChildren();
    return null;
  }
}
