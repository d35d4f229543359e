package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Drives the real response pipeline (read stamp, HTTP codec, response handler, exchange) with
 * raw HTTP bytes on an embedded channel: chunked encoding, SSE framing and OpenAI chunk
 * parsing together, with no network.
 */
class ExchangeTest {

  private static final String SSE_HEAD = "HTTP/1.1 200 OK\r\n"
      + "content-type: text/event-stream; charset=utf-8\r\n"
      + "transfer-encoding: chunked\r\n\r\n";

  private static String chunked(String... pieces) {
    StringBuilder sb = new StringBuilder();
    for (String piece : pieces) {
      int n = piece.getBytes(StandardCharsets.UTF_8).length;
      sb.append(Integer.toHexString(n)).append("\r\n").append(piece).append("\r\n");
    }
    return sb.append("0\r\n\r\n").toString();
  }

  private static String completionChunk(String text) {
    return "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,"
        + "\"text\":\"" + text + "\",\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n";
  }

  private static final String USAGE =
      "data: {\"id\":\"cmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":5,"
          + "\"total_tokens\":8,\"completion_tokens\":3}}\n\n";
  private static final String DONE = "data: [DONE]\n\n";

  private static final String GOOD_STREAM = SSE_HEAD + chunked(
      ": ping\n\n", completionChunk(" a"), completionChunk(" b") + completionChunk(" c"),
      USAGE, DONE);

  /** A connection with the client pipeline and one exchange in flight. */
  private static final class Harness {
    final EmbeddedChannel channel;
    final List<RequestRecord> records = new ArrayList<>();
    final List<Boolean> reusable = new ArrayList<>();

    Harness(Duration firstToken, Duration idle) {
      ResponseHandler handler = new ResponseHandler();
      channel = new EmbeddedChannel(handler.handlers());
      ClientConfig config = new ClientConfig(Target.parse("http://127.0.0.1:1"),
          Duration.ofSeconds(1), firstToken, idle, Duration.ZERO, Duration.ofSeconds(4));
      LlmRequest request = new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
          new byte[0], 5, LlmRequest.NOT_SCHEDULED);
      Exchange exchange = new Exchange(request, System.nanoTime(), config, (ex, record, reuse) -> {
        records.add(record);
        reusable.add(reuse);
        handler.end();
      });
      handler.begin(exchange);
      exchange.started(channel);
    }

    Harness() {
      this(Duration.ZERO, Duration.ZERO);
    }

    Harness feed(String raw, int... splits) {
      byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
      int from = 0;
      for (int split : splits) {
        channel.writeInbound(Unpooled.wrappedBuffer(bytes, from, split - from));
        from = split;
      }
      channel.writeInbound(Unpooled.wrappedBuffer(bytes, from, bytes.length - from));
      return this;
    }

