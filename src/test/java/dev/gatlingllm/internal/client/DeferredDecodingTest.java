package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A chunk is stamped when it is read, not when the loop gets round to decoding it: reads of
 * one epoll batch are all stamped before any of them is decoded.
 */
class DeferredDecodingTest {

  private static final String STREAM = "HTTP/1.1 200 OK\r\n"
      + "content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
      + chunk("data: {\"choices\":[{\"index\":0,\"text\":\"x\"}]}\n\n")
      + chunk("data: [DONE]\n\n") + "0\r\n\r\n";

  private static String chunk(String s) {
    return Integer.toHexString(s.length()) + "\r\n" + s + "\r\n";
  }

  /** One connection with an exchange in flight whose completion runs {@code onDone}. */
  private static final class Connection {
    final EmbeddedChannel channel;
    final List<RequestRecord> records = new ArrayList<>();

    Connection(Runnable onDone) {
      ResponseHandler handler = new ResponseHandler();
      channel = new EmbeddedChannel(handler.handlers());
      ClientConfig config = new ClientConfig(Target.parse("http://127.0.0.1:1"),
          Duration.ofSeconds(1), Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(4));
      LlmRequest request = new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
          new byte[0], 1, LlmRequest.NOT_SCHEDULED);
      Exchange exchange = new Exchange(request, System.nanoTime(), config, (ex, record, reuse) -> {
        records.add(record);
        handler.end();
        onDone.run();
      });
      handler.begin(exchange);
      exchange.started(channel);
    }

    /** What the event loop does when the socket is readable: the read, not the decoding. */
    void read() {
      channel.pipeline().fireChannelRead(
          Unpooled.wrappedBuffer(STREAM.getBytes(StandardCharsets.US_ASCII)));
    }
  }

  @Test
  void aSlowNeighbourInTheSameBatchDoesNotDelayTheStamp() {
    long slow = Duration.ofMillis(40).toNanos();
    Connection a = new Connection(() -> LockSupport.parkNanos(slow)); // heavy work on completion
    Connection b = new Connection(() -> { });
    long bornB = System.nanoTime();

    a.read();
    b.read();
    assertTrue(a.records.isEmpty(), "nothing is decoded inside the read");
    a.channel.runPendingTasks(); // decodes a: its completion takes 40 ms
    b.channel.runPendingTasks();

    assertEquals(1, b.records.size());
    long ttftB = b.records.get(0).ttftNanos();
    assertTrue(ttftB < System.nanoTime() - bornB - slow / 2,
        "b was read before a's 40 ms of work, so its TTFT excludes them: " + ttftB / 1e6 + " ms");
  }

  /** A send whose slot has come goes before the next connection's decoding (UrgentWork). */
  @Test
  void dueUrgentWorkRunsBeforeAConnectionIsDecoded() {
    Connection a = new Connection(() -> { });
    List<Integer> decodedWhenItRan = new ArrayList<>();
    a.read();
    UrgentWork.register(System.nanoTime() - 1, () -> decodedWhenItRan.add(a.records.size()));
    UrgentWork.register(System.nanoTime() + 3_600_000_000_000L, () -> decodedWhenItRan.add(-1));

    a.channel.runPendingTasks();

    assertEquals(List.of(0), decodedWhenItRan, "ran once, before the decoding, not the later one");
    assertEquals(1, a.records.size());
  }

  @Test
  void aCloseAfterTheLastBytesIsDeliveredAfterThem() {
    Connection c = new Connection(() -> { });
    c.read();
    c.channel.close();
    c.channel.runPendingTasks();
    assertEquals(1, c.records.size());
    assertTrue(c.records.get(0).success(), "the response was complete before the close");
  }
}
