package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A response that is not HTTP/1.x fails with one message that names what is wrong, however its
 * bytes are split across reads: one server fault, one row in the errors table. Each response
 * here is read whole, then cut in two at every byte, then one byte per read.
 */
class MalformedResponseTest {

  private static final String STREAM = "content-type: text/event-stream\r\n\r\n"
      + "data: {\"choices\":[{\"text\":\"a\"}]}\n\ndata: [DONE]\n\n";

  @Test
  void aFirstLineThatIsNotHttpFailsAsSuch() {
    assertOneFailure("malformed response: status line is not HTTP/1.x",
        ascii("HTTPP 200 OK\r\n" + STREAM));
    assertOneFailure("malformed response: status line is not HTTP/1.x",
        ascii("HTTP/1.1 abc OK\r\n" + STREAM));
    assertOneFailure("malformed response: status line is not HTTP/1.x",
        ascii("<html><body>gateway</body></html>\r\n\r\n"));
    assertOneFailure("malformed response: status line is not HTTP/1.x",
        ascii("HTTP/1.1 200 " + "O".repeat(5000) + "\r\n" + STREAM));
  }

  @Test
  void anotherProtocolVersionFailsWithTheVersion() {
    assertOneFailure("malformed response: status line is not HTTP/1.x (version HTTP/2.0)",
        ascii("HTTP/2.0 200 OK\r\n" + STREAM));
  }

  @Test
  void aStatusOutside100To599FailsWithTheStatusBeforeTheBodyIsRead() throws IOException {
    assertOneFailure("malformed response: status line is not HTTP/1.x (status 999, outside 100-599)",
        ascii("HTTP/1.1 999 X\r\ncontent-length: 2\r\n\r\nhi"));
    // The fuzzer's input, by hand: a status-0 response whose gzip body is cut by a short
    // content-length. Its message used to be "HTTP 0: " and the body inflated so far, which
    // depended on where the reads ended.
    byte[] zipped = gzip(("HTTPP 200 \ndata: {\"choices\":[{\"text\":\"a\"}]}\n\n").repeat(8));
    int sent = zipped.length - 9;
    ByteArrayOutputStream response = new ByteArrayOutputStream();
    response.writeBytes(ascii("HTTP/1.0 0 X\r\ncontent-type: text/event-stream\r\n"
        + "content-encoding: gzip\r\ncontent-length: " + sent + "\r\n\r\n"));
    response.write(zipped, 0, sent);
    assertOneFailure("malformed response: status line is not HTTP/1.x (status 0, outside 100-599)",
        response.toByteArray());
  }

  @Test
  void brokenHeadersAndChunksNameWhereTheResponseBroke() {
    assertOneFailure("malformed response: invalid HTTP header",
        ascii("HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\nhi"));
    assertOneFailure("malformed response: invalid chunked encoding",
        ascii("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
            + "transfer-encoding: chunked\r\n\r\nzz-not-a-size\r\n"));
  }

  private static void assertOneFailure(String expected, byte[] response) {
    List<int[]> splits = new ArrayList<>();
    splits.add(new int[0]);
    for (int cut = 1; cut < response.length; cut++) {
      splits.add(new int[] {cut});
    }
    int[] everyByte = new int[response.length - 1];
    for (int i = 0; i < everyByte.length; i++) {
      everyByte[i] = i + 1;
    }
    splits.add(everyByte);
    for (int[] cuts : splits) {
      Outcome outcome = exchange(response, cuts);
      String where = "reads ending at "
          + (cuts.length > 1 ? "every byte" : Arrays.toString(cuts));
      assertFalse(outcome.record.success(), where);
      assertEquals(expected, outcome.record.error(), where);
      assertFalse(outcome.reusable, "a connection that spoke garbage is not reused (" + where + ")");
    }
  }

  private record Outcome(RequestRecord record, boolean reusable) {}

  private static Outcome exchange(byte[] response, int[] cuts) {
    ResponseHandler handler = new ResponseHandler();
    EmbeddedChannel channel = new EmbeddedChannel(handler.handlers());
    ClientConfig config = new ClientConfig(Target.parse("http://127.0.0.1:1"),
        Duration.ofSeconds(1), Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(4));
    LlmRequest request = new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
        new byte[0], 3, LlmRequest.NOT_SCHEDULED);
    List<Outcome> outcomes = new ArrayList<>();
    Exchange exchange = new Exchange(request, System.nanoTime(), config, (ex, record, reuse) -> {
      outcomes.add(new Outcome(record, reuse));
      handler.end();
    });
    handler.begin(exchange);
    exchange.started(channel);
    int from = 0;
    for (int cut : cuts) {
      channel.writeInbound(Unpooled.wrappedBuffer(response, from, cut - from));
      from = cut;
    }
    channel.writeInbound(Unpooled.wrappedBuffer(response, from, response.length - from));
    channel.runPendingTasks();
    channel.close(); // the server closes: a response that was still open ends here
    channel.runPendingTasks();
    channel.finishAndReleaseAll();
    assertEquals(1, outcomes.size(), "exactly one record per exchange");
    return outcomes.get(0);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
      gz.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return zipped.toByteArray();
  }
}
