package dev.gatlingllm.internal.action;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.action.RequestFlags;
import dev.gatlingllm.internal.client.ChunkFields;
import dev.gatlingllm.internal.client.ChunkParser;
import dev.gatlingllm.internal.client.ChunkReader;
import dev.gatlingllm.internal.protocol.ServerCompliance;
import io.gatling.core.session.Session;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The Responses API ({@code /v1/responses}, vLLM's Rust client's {@code openai-responses}):
 * the prompt (or a message list) as {@code input}, the system prompt as {@code instructions},
 * the budget as {@code max_output_tokens}, no {@code stream_options} (the completed event
 * always carries the usage). Its answer is a series of typed events, read here.
 *
 * <p>A {@code response.output_text.delta} with text is a content chunk (TTFT at the first, one
 * ITL per delta, as chat's content chunks); a {@code response.reasoning_text.delta} (or
 * reasoning summary delta) counts too, flagged as reasoning, as chat's
 * {@code reasoning_content} chunks do. The usage comes from the {@code response} object of
 * the terminal event ({@code input_tokens}, {@code output_tokens}); a {@code response.failed}
 * event's {@code response.error} and an {@code error} event's {@code message} fail the
 * request. Every other event (created, in progress, output item and content part events, the
 * done events) carries nothing measured: the terminal event's {@code response.output} repeats
 * the whole text, so it is not read. A non-streamed answer is the response object itself: its
 * {@code output} items' {@code output_text} parts are the text, a {@code reasoning} item flags
 * reasoning. A body that is none of these (a chat-shaped error) is read as the OpenAI chunk.
 */
public final class ResponsesApi extends GenerationApi {

  public static final ResponsesApi INSTANCE = new ResponsesApi();

  /** Jackson's path with the events' members: the chat scanner gives up on them anyway. */
  private static final ChunkReader READER = (json, length, out) ->
      ChunkParser.parseWithJackson(json, length, out, new Event());

  private ResponsesApi() {
    super("openai-responses", "/v1/responses", List.of("responses"), false,
        "max_output_tokens", true, false);
  }

  @Override
  public ChunkReader reader() {
    return READER;
  }

  @Override
  public LlmRequestBuilder request(RequestFlags flags) {
    return BackendRequests.generation(BuilderAccess.generation(this, "responses").fromDataset(),
        flags, false);
  }

  @Override
  List<Map<String, Object>> messages(RequestSpec spec, Session session, String prompt) {
    return spec.messages() != null ? spec.messages().resolve(session) : null;
  }

  @Override
  List<Map<String, Object>> warmUpMessages(RequestSpec spec, String prompt) {
    return null;
  }

  @Override
  void putInput(Map<String, Object> body, RequestSpec spec, Object prompt,
      List<Map<String, Object>> messages, Object tools) {
    // a string or a message list as input, the system prompt apart
    body.put("input", messages != null ? messages : prompt);
    if (spec.systemPrompt() != null) {
      body.put("instructions", spec.systemPrompt());
    }
  }

  @Override
  boolean streamOptions() {
    return false;
  }

  @Override
  ServerCompliance.Asked asked(Integer maxTokens, ExtraBudgets extra, boolean ignoreEos,
      String model) {
    Integer out = extra.own() != null ? extra.own() : maxTokens;
    int max = out == null ? -1 : out;
    return new ServerCompliance.Asked(max, max, false, ignoreEos, model, false);
  }

  /** The members of one Responses body beside the OpenAI chunk's. */
  static final class Event implements ChunkReader.Members {

    private static final String TEXT_DELTA = "response.output_text.delta";
    private static final String FAILED = "response.failed";

