package dev.gatlingllm.internal.client;

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
 * reference client does. A delta's {@code tool_calls} fragments go into the answer's
 * {@link ToolCalls}, and {@code usage.completion_tokens_details.reasoning_tokens} is kept.
 *
 * <p>An API whose body has members beyond these (the Responses API's typed events) reads them
 * through {@link #parseWithJackson(byte[], int, ChunkFields, ChunkReader.Members)}; the
 * helpers below walk a member at a time for it.
 */
public final class ChunkParser {

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
    parseWithJackson(bytes, length, out, null);
  }

  /**
   * Jackson's path, with an API's own top-level members read by {@code api} (null: none),
   * which sees each member first, and applied once the body is read.
   */
  public static void parseWithJackson(byte[] bytes, int length, ChunkFields out,
      ChunkReader.Members api) throws IOException {
    out.reset();
    try (JsonParser p = JSON.createParser(bytes, 0, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("expected a JSON object");
      }
      for (String field; (field = nextMember(p)) != null; ) {
        if (api != null && api.read(field, p)) {
          continue;
        }
        switch (field) {
          case "choices" -> readChoices(p, out);
          case "usage" -> readUsage(p, out);
          case "error" -> out.error = readError(p);
          default -> p.skipChildren();
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new IOException("trailing content after the JSON object");
      }
    }
    if (api != null) {
      api.applyTo(out);
    }
  }

  private static void readChoices(JsonParser p, ChunkFields out) throws IOException {
    if (!opens(p, JsonToken.START_ARRAY)) {
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
    for (String field; (field = nextMember(p)) != null; ) {
      switch (field) {
        case "text" -> out.appendText(textOrNull(p));
        case "delta", "message" -> readMessage(p, out);
        case "finish_reason" -> out.finishReason = textOrNull(p);
        default -> p.skipChildren();
      }
    }
  }

  private static void readMessage(JsonParser p, ChunkFields out) throws IOException {
    if (!opens(p, JsonToken.START_OBJECT)) {
      return;
    }
    for (String field; (field = nextMember(p)) != null; ) {
      switch (field) {
        case "content" -> out.appendText(textOrNull(p));
        case "reasoning_content", "reasoning" -> {
          String thought = textOrNull(p);
          out.reasoning |= thought != null && !thought.isEmpty();
        }
        case "tool_calls" -> readToolCalls(p, out);
        default -> p.skipChildren();
      }
    }
  }

  /**
   * A delta's (or a whole message's) {@code tool_calls}: each element's {@code index} (its
   * position when it has none, as in a whole message), {@code function.name} and
   * {@code function.arguments}, into the answer's {@link ToolCalls}.
   */
  private static void readToolCalls(JsonParser p, ChunkFields out) throws IOException {
    if (!opens(p, JsonToken.START_ARRAY)) {
      return;
    }
    int position = 0;
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        p.skipChildren();
        position++;
        continue;
      }
      int index = position++;
      String name = null;
      String arguments = null;
      for (String field; (field = nextMember(p)) != null; ) {
        if (field.equals("index") && p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
          index = p.getIntValue();
        } else if (field.equals("function") && opens(p, JsonToken.START_OBJECT)) {
          for (String f; (f = nextMember(p)) != null; ) {
            switch (f) {
              case "name" -> name = textOrNull(p);
              case "arguments" -> arguments = textOrNull(p);
              default -> p.skipChildren();
            }
          }
        } else {
          p.skipChildren();
        }
      }
      out.toolCallFragment(index, name, arguments);
    }
  }

  /** The chunk's token counts into {@code out}. */
  private static void readUsage(JsonParser p, ChunkFields out) throws IOException {
    if (!opens(p, JsonToken.START_OBJECT)) {
      return;
    }
    for (String field; (field = nextMember(p)) != null; ) {
      JsonToken v = p.currentToken();
      if (v == JsonToken.VALUE_NUMBER_INT && field.equals("completion_tokens")) {
        out.completionTokens = p.getIntValue();
      } else if (v == JsonToken.VALUE_NUMBER_INT && field.equals("prompt_tokens")) {
        out.promptTokens = p.getIntValue();
      } else if (v == JsonToken.START_OBJECT && field.equals("prompt_tokens_details")) {
        readPromptDetails(p, out);
      } else if (field.equals("completion_tokens_details") && opens(p, JsonToken.START_OBJECT)) {
        for (String f; (f = nextMember(p)) != null; ) {
          if (f.equals("reasoning_tokens") && p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
            out.reasoningTokens = p.getIntValue();
          } else {
            p.skipChildren();
          }
        }
      } else {
        p.skipChildren();
      }
    }
  }

  /** {@code prompt_tokens_details}: the prompt tokens the server's prefix cache held. */
  private static void readPromptDetails(JsonParser p, ChunkFields out) throws IOException {
    for (String field; (field = nextMember(p)) != null; ) {
      if (p.currentToken() == JsonToken.VALUE_NUMBER_INT && field.equals("cached_tokens")) {
        out.cachedTokens = p.getIntValue();
      } else {
        p.skipChildren();
      }
    }
  }

  /** An in-band error is either a string or an object with a {@code message}. */
  public static String readError(JsonParser p) throws IOException {
    JsonToken value = p.currentToken();
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value != JsonToken.START_OBJECT) {
      p.skipChildren();
      return value == JsonToken.VALUE_STRING ? p.getText() : "error event";
    }
    String message = null;
    for (String field; (field = nextMember(p)) != null; ) {
      if (field.equals("message") && p.currentToken() == JsonToken.VALUE_STRING) {
        message = p.getText();
      } else {
        p.skipChildren();
      }
    }
    return message == null ? "error event" : message;
  }

  public static String textOrNull(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    p.skipChildren();
    return null;
  }

  /**
   * Moves past the next member's name onto its value and returns the name; null (on the
   * object's end) when there is no member left.
   */
  public static String nextMember(JsonParser p) throws IOException {
    if (p.nextToken() != JsonToken.FIELD_NAME) {
      return null;
    }
    String name = p.currentName();
    p.nextToken();
    return name;
  }

  /** Whether the current value starts with {@code start}; any other value is skipped. */
  public static boolean opens(JsonParser p, JsonToken start) throws IOException {
    if (p.currentToken() == start) {
      return true;
    }
    p.skipChildren();
    return false;
  }
}
