package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsServer;
import dev.gatlingllm.internal.metrics.RequestPhases;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.SelfSignedHttps;
import dev.gatlingllm.testing.StrictServer;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The phases the client stamps on each request, against the strict simulator (and an HTTPS
 * server for the handshake): a request that opens its connection has its DNS, TCP connect and
 * (over HTTPS) TLS, all before its last byte is written; one on a reused connection has none;
 * every request has written ≤ head ≤ first chunk. And a cancel: the client closes the stream
 * after its N-th chunk, the record says cancelled, and the simulator counts an abort.
 */
class ConnectionPhasesTest {

  private static final String SSE = "data: {\"choices\":[{\"index\":0,\"text\":\"Hel\"}]}\n\n"
      + "data: {\"choices\":[{\"index\":0,\"text\":\"lo\"}]}\n\n"
      + "data: [DONE]\n\n";

  private EventLoopGroup group;
  private EventLoop loop;

  @BeforeEach
  void startLoop() {
    group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    loop = group.next();
  }

  @AfterEach
  void stopLoop() {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private static LlmClient client(String baseUrl, boolean insecure) {
    return new LlmClient(NioSocketChannel::new, new ClientConfig(Target.parse(baseUrl),
        Duration.ofSeconds(5), Duration.ZERO, Duration.ofSeconds(10), Duration.ofSeconds(20),
        Duration.ofSeconds(4), insecure));
  }

  private static LlmRequest request(int maxTokens, CancelAfter cancel) {
    String body = "{\"model\":\"" + StrictServer.MODEL + "\",\"prompt\":\"hello there\","
        + "\"max_tokens\":" + maxTokens + ",\"stream\":true}";
    return new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
        body.getBytes(StandardCharsets.UTF_8), 2, LlmRequest.NOT_SCHEDULED, false,
        ChunkReader.OPENAI, cancel);
  }

  private RequestRecord send(LlmClient client, LlmRequest request) throws Exception {
    CompletableFuture<RequestRecord> done = new CompletableFuture<>();
    loop.execute(() -> client.send(loop, request, done::complete));
    return done.get(20, TimeUnit.SECONDS);
  }

  private static void assertOrdered(RequestRecord r) {
    assertTrue(r.writtenNanos() >= 0, "written: " + r);
    assertTrue(r.writtenNanos() <= r.headNanos(), "written ≤ head: " + r);
    assertTrue(r.headNanos() <= r.ttftNanos(), "head ≤ first chunk: " + r);
    RequestPhases.Split split = RequestPhases.Split.of(r);
    assertEquals(r.ttftNanos(), split.ttftNanos(), "the three parts add up to the TTFT");
  }

  @Test
  void aNewConnectionHasItsConnectAndAReusedOneHasNone() throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(20))
            .itl(Duration.ofMillis(1)).build());
         LlmClient client = client(sim.baseUrl(), false)) {
      RequestRecord first = send(client, request(4, CancelAfter.NEVER));
      RequestRecord second = send(client, request(4, CancelAfter.NEVER));

      assertTrue(first.success(), first.error());
      assertFalse(first.connectionReused());
      assertTrue(first.dnsNanos() >= 0, "resolved by Netty's resolver: " + first);
      assertTrue(first.connectNanos() >= 0, "connected: " + first);
      assertEquals(-1, first.tlsNanos(), "plain HTTP: no handshake");
      assertTrue(first.dnsNanos() + first.connectNanos() <= first.writtenNanos(),
          "the connection was open before the request was written: " + first);
      assertOrdered(first);
      // the simulator sends the head at once and the first token 20 ms later
      assertTrue(first.ttftNanos() - first.headNanos() >= 15_000_000L, first.toString());

      assertTrue(second.success(), second.error());
      assertTrue(second.connectionReused(), "the kept-alive connection carried it");
      assertEquals(-1, second.dnsNanos());
      assertEquals(-1, second.connectNanos());
      assertEquals(-1, second.tlsNanos());
      assertOrdered(second);
    }
  }

  @Test
  void anHttpsConnectionHasItsHandshakeBeforeTheWrite() throws Exception {
    HttpsServer https = SelfSignedHttps.start("/v1/completions", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(SSE.getBytes(StandardCharsets.UTF_8));
      }
    });
    try (LlmClient client = client("https://127.0.0.1:" + https.getAddress().getPort(), true)) {
      RequestRecord r = send(client, request(2, CancelAfter.NEVER));
      assertTrue(r.success(), r.error());
      assertTrue(r.tlsNanos() > 0, "a handshake took time: " + r);
      assertTrue(r.connectNanos() >= 0);
      assertTrue(r.dnsNanos() + r.connectNanos() + r.tlsNanos() <= r.writtenNanos(),
          "written after the handshake: " + r);
      assertOrdered(r);
    } finally {
      https.stop(0);
    }
  }

  @Test
  void aCancelledStreamIsClosedAfterItsNthChunkAndTheServerAbortsIt() throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
            .itl(Duration.ofMillis(20)).tokensPerChunk(1).build());
         LlmClient client = client(sim.baseUrl(), false)) {
      RequestRecord r = send(client, request(50, CancelAfter.chunks(3)));

      assertTrue(r.cancelled());
      assertFalse(r.success(), "cancelled is not a success");
      assertNull(r.error(), "nor a failure");
      assertEquals(3, r.chunkMicros().length, "three chunks, then the close");
      assertTrue(r.ttftNanos() >= 0);
      assertEquals(1, abortsCounted(sim), "the simulator saw the close and stopped");

      RequestRecord whole = send(client, request(3, CancelAfter.chunks(5)));
      assertTrue(whole.success(), "an answer that ends before the cancel point is not cancelled");
      assertFalse(whole.cancelled());
      assertFalse(whole.connectionReused(), "the cancel closed the connection it was on");
    }
  }

  /** 50 tokens 20 ms apart take a second: a cancel 50 ms after the write comes long before. */
  @Test
  void aCancelByTimeClosesTheStreamBeforeItsEnd() throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
            .itl(Duration.ofMillis(20)).tokensPerChunk(1).build());
         LlmClient client = client(sim.baseUrl(), false)) {
      RequestRecord r = send(client, request(50, CancelAfter.millis(50)));

      assertTrue(r.cancelled());
      assertFalse(r.success());
      assertTrue(r.chunkMicros().length < 50, "closed before its end: " + r.chunkMicros().length);
      assertTrue(r.endNanos() - r.startNanos() >= r.writtenNanos() + 50_000_000L,
          "not before 50 ms after the write");
      assertEquals(1, abortsCounted(sim));
    }
  }

  private static final Pattern ABORTS =
      Pattern.compile("vllm:request_success_total\\{finished_reason=\"abort\",[^}]*} (\\d+)");

  /** The simulator's abort count, read from its /metrics once it has counted one (5 s at most). */
  private static long abortsCounted(Simulator sim) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    long count;
    do {
      String text = http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/metrics"))
          .build(), HttpResponse.BodyHandlers.ofString()).body();
      Matcher m = ABORTS.matcher(text);
      assertTrue(m.find(), text);
      count = Long.parseLong(m.group(1));
      if (count > 0) {
        return count;
      }
      Thread.sleep(20);
    } while (System.nanoTime() < deadline);
    return count;
  }
}
