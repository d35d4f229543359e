package dev.gatlingllm.internal.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The members of a Responses API body ({@code /v1/responses}) that {@link ChunkParser} reads
 * beside the chat ones, and how they map onto {@link ChunkFields}. Only the Jackson path
 * reads them: {@link ChunkScanner} gives up on a top-level {@code type} or {@code output}, so
 * the chat and completions chunks keep their fast path untouched.
 *
 * <p>A streamed answer is a series of typed events. A {@code response.output_text.delta} with
 * text is a content chunk (TTFT at the first, one ITL per delta, as chat's content chunks);
 * a {@code response.reasoning_text.delta} (or reasoning summary delta) counts too, flagged as
 * reasoning, as chat's {@code reasoning_content} chunks do. The usage comes from the
 * {@code response} object of the terminal event ({@code input_tokens}, {@code output_tokens});
 * a {@code response.failed} event's {@code response.error} and an {@code error} event's
 * {@code message} fail the request. Every other event (created, in progress, output item and
 * content part events, the done events) carries nothing measured: the terminal event's
 * {@code response.output} repeats the whole text, so it is not read.
 *
 * <p>A non-streamed answer is the response object itself: its {@code output} items'
 * {@code output_text} parts are the text, a {@code reasoning} item flags reasoning.
 */
final class ResponsesParts {

  private static final String TEXT_DELTA = "response.output_text.delta";
  private static final String FAILED = "response.failed";

  /** The event's {@code type}; null for a non-streamed response object (or a chat body). */
  String type;
  private String delta;
  private String message;
  private boolean output;
  private StringBuilder outputText;
  private boolean outputReasoning;
  private String status;
  private String responseError;
  /** {@code usage.input_tokens} / {@code usage.output_tokens}; -1 when absent. */
  int inputTokens = -1;
  int outputTokens = -1;

  /** Reads the value of a top-level member that is the Responses API's; false for others. */
  boolean read(String field, JsonParser p) throws IOException {
    switch (field) {
      case "type" -> type = ChunkParser.textOrNull(p);
      case "delta" -> delta = ChunkParser.textOrNull(p);
      case "message" -> message = ChunkParser.textOrNull(p);
      case "status" -> status = ChunkParser.textOrNull(p);
      case "output" -> readOutput(p);
      case "response" -> readResponse(p);
      default -> {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the body was a Responses API event (its type {@code response.*} or
   * {@code error}) or response object (an {@code output} list).
   */
  boolean found() {
    return type != null && (type.startsWith("response.") || type.equals("error")) || output;
  }

  /** Puts what was read into {@code out}, replacing what the chat reading found there. */
  void applyTo(ChunkFields out) {
    out.hasChoices = false;
    out.text = null;
    out.reasoning = false;
    if (inputTokens >= 0) {
      out.promptTokens = inputTokens;
    }
    if (outputTokens >= 0) {
      out.completionTokens = outputTokens;
    }
    if (output && (type == null || !found())) {
      // the whole response object of a non-streamed request
      out.hasChoices = true;
      out.text = outputText == null ? null : outputText.toString();
      out.reasoning = outputReasoning;
      if (out.error == null && "failed".equals(status)) {
        out.error = "response failed";
      }
      return;
    }
    boolean hasDelta = delta != null && !delta.isEmpty();
    if (type.equals(TEXT_DELTA)) {
      out.hasChoices = hasDelta;
      out.text = hasDelta ? delta : null;
    } else if (type.startsWith("response.reasoning") && type.endsWith(".delta")) {
      out.hasChoices = hasDelta;
      out.reasoning = hasDelta;
    } else if (type.equals("error")) {
      out.error = message != null ? message : out.error != null ? out.error : "error event";
    } else if (type.equals(FAILED)) {
      out.error = responseError != null ? responseError : "response failed";
    }
  }

  /** The {@code response} object of a lifecycle event: its usage, error and status. */
  private void readResponse(JsonParser p) throws IOException {
    if (!ChunkParser.opens(p, JsonToken.START_OBJECT)) {
      return;
    }
    for (String field; (field = ChunkParser.nextMember(p)) != null; ) {
      switch (field) {
        case "usage" -> readUsage(p);
        case "error" -> responseError = ChunkParser.readError(p);
        default -> p.skipChildren();
      }
    }
  }

  private void readUsage(JsonParser p) throws IOException {
    ChunkParser.readUsage(p, new ChunkFields(), this);
  }

  /** The output items of a response object: messages' text parts, reasoning items. */
  private void readOutput(JsonParser p) throws IOException {
    if (!ChunkParser.opens(p, JsonToken.START_ARRAY)) {
      return;
    }
    output = true;
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        p.skipChildren();
        continue;
      }
      String itemType = null;
      StringBuilder itemText = new StringBuilder();
      for (String field; (field = ChunkParser.nextMember(p)) != null; ) {
        switch (field) {
          case "type" -> itemType = ChunkParser.textOrNull(p);
          case "content" -> readParts(p, itemText);
          default -> p.skipChildren();
        }
      }
      if ("reasoning".equals(itemType)) {
        outputReasoning = true;
      } else if ("message".equals(itemType) && !itemText.isEmpty()) {
        outputText = outputText == null ? itemText : outputText.append(itemText);
      }
    }
  }

  /** A message's content parts: the text of those of type {@code output_text}. */
  private static void readParts(JsonParser p, StringBuilder text) throws IOException {
    if (!ChunkParser.opens(p, JsonToken.START_ARRAY)) {
      return;
    }
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        p.skipChildren();
        continue;
      }
      String partType = null;
      String partText = null;
      for (String field; (field = ChunkParser.nextMember(p)) != null; ) {
        switch (field) {
          case "type" -> partType = ChunkParser.textOrNull(p);
          case "text" -> partText = ChunkParser.textOrNull(p);
          default -> p.skipChildren();
        }
      }
      if ("output_text".equals(partType) && partText != null) {
        text.append(partText);
      }
    }
  }
}
