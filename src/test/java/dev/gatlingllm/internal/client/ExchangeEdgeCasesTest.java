package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The exchange's less travelled paths, driven with raw HTTP bytes through the real pipeline
 * like {@link ExchangeTest}: timeouts measured from the request's start rather than from the
 * write, timers that must not outlive the request, non-streamed failures, odd connection ends
 * and the edges of the body and chunk buffers.
 */
class ExchangeEdgeCasesTest {

  private static final String SSE_HEAD = "HTTP/1.1 200 OK\r\n"
      + "content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
  private static final String END = "0\r\n\r\n";

  private static String chunk(String piece) {
    int n = piece.getBytes(StandardCharsets.UTF_8).length;
    return Integer.toHexString(n) + "\r\n" + piece + "\r\n";
  }

  private static String text(String t) {
    return "data: {\"choices\":[{\"index\":0,\"text\":\"" + t + "\"}]}\n\n";
  }

  private static String json(int status, String body) {
    return "HTTP/1.1 " + status + " X\r\ncontent-type: application/json\r\ncontent-length: "
        + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
  }

  /** One exchange on an embedded connection, started {@code startedAgo} before the write. */
  private static final class Conn {
    final EmbeddedChannel channel;
    final List<RequestRecord> records = new ArrayList<>();
    final List<Boolean> reusable = new ArrayList<>();
    final long startNanos;

    Conn(ClientConfig config, long startNanos) {
      ResponseHandler handler = new ResponseHandler();
      channel = new EmbeddedChannel(handler.handlers());
      this.startNanos = startNanos;
      LlmRequest request = new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
          new byte[0], 7, LlmRequest.NOT_SCHEDULED);
      Exchange exchange = new Exchange(request, startNanos, config, (ex, record, reuse) -> {
        records.add(record);
        reusable.add(reuse);
        handler.end();
      });
      handler.begin(exchange);
      exchange.started(channel);
    }

    Conn feed(String raw) {
      channel.writeInbound(Unpooled.wrappedBuffer(raw.getBytes(StandardCharsets.UTF_8)));
      return this;
    }

