package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.client.TargetChooser.Strategy;
import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client against several servers: each request goes to the one the chooser picks, with
 * that server's Host header and path prefix, over that server's own connections; the record
 * says which; and a server's count of requests in flight comes back however a request ends.
 */
class LlmClientReplicasTest {

  private static final String SSE = "data: {\"choices\":[{\"index\":0,\"text\":\"Hel\"}]}\n\n"
      + "data: {\"choices\":[{\"index\":0,\"text\":\"lo\"}]}\n\n"
      + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":2}}\n\n"
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

  private static LlmClient client(Strategy strategy, Duration requestTimeout, String... urls) {
    List<Target> targets = new ArrayList<>();
    for (String url : urls) {
      targets.add(Target.parse(url));
    }
    return new LlmClient(NioSocketChannel::new, new ClientConfig(targets.get(0),
        Duration.ofSeconds(2), Duration.ZERO, Duration.ofSeconds(5), requestTimeout,
        Duration.ofSeconds(4), false, targets, strategy));
  }

  private static LlmRequest request() {
    return new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
        "{\"prompt\":\"hi\"}".getBytes(StandardCharsets.UTF_8), 4, LlmRequest.NOT_SCHEDULED);
  }

  /** A request that must go to server {@code target}, as a conversation's later turn. */
  private static LlmRequest requestTo(int target) {
    LlmRequest any = request();
    return new LlmRequest(any.name(), any.path(), any.headers(), any.body(), any.promptTokens(),
        any.scheduledNanos(), any.pooling(), any.reader(), any.schema(), any.cancel(), target);
  }

  private RequestRecord send(LlmClient client) throws Exception {
    return send(client, request());
  }

  private RequestRecord send(LlmClient client, LlmRequest request) throws Exception {
    CompletableFuture<RequestRecord> done = new CompletableFuture<>();
    loop.execute(() -> client.send(loop, request, done::complete));
    return done.get(10, TimeUnit.SECONDS);
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void roundRobinSendsEachInTurnWithItsHostAndPrefixOverItsOwnConnection() throws Exception {
    try (CannedHttpServer a = CannedHttpServer.streaming(SSE);
         CannedHttpServer b = CannedHttpServer.streaming(SSE);
         LlmClient client = client(Strategy.ROUND_ROBIN, Duration.ofSeconds(10),
             a.baseUrl() + "/a", b.baseUrl() + "/b/")) {
      List<Integer> targets = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        RequestRecord r = send(client);
        assertTrue(r.success(), r.error());
        assertEquals("Hello", r.generatedText());
        targets.add(r.target());
      }
      assertEquals(List.of(0, 1, 0, 1), targets);
      assertEquals(2, a.received().size());
      assertEquals(2, b.received().size());
      for (CannedHttpServer.Received got : a.received()) {
        assertEquals("/a/v1/completions", got.uri());
        assertEquals("127.0.0.1:" + a.port(), got.headers().get("host"));
      }
      for (CannedHttpServer.Received got : b.received()) {
        assertEquals("/b/v1/completions", got.uri());
        assertEquals("127.0.0.1:" + b.port(), got.headers().get("host"));
      }
      // one kept-alive connection each: a server's connection never carries the other's
      assertEquals(1, a.connections());
      assertEquals(1, b.connections());
      assertEquals(0, client.inFlight(0));
      assertEquals(0, client.inFlight(1));
    }
  }

  @Test
  void connectionsOpenedAheadGoToEveryServerAndCarryItsRequests() throws Exception {
    try (CannedHttpServer a = CannedHttpServer.streaming(SSE);
         CannedHttpServer b = CannedHttpServer.streaming(SSE);
         LlmClient client = client(Strategy.ROUND_ROBIN, Duration.ofSeconds(10),
             a.baseUrl(), b.baseUrl())) {
      // two connections over two loops: one to each server, not one per loop to the first
      EventLoopGroup two = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
      try {
        assertEquals(2, client.openIdle(List.of(two.next(), two.next()), 2,
            Duration.ofSeconds(5)));
      } finally {
        two.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      }
      // the servers count a connection once they accepted it, on their own threads
      waitFor(() -> a.connections() == 1 && b.connections() == 1, "one connection each");
      assertTrue(send(client).success());
      assertTrue(send(client).success());
      assertEquals(1, a.received().size());
      assertEquals(1, b.received().size());
    }
  }

  @Test
  void aServerThatIsDownFailsOnlyItsOwnRequestsAndItsCountComesBack() throws Exception {
    int down = closedPort();
    try (CannedHttpServer up = CannedHttpServer.streaming(SSE);
         LlmClient client = client(Strategy.ROUND_ROBIN, Duration.ofSeconds(10),
             up.baseUrl(), "http://127.0.0.1:" + down)) {
      for (int i = 0; i < 4; i++) {
        RequestRecord r = send(client);
        if (i % 2 == 0) {
          assertTrue(r.success(), r.error());
          assertEquals(0, r.target());
        } else {
          assertFalse(r.success());
          assertEquals(1, r.target());
          assertEquals("connect failed: connection refused", r.error());
        }
      }
      assertEquals(2, up.received().size());
      assertEquals(0, client.inFlight(0));
      assertEquals(0, client.inFlight(1), "a failed request is no longer in flight");
    }
  }

  @Test
  void leastInFlightAvoidsTheServerStillStreamingAndCountsComeBackAfterATimeout()
      throws Exception {
    // both empty: the first server takes it, and holds it; the next three go to the second
    holdOneThenSendFree(0, request(), 3);
  }

  @Test
  void leastInFlightCountsARequestHeldOnItsGivenServer() throws Exception {
    // a turn given the second server (least-in-flight would have taken the first, a tie):
    // the free requests avoid the second server while it streams
    holdOneThenSendFree(1, requestTo(1), 2);
  }

  /**
   * With least-in-flight over two servers, of which {@code slowIndex} holds its stream for
   * 10 s (past the client's 5 s request timeout): {@code held} goes to the slow one, then
   * {@code free} requests go one after the other to the other server, and the held request's
   * count comes back when the client gives up on it, as a cancel does.
   */
  private void holdOneThenSendFree(int slowIndex, LlmRequest held, int free) throws Exception {
    String first = "data: {\"choices\":[{\"index\":0,\"text\":\"a\"}]}\n\n";
    String rest = "data: {\"choices\":[{\"index\":0,\"text\":\"b\"}]}\n\ndata: [DONE]\n\n";
    int fastIndex = 1 - slowIndex;
    try (CannedHttpServer slow = CannedHttpServer.streamingWithPause(first, 10_000, rest);
         CannedHttpServer fast = CannedHttpServer.streaming(SSE);
         LlmClient client = client(Strategy.LEAST_IN_FLIGHT, Duration.ofSeconds(5),
             slowIndex == 0 ? slow.baseUrl() : fast.baseUrl(),
             slowIndex == 0 ? fast.baseUrl() : slow.baseUrl())) {
      CompletableFuture<RequestRecord> heldDone = new CompletableFuture<>();
      loop.execute(() -> client.send(loop, held, heldDone::complete));
      waitFor(() -> client.inFlight(slowIndex) == 1, "the held request is in flight");
      for (int i = 0; i < free; i++) {
        RequestRecord r = send(client);
        assertTrue(r.success(), r.error());
        assertEquals(fastIndex, r.target());
      }
      RequestRecord gaveUp = heldDone.get(10, TimeUnit.SECONDS);
      assertFalse(gaveUp.success());
      assertEquals(slowIndex, gaveUp.target());
      assertTrue(gaveUp.error().contains("request timeout"), gaveUp.error());
      assertEquals(0, client.inFlight(0), "a request given up is no longer in flight");
      assertEquals(0, client.inFlight(1));
      assertEquals(1, slow.received().size());
      assertEquals(free, fast.received().size());
    }
  }

  @Test
  void aRequestGivenItsServerGoesThereAndTheOthersStillSpread() throws Exception {
    try (CannedHttpServer a = CannedHttpServer.streaming(SSE);
         CannedHttpServer b = CannedHttpServer.streaming(SSE);
         LlmClient client = client(Strategy.ROUND_ROBIN, Duration.ofSeconds(10),
             a.baseUrl(), b.baseUrl())) {
      List<Integer> targets = new ArrayList<>();
      // free, given 1, given 1, free, given 0, free: round-robin's turn is only the free ones'
      for (int given : new int[] {-1, 1, 1, -1, 0, -1}) {
        RequestRecord r = send(client, given < 0 ? request() : requestTo(given));
        assertTrue(r.success(), r.error());
        targets.add(r.target());
      }
      assertEquals(List.of(0, 1, 1, 1, 0, 0), targets);
      assertEquals(3, a.received().size());
      assertEquals(3, b.received().size());
      assertEquals(0, client.inFlight(0));
      assertEquals(0, client.inFlight(1), "a given server's request is counted back too");
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting: " + what);
      }
      TimeUnit.MILLISECONDS.sleep(10);
    }
  }
}
