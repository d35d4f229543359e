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
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Anthropic Messages API ({@code /v1/messages}, which vLLM serves beside the OpenAI API and
 * AIPerf benchmarks as its {@code messages} endpoint type): the prompt as the user message, the
 * system prompt as the top-level {@code system} field (the API has no system role in its
 * messages), the budget as {@code max_tokens}, which the API requires, so a request without a
 * budget asks 1,024 tokens, as AIPerf does. No {@code stream_options}: the
 * stream always ends with the usage. Only the Messages API's own fields are sent: vLLM drops the
 * others (it has no {@code ignore_eos} there) and Anthropic's server refuses them.
 *
 * <p>Its answer is a stream of typed events, read here. A {@code content_block_delta} with a
 * {@code text_delta} is a content chunk (TTFT at the first, one ITL per delta, as chat's
 * content chunks); a {@code thinking_delta} counts too, flagged as reasoning, as chat's
 * {@code reasoning_content} chunks are, so the time to the first answer chunk is the first
 * {@code text_delta}'s; an {@code input_json_delta} (a tool call's arguments) is a chunk without
 * answer text, as chat's tool-call chunks are. The input length comes from
 * {@code message_start}'s usage, the output length from {@code message_delta}'s; an
 * {@code error} event fails the request. {@code ping}, the block start and stop events, a
 * {@code signature_delta} and {@code message_stop} carry nothing measured. A non-streamed answer
 * is the message itself: its {@code text} blocks are the text, a {@code thinking} block flags
 * reasoning.
 *
 * <p>Every request carries {@code anthropic-version} and the key as {@code x-api-key}, which
 * Anthropic's server asks for, beside the {@code Authorization: Bearer} that vLLM's server
 * checks (the same key, from the protocol or the user's header); headers the user sets win.
 */
public final class MessagesApi extends GenerationApi {

  public static final MessagesApi INSTANCE = new MessagesApi();

  /** The budget of a request that sets none: {@code max_tokens} is required. */
  static final int UNSET_BUDGET = 1024;
  /** The API version every request names, the one Anthropic's documentation and AIPerf send. */
  static final String VERSION = "2023-06-01";

  /** Fields of the shared body that are not the Messages API's. */
  private static final List<String> NOT_SENT = List.of("min_tokens", "logprobs", "min_p",
      "frequency_penalty", "presence_penalty", "repetition_penalty", "ignore_eos");

  private static final ChunkReader READER = new Reader();

  private MessagesApi() {
    super("anthropic-messages", "/v1/messages", List.of("messages"), false, "max_tokens", true,
        false);
  }

  @Override
  public ChunkReader reader() {
    return READER;
  }

  @Override
  public LlmRequestBuilder request(RequestFlags flags) {
    return BackendRequests.generation(BuilderAccess.generation(this, "messages").fromDataset(),
        flags, false);
  }

  @Override
  List<Map<String, Object>> messages(RequestSpec spec, Session session, String prompt) {
    return spec.messages() != null ? spec.messages().resolve(session)
        : List.of(ChatApi.message("user", prompt));
  }

  @Override
  List<Map<String, Object>> warmUpMessages(RequestSpec spec, String prompt) {
    return List.of(ChatApi.message("user", prompt));
  }

  /**
   * The messages, with the system prompt and any {@code system} message of the given list
   * moved to the top-level {@code system} field (joined, as vLLM joins them).
   */
  @Override
  void putInput(Map<String, Object> body, RequestSpec spec, Object prompt,
      List<Map<String, Object>> messages, Object tools) {
    StringBuilder system = new StringBuilder();
    if (spec.systemPrompt() != null) {
      system.append(spec.systemPrompt());
    }
    List<Map<String, Object>> turns = new ArrayList<>(messages.size());
    for (Map<String, Object> m : messages) {
      if ("system".equals(m.get("role")) && m.get("content") instanceof String text) {
        system.append(text);
      } else {
        turns.add(m);
      }
    }
    if (!system.isEmpty()) {
      body.put("system", system.toString());
    }
    body.put("messages", turns);
  }

  @Override
  boolean streamOptions() {
    return false;
  }

  @Override
  void completeBody(Map<String, Object> body) {
    body.putIfAbsent("max_tokens", UNSET_BUDGET);
    NOT_SENT.forEach(body::remove);
  }

  @Override
  ServerCompliance.Asked asked(Integer maxTokens, ExtraBudgets extra, boolean ignoreEos,
      String model) {
    int max = extra.own() != null ? extra.own() : maxTokens != null ? maxTokens : UNSET_BUDGET;
    // ignore_eos is not sent: the server may stop early, and the check must not expect more
    return new ServerCompliance.Asked(max, max, false, false, model, true);
  }

  /** Reads the Messages API's events and adds its headers to every request. */
  private static final class Reader implements ChunkReader {

    @Override
    public void read(byte[] json, int length, ChunkFields out) throws IOException {
      ChunkParser.parseWithJackson(json, length, out, new Event());
    }

    @Override
    public void addRequestHeaders(HttpHeaders headers) {
      if (!headers.contains("anthropic-version")) {
        headers.set("anthropic-version", VERSION);
      }
      String authorization = headers.get(HttpHeaderNames.AUTHORIZATION);
      if (!headers.contains("x-api-key") && authorization != null
          && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
        headers.set("x-api-key", authorization.substring(7).strip());
      }
    }
  }

  /** The members of one Messages API event (or whole message) beside the OpenAI chunk's. */
  static final class Event implements ChunkReader.Members {

    /** The event's {@code type}; {@code message} for a whole (non-streamed) message. */
    private String type;
    /** The delta's {@code type} ({@code text_delta}, {@code thinking_delta}, ...). */
    private String deltaType;
    /** The delta's text, thinking or partial JSON, whichever it carries. */
    private String deltaText;
    /** {@code usage.input_tokens} (top-level or {@code message_start}'s message); -1: absent. */
    private int inputTokens = -1;
    /** {@code usage.output_tokens} at the top level (message_delta, a whole message). */
    private int outputTokens = -1;
    /** The text blocks of a whole message; null when it has none. */
    private StringBuilder text;
    private boolean thinking;

    @Override
    public boolean read(String field, JsonParser p) throws IOException {
      switch (field) {
        case "type" -> type = ChunkParser.textOrNull(p);
        case "delta" -> readDelta(p);
        case "usage" -> readUsage(p, true);
        case "message" -> readStartMessage(p);
        case "content" -> readContent(p);
        default -> {
          return false;
        }
      }
      return true;
    }

    @Override
    public void applyTo(ChunkFields out) {
      if (type == null) {
        return; // not a Messages API body (an OpenAI error body): as the OpenAI reading found
      }
      out.hasChoices(false);
      out.text(null);
      out.reasoning(false);
      if (inputTokens >= 0) {
        out.promptTokens(inputTokens);
      }
      switch (type) {
        case "content_block_delta" -> delta(out);
        case "message_delta" -> {
          if (outputTokens >= 0) {
            out.completionTokens(outputTokens);
          }
        }
        case "message" -> {
          out.hasChoices(true);
          out.text(text == null ? null : text.toString());
          out.reasoning(thinking);
          if (outputTokens >= 0) {
            out.completionTokens(outputTokens);
          }
        }
        case "error" -> out.error(out.error() != null ? out.error() : "error event");
        default -> { } // message_start, ping, block start and stop, message_stop
      }
    }

    private void delta(ChunkFields out) {
      if (deltaText == null || deltaText.isEmpty() || deltaType == null) {
        return;
      }
      switch (deltaType) {
        case "text_delta" -> {
          out.hasChoices(true);
          out.text(deltaText);
        }
        case "thinking_delta" -> {
          out.hasChoices(true);
          out.reasoning(true);
        }
        // a tool call's arguments: a chunk with no answer text, as chat's tool-call chunks
        case "input_json_delta" -> out.hasChoices(true);
        default -> { } // signature_delta
      }
    }

    private void readDelta(JsonParser p) throws IOException {
      if (!ChunkParser.opens(p, JsonToken.START_OBJECT)) {
        return;
      }
      for (String field; (field = ChunkParser.nextMember(p)) != null; ) {
        switch (field) {
          case "type" -> deltaType = ChunkParser.textOrNull(p);
          case "text", "thinking", "partial_json" -> {
            String value = ChunkParser.textOrNull(p);
            deltaText = value != null ? value : deltaText;
          }
          default -> p.skipChildren();
        }
      }
    }

    /** A usage's counts; the output count only from a top-level usage. */
    private void readUsage(JsonParser p, boolean topLevel) throws IOException {
      if (!ChunkParser.opens(p, JsonToken.START_OBJECT)) {
        return;
      }
      for (String field; (field = ChunkParser.nextMember(p)) != null; ) {
        JsonToken v = p.currentToken();
        if (v == JsonToken.VALUE_NUMBER_INT && field.equals("input_tokens")) {
          inputTokens = p.getIntValue();
        } else if (topLevel && v == JsonToken.VALUE_NUMBER_INT
            && field.equals("output_tokens")) {
          outputTokens = p.getIntValue();
        } else {
          p.skipChildren();
        }
      }
    }

    /**
     * {@code message_start}'s message: only its input count; its output count is the few
     * tokens so far, which {@code message_delta} replaces with the whole answer's.
     */
    private void readStartMessage(JsonParser p) throws IOException {
      if (!ChunkParser.opens(p, JsonToken.START_OBJECT)) {
        return;
      }
      for (String field; (field = ChunkParser.nextMember(p)) != null; ) {
        if (field.equals("usage")) {
          readUsage(p, false);
        } else {
          p.skipChildren();
        }
      }
    }

    /** A whole message's content blocks: the text of its text blocks, its thinking. */
    private void readContent(JsonParser p) throws IOException {
      if (!ChunkParser.opens(p, JsonToken.START_ARRAY)) {
        return;
      }
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (p.currentToken() != JsonToken.START_OBJECT) {
          p.skipChildren();
          continue;
        }
        String blockType = null;
        String blockText = null;
        String blockThinking = null;
        for (String field; (field = ChunkParser.nextMember(p)) != null; ) {
          switch (field) {
            case "type" -> blockType = ChunkParser.textOrNull(p);
            case "text" -> blockText = ChunkParser.textOrNull(p);
            case "thinking" -> blockThinking = ChunkParser.textOrNull(p);
            default -> p.skipChildren();
          }
        }
        if ("text".equals(blockType) && blockText != null) {
          text = text == null ? new StringBuilder(blockText) : text.append(blockText);
        } else if ("thinking".equals(blockType) && blockThinking != null
            && !blockThinking.isEmpty() || "redacted_thinking".equals(blockType)) {
          thinking = true;
        }
      }
    }
  }
}