    RequestRecord record() {
      assertEquals(1, records.size(), "exactly one record per exchange");
      return records.get(0);
    }
  }

  private static ClientConfig timeouts(Duration firstToken, Duration idle, Duration request) {
    return new ClientConfig(Target.parse("http://127.0.0.1:1"), Duration.ofSeconds(1),
        firstToken, idle, request, Duration.ofSeconds(4));
  }

  private static Conn conn() {
    return new Conn(timeouts(Duration.ZERO, Duration.ZERO, Duration.ZERO), System.nanoTime());
  }

  // --- timers ---------------------------------------------------------------------------

  @Test
  void requestTimeoutCountsFromTheStartNotFromTheWrite() {
    // The request waited 2 s for a connection before its bytes went out: a 1 s budget is
    // already spent, so the timer fires at once.
    Conn c = new Conn(timeouts(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1)),
        System.nanoTime() - TimeUnit.SECONDS.toNanos(2));
    c.feed(SSE_HEAD);
    c.channel.runScheduledPendingTasks();
    assertEquals("request timeout (1 s)", c.record().error());
    assertFalse(c.record().success());
    assertFalse(c.reusable.get(0), "a timed-out response leaves the connection dirty");
  }

  @Test
  void firstTokenTimeoutCountsFromTheStartToo() {
    Conn c = new Conn(timeouts(Duration.ofMillis(1500), Duration.ZERO, Duration.ZERO),
        System.nanoTime() - TimeUnit.SECONDS.toNanos(2));
    c.channel.runScheduledPendingTasks();
    assertEquals("first token timeout (1500 ms)", c.record().error());
    assertEquals(0, c.record().httpStatus());
  }

  @Test
  void timeoutsWithBudgetLeftDoNotFireEarly() {
    Conn c = new Conn(timeouts(Duration.ofSeconds(30), Duration.ofSeconds(30),
        Duration.ofSeconds(60)), System.nanoTime());
    c.feed(SSE_HEAD).feed(chunk(text("a")));
    c.channel.runScheduledPendingTasks();
    assertTrue(c.records.isEmpty(), "30 s timers cannot have fired yet");
    c.feed(chunk(text("b")) + END);
    assertTrue(c.record().success(), c.record().error());
    assertEquals("ab", c.record().generatedText());
  }

  @Test
  void theFirstTokenTimerStopsAtTheFirstToken() throws InterruptedException {
    Conn c = new Conn(timeouts(Duration.ofMillis(40), Duration.ZERO, Duration.ZERO),
        System.nanoTime());
    c.feed(SSE_HEAD).feed(chunk(text("a")));
    TimeUnit.MILLISECONDS.sleep(100);
    c.channel.runScheduledPendingTasks();
    assertTrue(c.records.isEmpty(), "the first token came in time; later tokens may be slow");
    c.feed(chunk(text("b")) + END);
    assertTrue(c.record().success(), c.record().error());
  }

  @Test
  void aFinishedExchangeLeavesNoTimerBehind() {
    // A 10-minute request timer per request would otherwise keep every finished exchange
    // (and its text) reachable for 10 minutes.
    Conn c = new Conn(timeouts(Duration.ofMinutes(1), Duration.ofMinutes(2),
        Duration.ofMinutes(10)), System.nanoTime());
    assertTrue(c.channel.runScheduledPendingTasks() > 0, "three timers armed");
    c.feed(SSE_HEAD + chunk(text("a")) + END);
    assertTrue(c.record().success());
    assertEquals(-1, c.channel.runScheduledPendingTasks(), "no scheduled task left");
  }

  @Test
  void aFailedExchangeLeavesNoTimerBehindEither() {
    Conn c = new Conn(timeouts(Duration.ofMinutes(1), Duration.ofMinutes(2),
        Duration.ofMinutes(10)), System.nanoTime());
    c.feed(json(500, "{\"message\":\"boom\"}"));
    assertEquals("HTTP 500: boom", c.record().error());
    assertEquals(-1, c.channel.runScheduledPendingTasks());
  }

  @Test
  void theIdleTimerIsReArmedFromTheLastRead() throws InterruptedException {
    // Idle limit 600 ms, armed at the start. Data at ~500 ms. The timer's first check, at
    // ~700 ms, finds ~200 ms of silence and re-arms for the remaining ~400 ms, so at ~1200 ms
    // (silence ~700 ms) the request has failed. A re-arm for the limit plus the silence
    // would still be waiting. Each step has 400 ms of slack for a loaded machine.
    Conn c = new Conn(timeouts(Duration.ZERO, Duration.ofMillis(600), Duration.ZERO),
        System.nanoTime());
    c.feed(SSE_HEAD);
    TimeUnit.MILLISECONDS.sleep(500);
    c.feed(chunk(text("a")));
    TimeUnit.MILLISECONDS.sleep(200);
    c.channel.runScheduledPendingTasks();
    assertTrue(c.records.isEmpty(), "data ~200 ms ago: not idle for 600 ms yet");
    TimeUnit.MILLISECONDS.sleep(500);
    c.channel.runScheduledPendingTasks();
    assertEquals("idle timeout (600 ms without data)", c.record().error());
    assertEquals(1, c.record().chunkMicros().length);
  }

  @Test
  void wholeSecondTimeoutsReadAsSeconds() {
    Conn c = new Conn(timeouts(Duration.ofSeconds(2), Duration.ZERO, Duration.ZERO),
        System.nanoTime() - TimeUnit.SECONDS.toNanos(3));
    c.channel.runScheduledPendingTasks();
    assertEquals("first token timeout (2 s)", c.record().error());
  }

  // --- connection ends and errors ---------------------------------------------------------

  @Test
  void closeAfterTheHeadButBeforeAnyChunkIsNamedApart() {
    Conn c = conn().feed(SSE_HEAD);
    c.channel.close();
    assertEquals("connection closed before end of response", c.record().error());
    assertEquals(200, c.record().httpStatus());
  }

  @Test
  void anIoErrorNamesItsKindAndMessage() {
    Conn c = conn().feed(SSE_HEAD);
    c.channel.pipeline().fireExceptionCaught(new IOException("Connection reset by peer"));
    assertEquals("I/O error: IOException: Connection reset by peer", c.record().error());
    assertFalse(c.reusable.get(0));
    assertFalse(c.channel.isOpen(), "the handler closes a connection that threw");
  }

  @Test
  void anIoErrorWithoutMessageIsJustItsKind() {
    Conn c = conn();
    c.channel.pipeline().fireExceptionCaught(new IOException());
    assertEquals("I/O error: IOException", c.record().error());
  }

  @Test
  void hundredContinueIsAnInterimHeadToo() {
    Conn c = conn().feed("HTTP/1.1 100 Continue\r\n\r\n" + SSE_HEAD + chunk(text("a")) + END);
    assertTrue(c.record().success(), c.record().error());
    assertEquals(200, c.record().httpStatus());
  }

  // --- non-streamed responses -------------------------------------------------------------

  @Test
  void nonStreamedBodyThatIsNotJsonFails() {
    RequestRecord r = conn().feed(json(200, "<html>oops</html>")).record();
    assertFalse(r.success());
    assertTrue(r.error().startsWith("malformed JSON response: Unexpected character ('<'"),
        r.error());
  }

  @Test
  void nonStreamedErrorObjectFails() {
    RequestRecord r = conn().feed(json(200, "{\"error\":{\"message\":\"bad prompt\"}}")).record();
    assertFalse(r.success());
    assertEquals("error response: bad prompt", r.error());
  }

  @Test
  void nonStreamedBodyWithoutChoicesFails() {
    RequestRecord r = conn().feed(json(200, "{\"object\":\"list\",\"data\":[]}")).record();
    assertFalse(r.success());
    assertEquals("response without choices", r.error());
    assertEquals(-1, r.ttftNanos());
  }

  @Test
  void nonStreamedSuccessIsOneContentChunkAtTheEnd() {
    Conn c = conn();
    RequestRecord r = c.feed(json(200, "{\"choices\":[{\"index\":0,\"text\":\"hi\"}]}")).record();
    assertTrue(r.success(), r.error());
    assertEquals(1, r.chunkMicros().length);
    assertTrue(r.ttftNanos() >= 0);
    assertEquals(r.ttftNanos(), r.latencyNanos());
    assertEquals(-1, r.outputTokens(), "no usage sent");
  }

  @Test
  void aBodyBeyondOneMebibyteIsCutSoAHugeResponseFailsInsteadOfFillingTheHeap() {
    StringBuilder big = new StringBuilder("{\"choices\":[{\"index\":0,\"text\":\"");
    while (big.length() < 1024 * 1024 + 10_000) {
      big.append("lorem ipsum ");
    }
    big.append("\"}]}");
    RequestRecord r = conn().feed(json(200, big.toString())).record();
    assertFalse(r.success());
    assertTrue(r.error().startsWith("malformed JSON response: Unexpected end-of-input"),
        r.error());
  }

  @Test
  void aBodyJustOverOneMebibyteIsCutWhereverTheReadsSplitIt() {
    // 50 bytes over the limit; the first read ends 100 bytes into the body, so the codec's
    // 8 KiB pieces do not line up with the limit: the cut must still fall exactly on it.
    String prefix = "{\"choices\":[{\"index\":0,\"text\":\"";
    String tail = "\"}]}";
    StringBuilder body = new StringBuilder(prefix);
    while (body.length() < 1024 * 1024 + 50 - tail.length()) {
      body.append('z');
    }
    body.append(tail);
    String raw = json(200, body.toString());
    int split = raw.indexOf("\r\n\r\n") + 4 + 100;
    Conn c = conn().feed(raw.substring(0, split)).feed(raw.substring(split));
    assertFalse(c.record().success(), "a response over 1 MiB is cut, not parsed whole");
    assertTrue(c.record().error().startsWith("malformed JSON response"), c.record().error());
  }

  @Test
  void aBodyOfExactlyOneMebibyteIsReadWhole() {
    String prefix = "{\"choices\":[{\"index\":0,\"text\":\"";
    String tail = "\"}]}";
    StringBuilder body = new StringBuilder(prefix);
    while (body.length() + 12 + tail.length() <= 1024 * 1024) {
      body.append("lorem ipsum ");
    }
    int textLength = body.length() - prefix.length();
    body.append(tail);
    while (body.length() < 1024 * 1024) {
      body.append(' '); // JSON allows trailing whitespace: pad to the exact limit
    }
    RequestRecord r = conn().feed(json(200, body.toString())).record();
    assertTrue(r.success(), r.error());
    assertEquals(textLength, r.generatedText().length());
  }

  // --- streamed content ---------------------------------------------------------------------

  @Test
  void aLastEventWithoutItsBlankLineStillCounts() {
    RequestRecord r = conn().feed(SSE_HEAD + chunk("data: {\"choices\":[{\"text\":\"x\"}]}\n")
        + END).record();
    assertTrue(r.success(), r.error());
    assertEquals("x", r.generatedText());
  }

  @Test
  void moreChunksThanTheInitialArrayAreAllKept() {
    StringBuilder body = new StringBuilder();
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      body.append(chunk(text("t" + i)));
      expected.append("t").append(i);
    }
    RequestRecord r = conn().feed(SSE_HEAD + body + END).record();
    assertEquals(100, r.chunkMicros().length);
    assertEquals(expected.toString(), r.generatedText());
    assertEquals(99, r.itlCount());
  }

  @Test
  void chunkOffsetsAreMicrosecondsAfterTheStart() throws InterruptedException {
    Conn c = conn().feed(SSE_HEAD);
    TimeUnit.MILLISECONDS.sleep(20);
    RequestRecord r = c.feed(chunk(text("a")) + END).record();
    assertEquals(r.ttftNanos() / 1000, r.chunkMicros()[0]);
    assertTrue(r.chunkMicros()[0] >= 20_000, Arrays.toString(r.chunkMicros()));
    assertTrue(r.chunkMicros()[0] < 60_000_000, Arrays.toString(r.chunkMicros()));
  }

  @Test
  void zeroTokenUsageIsKeptAsZeroNotAsMissing() {
    // vLLM then counts the generated text with the tokenizer; -1 would say "no usage sent".
    RequestRecord r = conn().feed(SSE_HEAD + chunk(text("a"))
        + chunk("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":0,\"completion_tokens\":0}}\n\n")
        + END).record();
    assertEquals(0, r.outputTokens());
    assertEquals(0, r.usagePromptTokens());
    assertEquals(7, r.promptTokens(), "the dataset's count is kept apart");
  }

  @Test
  void doneMayCarrySpacesAroundIt() {
    RequestRecord r = conn().feed(SSE_HEAD + chunk(text("a") + "data:   [DONE]  \n\n") + END)
        .record();
    assertTrue(r.success(), r.error());
  }

  @Test
  void doneWithoutSpaceAfterTheColonIsDoneToo() {
    RequestRecord r = conn().feed(SSE_HEAD + chunk(text("a") + "data:[DONE]\n\n") + END)
        .record();
    assertTrue(r.success(), r.error());
  }

  @Test
  void somethingThatOnlyContainsDoneIsNotDone() {
    RequestRecord r = conn().feed(SSE_HEAD + chunk(text("a") + "data: x[DONE]\n\n") + END)
        .record();
    assertFalse(r.success());
    assertTrue(r.error().startsWith("malformed JSON chunk"), r.error());
  }

  @Test
  void aTruncatedDoneIsAMalformedChunkNotAnEndMarker() {
    // "[DONE " is six bytes but five after trimming: the trimming must look at the right bytes.
    RequestRecord r = conn().feed(SSE_HEAD + chunk(text("a") + "data: [DONE \n\n") + END)
        .record();
    assertFalse(r.success());
    assertTrue(r.error().startsWith("malformed JSON chunk"), r.error());
  }

  @Test
  void anEndBeforeTheRecordedStartIsClampedToTheStart() {
    // Start stamped after the bytes were read (a late start taken on another core): the
    // end time never goes before the start.
    long future = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    Conn c = new Conn(timeouts(Duration.ZERO, Duration.ZERO, Duration.ZERO), future);
    RequestRecord r = c.feed(json(404, "{\"message\":\"nope\"}")).record();
    assertEquals(future, r.endNanos());
    assertEquals(future, r.startNanos());
  }

  @Test
  void theEndOfANormalRequestIsItsLastRead() {
    long start = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(50);
    Conn c = new Conn(timeouts(Duration.ZERO, Duration.ZERO, Duration.ZERO), start);
    RequestRecord r = c.feed(json(404, "{\"message\":\"nope\"}")).record();
    assertTrue(r.endNanos() - start >= TimeUnit.MILLISECONDS.toNanos(50));
    assertTrue(r.endNanos() <= System.nanoTime());
  }
}
