package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.action.Backends;
import dev.gatlingllm.internal.action.BuilderAccess;
import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Anthropic Messages API answers ({@code /v1/messages}): each event read on its own, and a
 * whole stream's exact bytes fed to an {@link Exchange} in reads cut inside lines, inside an
 * event's JSON, between an event and its blank line and inside a UTF-8 character, at
 * hand-picked read times, so that TTFT, TTFC, ITLs, latency and the counts are exact.
 */
class MessagesEventsTest {

  /** The Messages API's reader, as its row of the backend table gives it. */
  private static final ChunkReader MESSAGES =
      BuilderAccess.api(Backends.resolve("anthropic-messages")).reader();

  private static final String START = "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\","
      + "\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"served-llm\","
      + "\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":9,"
      + "\"output_tokens\":1}}}";
  private static final String PING = "{\"type\": \"ping\"}";
  private static final String THINKING_START = "{\"type\":\"content_block_start\",\"index\":0,"
      + "\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}";
  private static final String SIGNATURE = "{\"type\":\"content_block_delta\",\"index\":0,"
      + "\"delta\":{\"type\":\"signature_delta\",\"signature\":\"abc\"}}";
  private static final String TEXT_START = "{\"type\":\"content_block_start\",\"index\":1,"
      + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}";
  private static final String MESSAGE_DELTA = "{\"type\":\"message_delta\",\"delta\":"
      + "{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":6}}";
  private static final String STOP = "{\"type\":\"message_stop\"}";

  private static String stop(int index) {
    return "{\"type\":\"content_block_stop\",\"index\":" + index + "}";
  }

  private static String text(String text) {
    // the delta before the type, as a server may order them: the reader must not mind
    return "{\"type\":\"content_block_delta\",\"delta\":{\"text\":\"" + text + "\",\"type\":"
        + "\"text_delta\"},\"index\":1}";
  }

  private static String thinking(String text) {
    return "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\","
        + "\"thinking\":\"" + text + "\"}}";
  }

  private static ChunkFields parse(String json) throws Exception {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    ChunkFields out = new ChunkFields();
    MESSAGES.read(bytes, bytes.length, out);
    return out;
  }

  @Test
  void aTextDeltaIsAnAnswerChunk() throws Exception {
    ChunkFields f = parse(text(" one"));
    assertTrue(f.hasChoices);
    assertEquals(" one", f.text);
    assertFalse(f.reasoning);
    assertNull(f.error);
  }

  @Test
  void aThinkingDeltaIsAReasoningChunkWithoutAnswerText() throws Exception {
    ChunkFields f = parse(thinking(" hmm"));
    assertTrue(f.hasChoices);
    assertTrue(f.reasoning);
    assertNull(f.text);
  }

  @Test
  void theLifecycleEventsAndEmptyDeltasCarryNothing() throws Exception {
    for (String event : List.of(PING, THINKING_START, SIGNATURE, TEXT_START, stop(0), STOP,
        text(""), thinking(""))) {
      ChunkFields f = parse(event);
      assertFalse(f.hasChoices, event);
      assertNull(f.text, event);
      assertFalse(f.reasoning, event);
      assertNull(f.error, event);
      assertEquals(-1, f.completionTokens, event);
      assertEquals(-1, f.promptTokens, event);
    }
  }

  @Test
  void theInputCountComesFromMessageStartAndTheOutputCountFromMessageDelta() throws Exception {
    ChunkFields start = parse(START);
    assertFalse(start.hasChoices);
    assertEquals(9, start.promptTokens);
    // message_start's output count is the answer so far, not its length
    assertEquals(-1, start.completionTokens);
    ChunkFields end = parse(MESSAGE_DELTA);
    assertFalse(end.hasChoices);
    assertEquals(6, end.completionTokens);
    assertEquals(-1, end.promptTokens);
    // vLLM's message_delta repeats the input count
    assertEquals(4, parse("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},"
        + "\"usage\":{\"input_tokens\":4,\"output_tokens\":2}}").promptTokens);
  }

  @Test
  void aToolCallsArgumentsAreAChunkWithoutAnswerText() throws Exception {
    ChunkFields f = parse("{\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":"
        + "\"input_json_delta\",\"partial_json\":\"{\\\"city\\\": \"}}");
    assertTrue(f.hasChoices);
    assertNull(f.text);
    assertFalse(f.reasoning);
  }

  @Test
  void anErrorEventCarriesItsMessage() throws Exception {
    assertEquals("Overloaded", parse("{\"type\":\"error\",\"error\":{\"type\":"
        + "\"overloaded_error\",\"message\":\"Overloaded\"}}").error);
    assertEquals("error event", parse("{\"type\":\"error\"}").error);
    // an OpenAI error body on the same route (a proxy's, or vLLM's request validation)
    assertEquals("bad", parse("{\"error\":{\"message\":\"bad\",\"type\":\"x\"}}").error);
  }

  @Test
  void aWholeMessageGivesItsTextThinkingAndUsage() throws Exception {
    ChunkFields f = parse("{\"id\":\"msg_2\",\"type\":\"message\",\"role\":\"assistant\","
        + "\"content\":[{\"type\":\"thinking\",\"thinking\":\" zero\",\"signature\":\"s\"},"
        + "{\"type\":\"text\",\"text\":\" one\"},{\"text\":\" two\",\"type\":\"text\"}],"
        + "\"model\":\"served-llm\",\"stop_reason\":\"max_tokens\",\"usage\":{\"input_tokens\":4,"
        + "\"output_tokens\":3}}");
    assertTrue(f.hasChoices);
    assertEquals(" one two", f.text);
    assertTrue(f.reasoning);
    assertEquals(4, f.promptTokens);
    assertEquals(3, f.completionTokens);
    assertNull(f.error);
  }

  @Test
  void theChatReaderTakesNoMessagesEventForContent() throws Exception {
    byte[] bytes = text(" one").getBytes(StandardCharsets.UTF_8);
    ChunkFields chat = new ChunkFields();
    ChunkReader.OPENAI.read(bytes, bytes.length, chat);
    assertFalse(chat.hasChoices);
    assertNull(chat.text);
  }

  /**
   * The key goes as {@code x-api-key} beside the bearer header, with {@code anthropic-version};
   * what the user set stays; a request without a key gets no {@code x-api-key}.
   */
  @Test
  void theReaderAddsTheMessagesApiHeaders() {
    HttpHeaders keyed = new DefaultHttpHeaders().set("Authorization", "Bearer sk-1");
    MESSAGES.addRequestHeaders(keyed);
    assertEquals("sk-1", keyed.get("x-api-key"));
    assertEquals("2023-06-01", keyed.get("anthropic-version"));
    assertEquals("Bearer sk-1", keyed.get("authorization"));

    HttpHeaders own = new DefaultHttpHeaders().set("Authorization", "Bearer sk-1")
        .set("X-Api-Key", "sk-2").set("Anthropic-Version", "2024-01-01");
    MESSAGES.addRequestHeaders(own);
    assertEquals("sk-2", own.get("x-api-key"));
    assertEquals("2024-01-01", own.get("anthropic-version"));

    HttpHeaders none = new DefaultHttpHeaders();
    MESSAGES.addRequestHeaders(none);
    assertFalse(none.contains("x-api-key"));
    assertEquals("2023-06-01", none.get("anthropic-version"));

    HttpHeaders openAi = new DefaultHttpHeaders().set("Authorization", "Bearer sk-1");
    ChunkReader.OPENAI.addRequestHeaders(openAi);
    assertEquals(List.of("authorization"), openAi.names().stream()
        .map(n -> n.toLowerCase(java.util.Locale.ROOT)).toList());
  }

  /**
   * The stream as vLLM writes it ({@code event:} and {@code data:} lines, a blank line after
   * each event), in seven reads (times from the start in ms): 50 ends inside the first thinking
   * delta's JSON, 100 completes it; 130 ends after the second thinking delta's data line, whose
   * blank line opens 140; 140 ends inside the first text delta's "é" (two UTF-8 bytes), 200
   * completes it; 230 brings the second text delta, 240 the usage and the stop, and the body
   * ends at 250.
   *
   * <p>Content chunks at 100 and 140 (thinking), 200 and 230 (text): TTFT 100 ms, the time to
   * the first answer chunk 200 ms, ITLs 40, 60 and 30 ms, latency 230 ms (the last chunk, not
   * the stop); 2 reasoning chunks; 9 input tokens from message_start, 6 output tokens from
   * message_delta; the answer text is the text deltas alone.
   */
  @Test
  void aStreamSplitAcrossReadsIsTimedLikeChatChunks() {
    byte[] stream = sse(List.of("message_start", START, "ping", PING,
        "content_block_start", THINKING_START,
        "content_block_delta", thinking("Let me"),
        "content_block_delta", thinking(" think"),
        "content_block_delta", SIGNATURE, "content_block_stop", stop(0),
        "content_block_start", TEXT_START,
        "content_block_delta", text("Héllo"),
        "content_block_delta", text(" world"), "content_block_stop", stop(1),
        "message_delta", MESSAGE_DELTA, "message_stop", STOP));
    String whole = new String(stream, StandardCharsets.UTF_8);
    int inFirstThinking = whole.indexOf("thinking_delta") + 8;
    int afterSecondThinkingData = whole.indexOf(" think\"}}\n") + " think\"}}\n".length();
    // between the two bytes of "é"
    int inE = byteIndex(stream, (byte) 0xC3) + 1;
    int secondText = whole.indexOf("event: content_block_delta", whole.indexOf("llo\""));
    int usage = whole.indexOf("event: content_block_stop", secondText);
    // the offsets before the "é" are ASCII, so their char and byte offsets agree
    int[] bounds = {0, inFirstThinking,
        // 100: up to the first thinking delta's blank line, included
        whole.indexOf("\n\n", inFirstThinking) + 2,
        // 130: up to the second thinking delta's data line, without its blank line
        afterSecondThinkingData,
        inE, utf8Length(whole, secondText), utf8Length(whole, usage), stream.length};
    long[] times = {50, 100, 130, 140, 200, 230, 240};

    List<RequestRecord> records = new ArrayList<>();
    long start = 2_000_000_000L;
    Exchange exchange = exchange(start, records);
    for (int i = 0; i < times.length; i++) {
      exchange.data(stream, bounds[i], bounds[i + 1] - bounds[i], start + ms(times[i]));
    }
    assertTrue(records.isEmpty(), "the body has not ended yet");
    exchange.onEndOfChunkedBody(start + ms(250), true);

    assertEquals(1, records.size());
    RequestRecord r = records.get(0);
    assertTrue(r.success(), r.error());
    assertArrayEquals(new int[] {100_000, 140_000, 200_000, 230_000}, r.chunkMicros(),
        Arrays.toString(r.chunkMicros()));
    assertEquals(100.0, r.ttftMillis());
    assertEquals(200.0, r.ttfcMillis());
    assertEquals(40.0, r.itlMillis(0));
    assertEquals(60.0, r.itlMillis(1));
    assertEquals(30.0, r.itlMillis(2));
    assertEquals(230.0, r.latencyMillis());
    assertEquals(2, r.reasoningChunks());
    assertEquals(6, r.outputTokens());
    assertEquals(9, r.usagePromptTokens());
    assertEquals("Héllo world", r.generatedText());
  }

  @Test
  void anErrorEventFailsTheRequestWithItsMessage() {
    List<RequestRecord> records = new ArrayList<>();
    long start = 5_000L;
    Exchange exchange = exchange(start, records);
    byte[] stream = sse(List.of("message_start", START, "content_block_start", TEXT_START,
        "content_block_delta", text(" one"), "error", "{\"type\":\"error\",\"error\":{\"type\":"
            + "\"internal_error\",\"message\":\"out of memory\"}}"));
    exchange.data(stream, 0, stream.length, start + ms(3));

    assertEquals(1, records.size());
    assertFalse(records.get(0).success());
    assertEquals("error event: out of memory", records.get(0).error());
  }

  private static Exchange exchange(long start, List<RequestRecord> records) {
    Exchange exchange = new Exchange(new LlmRequest("msg", "/v1/messages",
        new DefaultHttpHeaders(), new byte[0], 7, LlmRequest.NOT_SCHEDULED, false, MESSAGES),
        start,
        new ClientConfig(Target.parse("http://127.0.0.1:1"), Duration.ofSeconds(1),
            Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(4)),
        (ex, record, reusable) -> records.add(record));
    DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    head.headers().set("content-type", "text/event-stream; charset=utf-8");
    exchange.onResponseHead(head, start + ms(1));
    return exchange;
  }

  /** {@code event: <name>} and {@code data: <json>} lines, a blank line after each event. */
  private static byte[] sse(List<String> namesAndData) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < namesAndData.size(); i += 2) {
      out.writeBytes(("event: " + namesAndData.get(i) + "\ndata: " + namesAndData.get(i + 1)
          + "\n\n").getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  private static int utf8Length(String s, int chars) {
    return s.substring(0, chars).getBytes(StandardCharsets.UTF_8).length;
  }

  private static int byteIndex(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    throw new AssertionError("no byte " + b);
  }

  private static long ms(long millis) {
    return millis * 1_000_000L;
  }
}
