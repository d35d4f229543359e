package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpResponseDecoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The connection handler reads the body of a chunked event stream itself, with Netty's HTTP
 * decoder out of the pipeline, and puts a new decoder back when the body ends: several
 * responses in a row on one connection, what stays on Netty's path, and the ends that must
 * not leave the connection for reuse.
 */
class ChunkedStreamPathTest {

  private static final ClientConfig CONFIG = new ClientConfig(Target.parse("http://127.0.0.1:1"),
      Duration.ofSeconds(1), Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(4));
  private static final String SSE_HEAD = "HTTP/1.1 200 OK\r\n"
      + "content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";

  /** One connection; each {@link #request()} starts the next exchange on it. */
  private static final class Connection {
    final ResponseHandler handler = new ResponseHandler();
    final EmbeddedChannel channel = new EmbeddedChannel(handler.handlers());
    final List<RequestRecord> records = new ArrayList<>();
    final List<Boolean> reusable = new ArrayList<>();

    Connection request() {
      LlmRequest request = new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
          new byte[0], 4, LlmRequest.NOT_SCHEDULED);
      Exchange exchange = new Exchange(request, System.nanoTime(), CONFIG, (ex, record, reuse) -> {
        records.add(record);
        reusable.add(reuse);
        handler.end();
      });
      handler.begin(exchange);
      exchange.started(channel);
      return this;
    }

    Connection feed(byte[] bytes) {
      channel.writeInbound(Unpooled.wrappedBuffer(bytes));
      channel.runPendingTasks();
      return this;
    }

    Connection feed(String raw) {
      return feed(raw.getBytes(StandardCharsets.UTF_8));
    }

    boolean nettyDecodes() {
      return channel.pipeline().get(HttpResponseDecoder.class) != null;
    }