    RequestRecord record() {
      channel.runPendingTasks(); // events after the last read (a close) are delivered by a task
      assertEquals(1, records.size(), "exactly one record per exchange");
      return records.get(0);
    }
  }

  @Test
  void streamedCompletionGivesTimingsTextAndUsage() {
    RequestRecord r = new Harness().feed(GOOD_STREAM).record();
    assertTrue(r.success(), r.error());
    assertNull(r.error());
    assertEquals(200, r.httpStatus());
    assertEquals(" a b c", r.generatedText());
    assertEquals(3, r.chunkMicros().length, "usage and [DONE] are not content chunks");
    assertEquals(3, r.outputTokens());
    assertEquals(5, r.usagePromptTokens());
    assertEquals(5, r.promptTokens());
    assertTrue(r.ttftNanos() >= 0 && r.latencyNanos() >= r.ttftNanos());
    assertTrue(r.endNanos() >= r.startNanos() + r.latencyNanos());
    assertEquals(r.startNanos(), r.scheduledNanos(), "unpaced requests are scheduled at start");
  }

  @Test
  void sameRecordWhateverTheTcpReadBoundaries() {
    RequestRecord reference = new Harness().feed(GOOD_STREAM).record();
    int length = GOOD_STREAM.getBytes(StandardCharsets.UTF_8).length;
    for (int split = 1; split < length; split++) {
      RequestRecord r = new Harness().feed(GOOD_STREAM, split).record();
      assertTrue(r.success(), "split " + split + ": " + r.error());
      assertEquals(reference.generatedText(), r.generatedText(), "split " + split);
      assertEquals(reference.chunkMicros().length, r.chunkMicros().length, "split " + split);
      assertEquals(reference.outputTokens(), r.outputTokens(), "split " + split);
    }
  }

  @Test
  void chunksInOneReadShareOneArrivalTime() {
    RequestRecord r = new Harness().feed(GOOD_STREAM).record();
    // Everything arrived in a single read: every chunk has the same offset, ITLs are zero.
    int[] offsets = r.chunkMicros();
    assertEquals(offsets[0], offsets[2]);
    assertEquals(0.0, r.itlMillis(0));
    assertEquals(r.ttftNanos(), r.latencyNanos());
  }

  @Test
  void laterReadsGetLaterTimestamps() throws InterruptedException {
    Harness h = new Harness();
    h.feed(SSE_HEAD + "8\r\n: ping\n\n\r\n");
    String first = completionChunk(" a");
    h.feed(Integer.toHexString(first.length()) + "\r\n" + first + "\r\n");
    TimeUnit.MILLISECONDS.sleep(20);
    String second = completionChunk(" b");
    h.feed(Integer.toHexString(second.length()) + "\r\n" + second + "\r\n0\r\n\r\n");
    RequestRecord r = h.record();
    assertTrue(r.success());
    assertTrue(r.itlMillis(0) >= 20, "ITL " + r.itlMillis(0) + " ms must cover the 20 ms pause");
    assertEquals(r.latencyNanos() / 1000 - r.ttftNanos() / 1000, r.chunkMicros()[1] - r.chunkMicros()[0], 1);
  }

  @Test
  void chatRoleChunkCountsAsFirstContentChunk() {
    String role = "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
        + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n";
    String content = "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
        + "\"delta\":{\"content\":\"Hi\"}}]}\n\n";
    RequestRecord r = new Harness().feed(SSE_HEAD + chunked(role + content, DONE)).record();
    assertTrue(r.success());
    assertEquals("Hi", r.generatedText());
    assertEquals(2, r.chunkMicros().length);
    assertEquals(-1, r.outputTokens(), "no usage chunk: output length is left to the tokenizer");
  }

  @Test
  void streamWithoutDoneButCleanEndIsSuccess() {
    RequestRecord r = new Harness().feed(SSE_HEAD + chunked(completionChunk("x"))).record();
    assertTrue(r.success());
  }

  @Test
  void inBandErrorEventFailsTheRequest() {
    String error = "data: {\"error\":{\"object\":\"error\",\"message\":\"out of memory\",\"code\":500}}\n\n";
    Harness h = new Harness().feed(SSE_HEAD + chunked(completionChunk("x"), error, DONE));
    RequestRecord r = h.record();
    assertFalse(r.success());
    assertEquals("error event: out of memory", r.error());
    assertEquals(1, r.chunkMicros().length, "chunks before the error are kept");
    assertFalse(h.reusable.get(0));
  }

  @Test
  void malformedChunkFailsTheRequest() {
    RequestRecord r = new Harness().feed(SSE_HEAD + chunked("data: {\"choices\":[{\"te\n\n")).record();
    assertFalse(r.success());
    assertTrue(r.error().startsWith("malformed JSON chunk"), r.error());
  }

  @Test
  void streamWithOnlyUsageAndDoneIsAFailure() {
    RequestRecord r = new Harness().feed(SSE_HEAD + chunked(USAGE, DONE)).record();
    assertFalse(r.success());
    assertEquals("stream ended without content", r.error());
    assertEquals(-1, r.ttftNanos());
    assertEquals(3, r.outputTokens());
  }

  @Test
  void httpErrorCarriesStatusAndServerMessage() {
    String body = "{\"object\":\"error\",\"message\":\"The model `x` does not exist.\","
        + "\"type\":\"NotFoundError\",\"param\":null,\"code\":404}";
    Harness h = new Harness().feed("HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\n"
        + "content-length: " + body.length() + "\r\n\r\n" + body);
    RequestRecord r = h.record();
    assertFalse(r.success());
    assertEquals(404, r.httpStatus());
    assertEquals("HTTP 404: The model `x` does not exist.", r.error());
  }

  @Test
  void nonStreamedResponseIsOneChunkAtTheEnd() {
    String body = "{\"choices\":[{\"index\":0,\"text\":\"hello world\"}],"
        + "\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":2}}";
    Harness h = new Harness().feed("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
        + "content-length: " + body.length() + "\r\n\r\n" + body);
    RequestRecord r = h.record();
    assertTrue(r.success(), r.error());
    assertEquals("hello world", r.generatedText());
    assertEquals(2, r.outputTokens());
    assertEquals(r.ttftNanos(), r.latencyNanos());
    assertTrue(h.reusable.get(0), "a complete keep-alive response frees the connection");
  }

  @Test
  void brokenChunkedFramingFailsAndTheConnectionIsNotReused() {
    String chunk = completionChunk("x");
    Harness h = new Harness().feed(SSE_HEAD + Integer.toHexString(chunk.length()) + "\r\n"
        + chunk + "\r\nzz-not-a-size\r\n");
    RequestRecord r = h.record();
    assertFalse(r.success());
    assertEquals("malformed response: invalid chunked encoding", r.error());
    assertFalse(h.reusable.get(0));
  }

  @Test
  void interimResponsesAreSkipped() {
    RequestRecord r = new Harness().feed("HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n"
        + GOOD_STREAM).record();
    assertTrue(r.success(), r.error());
    assertEquals(200, r.httpStatus());
    assertEquals(" a b c", r.generatedText());
  }

  @Test
  void completeErrorResponsesLeaveTheConnectionReusable() {
    String body = "{\"object\":\"error\",\"message\":\"slow down\",\"code\":429}";
    Harness h = new Harness().feed("HTTP/1.1 429 Too Many Requests\r\ncontent-type: "
        + "application/json\r\ncontent-length: " + body.length() + "\r\n\r\n" + body);
    assertEquals("HTTP 429: slow down", h.record().error());
    assertTrue(h.reusable.get(0));
  }

  @Test
  void malformedChunkMessageHasNoSourceLocation() {
    RequestRecord r = new Harness().feed(SSE_HEAD + chunked("data: {\"choices\": x}\n\n")).record();
    assertTrue(r.error().startsWith("malformed JSON chunk: Unrecognized token 'x'"), r.error());
    assertFalse(r.error().contains("line:") || r.error().contains("\n"), r.error());
  }

  @Test
  void disconnectMidStreamFails() {
    Harness h = new Harness();
    String chunk = completionChunk("x");
    h.feed(SSE_HEAD + Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n");
    assertTrue(h.records.isEmpty());
    h.channel.close();
    RequestRecord r = h.record();
    assertFalse(r.success());
    assertEquals("connection closed mid-stream", r.error());
    assertEquals(1, r.chunkMicros().length);
  }

  @Test
  void disconnectBeforeResponseFails() {
    Harness h = new Harness();
    h.channel.close();
    assertEquals("connection closed before response", h.record().error());
    assertEquals(0, h.record().httpStatus());
  }

  @Test
  void firstTokenTimeoutFires() throws InterruptedException {
    Harness h = new Harness(Duration.ofMillis(30), Duration.ZERO);
    h.feed(SSE_HEAD);
    TimeUnit.MILLISECONDS.sleep(60);
    h.channel.runScheduledPendingTasks();
    RequestRecord r = h.record();
    assertFalse(r.success());
    assertEquals("first token timeout (30 ms)", r.error());
  }

  @Test
  void idleTimeoutFiresAfterSilenceButNotWhileDataFlows() throws InterruptedException {
    Harness h = new Harness(Duration.ZERO, Duration.ofMillis(80));
    String chunk = completionChunk("x");
    h.feed(SSE_HEAD);
    for (int i = 0; i < 4; i++) {
      TimeUnit.MILLISECONDS.sleep(30);
      h.feed(Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n");
      h.channel.runScheduledPendingTasks();
    }
    assertTrue(h.records.isEmpty(), "data every 30 ms keeps an 80 ms idle timer quiet");
    TimeUnit.MILLISECONDS.sleep(120);
    h.channel.runScheduledPendingTasks();
    RequestRecord r = h.record();
    assertEquals("idle timeout (80 ms without data)", r.error());
    assertEquals(4, r.chunkMicros().length);
  }

  @Test
  void lateBytesAfterTheEndAreIgnored() {
    Harness h = new Harness().feed(SSE_HEAD + chunked(completionChunk("x"), DONE));
    assertNotNull(h.record());
    assertArrayEquals(new Object[] {true}, h.reusable.toArray());
  }
}