    /** The event's {@code type}; null for a non-streamed response object (or a chat body). */
    private String type;
    private String delta;
    private String message;
    private boolean output;
    private StringBuilder outputText;
    private boolean outputReasoning;
    private String status;
    private String responseError;
    /** {@code usage.input_tokens} / {@code usage.output_tokens}; -1 when absent. */
    private int inputTokens = -1;
    private int outputTokens = -1;
    /** A top-level usage's chat counts ({@code prompt_tokens}, {@code completion_tokens}). */
    private int promptTokens = -1;
    private int completionTokens = -1;

    @Override
    public boolean read(String field, JsonParser p) throws IOException {
      switch (field) {
        case "type" -> type = ChunkParser.textOrNull(p);
        case "delta" -> delta = ChunkParser.textOrNull(p);
        case "message" -> message = ChunkParser.textOrNull(p);
        case "status" -> status = ChunkParser.textOrNull(p);
        case "output" -> readOutput(p);
        case "response" -> readResponse(p);
        case "usage" -> readUsage(p, true);
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
    private boolean found() {
      return type != null && (type.startsWith("response.") || type.equals("error")) || output;
    }

    /** Puts what was read into {@code out}, replacing what the chat reading found there. */
    @Override
    public void applyTo(ChunkFields out) {
      if (promptTokens >= 0) {
        out.promptTokens(promptTokens);
      }
      if (completionTokens >= 0) {
        out.completionTokens(completionTokens);
      }
      if (!found()) {
        return;
      }
      out.hasChoices(false);
      out.text(null);
      out.reasoning(false);
      if (inputTokens >= 0) {
        out.promptTokens(inputTokens);
      }
      if (outputTokens >= 0) {
        out.completionTokens(outputTokens);
      }
      if (output && type == null) {
        // the whole response object of a non-streamed request
        out.hasChoices(true);
        out.text(outputText == null ? null : outputText.toString());
        out.reasoning(outputReasoning);
        if (out.error() == null && "failed".equals(status)) {
          out.error("response failed");
        }
        return;
      }
      boolean hasDelta = delta != null && !delta.isEmpty();
      if (type.equals(TEXT_DELTA)) {
        out.hasChoices(hasDelta);
        out.text(hasDelta ? delta : null);
      } else if (type.startsWith("response.reasoning") && type.endsWith(".delta")) {
        out.hasChoices(hasDelta);
        out.reasoning(hasDelta);
      } else if (type.equals("error")) {
        out.error(message != null ? message : out.error() != null ? out.error() : "error event");
      } else if (type.equals(FAILED)) {
        out.error(responseError != null ? responseError : "response failed");
      }
    }

    /** The {@code response} object of a lifecycle event: its usage, error and status. */
    private void readResponse(JsonParser p) throws IOException {
      if (!ChunkParser.opens(p, JsonToken.START_OBJECT)) {
        return;
      }
      for (String field; (field = ChunkParser.nextMember(p)) != null; ) {
        switch (field) {
          case "usage" -> readUsage(p, false);
          case "error" -> responseError = ChunkParser.readError(p);
          default -> p.skipChildren();
        }
      }
    }

    /** The usage's counts; a chat count only from a top-level usage, as a chat body has it. */
    private void readUsage(JsonParser p, boolean topLevel) throws IOException {
      if (!ChunkParser.opens(p, JsonToken.START_OBJECT)) {
        return;
      }
      for (String field; (field = ChunkParser.nextMember(p)) != null; ) {
        JsonToken v = p.currentToken();
        if (v == JsonToken.VALUE_NUMBER_INT && field.equals("input_tokens")) {
          inputTokens = p.getIntValue();
        } else if (v == JsonToken.VALUE_NUMBER_INT && field.equals("output_tokens")) {
          outputTokens = p.getIntValue();
        } else if (topLevel && v == JsonToken.VALUE_NUMBER_INT
            && field.equals("prompt_tokens")) {
          promptTokens = p.getIntValue();
        } else if (topLevel && v == JsonToken.VALUE_NUMBER_INT
            && field.equals("completion_tokens")) {
          completionTokens = p.getIntValue();
        } else {
          p.skipChildren();
        }
      }
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
}