    RequestRecord last() {
      return records.get(records.size() - 1);
    }
  }

  private static String chunk(String piece) {
    return Integer.toHexString(piece.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + piece
        + "\r\n";
  }

  private static String text(String t) {
    return "data: {\"choices\":[{\"index\":0,\"text\":\"" + t + "\"}]}\n\n";
  }

  @Test
  void streamsThenOtherResponsesOnOneConnection() {
    Connection c = new Connection().request();
    assertTrue(c.nettyDecodes(), "heads are Netty's to read");
    // the head and the first chunk in one read: the bytes past the head reach the handler
    c.feed(SSE_HEAD + chunk(text("Hel")));
    assertFalse(c.nettyDecodes(), "the handler reads the stream's chunks itself");
    c.feed(chunk(text("lo")) + chunk("data: [DONE]\n\n")).feed("0\r\n\r\n");
    assertTrue(c.nettyDecodes(), "a decoder is back for the next response");
    assertTrue(c.last().success(), c.last().error());
    assertEquals("Hello", c.last().generatedText());
    assertEquals(2, c.last().chunkMicros().length);
    assertEquals(List.of(true), c.reusable);

    // a JSON error next, read by Netty's decoder on the same connection
    String body = "{\"error\":{\"message\":\"overloaded\"}}";
    c.request().feed("HTTP/1.1 503 X\r\ncontent-type: application/json\r\ncontent-length: "
        + body.length() + "\r\n\r\n" + body);
    assertEquals("HTTP 503: overloaded", c.last().error());

    // and a stream again, its end in the same read as its last chunk
    c.request().feed(SSE_HEAD).feed(chunk(text("again")) + "0\r\n\r\n");
    assertTrue(c.last().success(), c.last().error());
    assertEquals("again", c.last().generatedText());
    assertEquals(List.of(true, true, true), c.reusable);
    assertTrue(c.nettyDecodes());
  }

  @Test
  void bytesAfterTheBodyKeepTheConnectionFromReuse() {
    Connection c = new Connection().request();
    c.feed(SSE_HEAD + chunk(text("a")) + "0\r\n\r\nHTTP/1.1 200 OK\r\n");
    assertTrue(c.last().success(), "the response itself was whole");
    assertEquals(List.of(false), c.reusable);
  }

  @Test
  void aBrokenChunkFailsTheRequestAndTheConnection() {
    Connection c = new Connection().request();
    c.feed(SSE_HEAD + chunk(text("a"))).feed("zz\r\n");
    assertEquals("malformed response: invalid chunked encoding", c.last().error());
    assertEquals(1, c.last().chunkMicros().length, "the content before the break is kept");
    assertEquals(List.of(false), c.reusable);
  }

  @Test
  void aStreamCutMidChunkSaysSo() {
    Connection c = new Connection().request();
    c.feed(SSE_HEAD + chunk(text("a")) + "40\r\ndata: {\"cho");
    c.channel.close();
    c.channel.runPendingTasks();
    assertEquals("connection closed mid-stream", c.last().error());
  }

  @Test
  void anErrorEventEndsTheRequestAtOnce() {
    Connection c = new Connection().request();
    c.feed(SSE_HEAD + chunk(text("a")) + chunk("data: {\"error\":{\"message\":\"boom\"}}\n\n"));
    assertEquals("error event: boom", c.last().error());
    assertEquals(List.of(false), c.reusable, "the rest of the body was never read");
  }

  @Test
  void compressedAndContentLengthStreamsStayOnNettysPath() {
    Connection c = new Connection().request();
    byte[] zipped = gzip(text("zipped") + "data: [DONE]\n\n");
    byte[] head = ("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
        + "content-encoding: gzip\r\ntransfer-encoding: chunked\r\n\r\n"
        + Integer.toHexString(zipped.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    c.feed(head);
    assertTrue(c.nettyDecodes(), "gzip is inflated on Netty's path");
    c.feed(zipped).feed("\r\n0\r\n\r\n");
    assertTrue(c.last().success(), c.last().error());
    assertEquals("zipped", c.last().generatedText());

    String body = text("sized");
    c.request().feed("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: "
        + body.length() + "\r\n\r\n");
    assertTrue(c.nettyDecodes(), "a sized body is Netty's to read");
    c.feed(body);
    assertTrue(c.last().success(), c.last().error());
    assertEquals("sized", c.last().generatedText());
    assertEquals(List.of(true, true), c.reusable);
  }

  @Test
  void theChunkTimesAreTheReadsThatCompletedEachEvent() {
    Connection c = new Connection().request();
    long first = System.nanoTime();
    c.feed(SSE_HEAD + chunk("data: {\"choices\":[{\"index\":0,"));
    long second = System.nanoTime();
    c.feed(chunk("\"text\":\"x\"}]}\n\n") + chunk(text("y")));
    c.feed("0\r\n\r\n");
    RequestRecord r = c.last();
    assertTrue(r.success(), r.error());
    assertEquals(2, r.chunkMicros().length);
    assertTrue(r.startNanos() + r.ttftNanos() >= second,
        "the event was completed by the second read, not the first (" + first + ")");
    assertEquals(r.chunkMicros()[0], r.chunkMicros()[1], "both events came in one read");
  }

  @Test
  void aReadOfManyChunksIsReadInPieces() {
    // one read of ~40 KiB, five times the handler's copy buffer: 400 events
    StringBuilder body = new StringBuilder(SSE_HEAD);
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      body.append(chunk(text("t" + i)));
      expected.append("t").append(i);
    }
    Connection c = new Connection().request();
    c.feed(body.append("0\r\n\r\n").toString());
    assertTrue(c.last().success(), c.last().error());
    assertEquals(expected.toString(), c.last().generatedText());
    assertEquals(400, c.last().chunkMicros().length);
    assertEquals(List.of(true), c.reusable);
  }

  @Test
  void anInterimResponseThenAStreamInOneRead() {
    Connection c = new Connection().request();
    c.feed("HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n" + SSE_HEAD + chunk(text("ok"))
        + "0\r\n\r\n");
    assertTrue(c.last().success(), c.last().error());
    assertEquals("ok", c.last().generatedText());
    assertTrue(c.nettyDecodes());
  }

  /**
   * The client's completion may send the next request on the same connection before the
   * handler returns (a user's next action): the decoder must be back by then, and the next
   * response must decode.
   */
  @Test
  void theNextRequestCanStartInsideTheCompletion() {
    ResponseHandler handler = new ResponseHandler();
    EmbeddedChannel channel = new EmbeddedChannel(handler.handlers());
    List<RequestRecord> records = new ArrayList<>();
    List<Boolean> readyInCompletion = new ArrayList<>();
    LlmRequest request = new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
        new byte[0], 4, LlmRequest.NOT_SCHEDULED);
    Exchange second = new Exchange(request, System.nanoTime(), CONFIG, (ex, record, reuse) -> {
      records.add(record);
      handler.end();
    });
    Exchange first = new Exchange(request, System.nanoTime(), CONFIG, (ex, record, reuse) -> {
      records.add(record);
      handler.end();
      readyInCompletion.add(handler.readyForNext()
          && channel.pipeline().get(HttpResponseDecoder.class) != null);
      handler.begin(second);
      second.started(channel);
    });
    handler.begin(first);
    first.started(channel);
    channel.writeInbound(Unpooled.wrappedBuffer((SSE_HEAD + chunk(text("one")) + "0\r\n\r\n")
        .getBytes(StandardCharsets.UTF_8)));
    channel.runPendingTasks();
    assertEquals(List.of(true), readyInCompletion);
    channel.writeInbound(Unpooled.wrappedBuffer((SSE_HEAD + chunk(text("two")) + "0\r\n\r\n")
        .getBytes(StandardCharsets.UTF_8)));
    channel.runPendingTasks();
    assertEquals(2, records.size());
    assertEquals("one", records.get(0).generatedText());
    assertEquals("two", records.get(1).generatedText());
    assertTrue(records.get(1).success(), records.get(1).error());
    channel.finishAndReleaseAll();
  }

  private static byte[] gzip(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(s.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
