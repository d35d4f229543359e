package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.gatlingllm.internal.client.ScriptedHttpServer.Action;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.testing.Disturbance;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.net.ssl.KeyManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * Connection reuse against servers that close connections their own way: a stale pooled
 * connection is sent on again, once, with a fresh clock, and never counted as the server's
 * failure; a new connection that closes is; {@code Connection: close} and {@code Keep-Alive}
 * are honoured; a server that closes after every response is noticed. Requests go one after
 * another from one event loop, so each finds the connection the one before left in the pool.
 */
@Timeout(60)
class ConnectionReuseTest {

  private static final Duration LONG = Duration.ofMinutes(1);
  private static final String NO_HEADERS = "";

  private final EventLoopGroup group =
      new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final EventLoop loop = group.next();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final AtomicInteger resent = new AtomicInteger();

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : toClose) {
      c.close();
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
  }

  private ScriptedHttpServer server(ScriptedHttpServer.Script script) {
    ScriptedHttpServer server = new ScriptedHttpServer(script);
    toClose.add(server);
    return server;
  }

  private LlmClient client(ScriptedHttpServer server) {
    return client(server.baseUrl());
  }

  private LlmClient client(String baseUrl) {
    LlmClient client = new LlmClient(NioSocketChannel::new, new ClientConfig(
        Target.parse(baseUrl), Duration.ofSeconds(5), Duration.ZERO, LONG, LONG,
        Duration.ofSeconds(30), true));
    client.onResent(resent::incrementAndGet);
    toClose.add(client);
    return client;
  }

  private RequestRecord send(LlmClient client, String requestId) throws Exception {
    CompletableFuture<RequestRecord> done = new CompletableFuture<>();
    client.send(loop, new LlmRequest("gen", "/v1/completions",
        new DefaultHttpHeaders().set("x-request-id", requestId),
        "{\"prompt\":\"p\",\"stream\":true}".getBytes(StandardCharsets.UTF_8), 1,
        LlmRequest.NOT_SCHEDULED), done::complete);
    return done.get(20, TimeUnit.SECONDS);
  }

  private static void assertAnswered(RequestRecord r) {
    assertTrue(r.success(), r.error());
    assertEquals(ScriptedHttpServer.TEXT, r.generatedText());
  }

  @Test
  void aStaleReusedConnectionIsSentOnAgainOnANewOneWithTheSameRequestId() throws Exception {
    // The second request on any connection finds it closed: the server dropped it unread.
    ScriptedHttpServer server = server((onConnection, overall) ->
        onConnection == 1 ? Action.answer(NO_HEADERS) : Action.close(0));
    LlmClient client = client(server);

    assertAnswered(send(client, "r1"));
    RequestRecord second = send(client, "r2");

    assertAnswered(second);
    assertEquals("r2", second.requestId());
    assertEquals(List.of("1/1 r1", "1/2 r2", "2/1 r2"), trace(server));
    assertEquals(1, resent.get());
  }

  @Test
  void aResetStaleConnectionIsSentOnAgainToo() throws Exception {
    ScriptedHttpServer server = server((onConnection, overall) ->
        onConnection == 1 ? Action.answer(NO_HEADERS) : Action.reset());
    LlmClient client = client(server);

    assertAnswered(send(client, "r1"));
    assertAnswered(send(client, "r2"));

    assertEquals(List.of("1/1 r1", "1/2 r2", "2/1 r2"), trace(server));
    assertEquals(1, resent.get());
  }

  @Test
  void aStaleTlsConnectionIsSentOnAgainWhetherClosedOrReset() throws Exception {
    // A TLS server's close sends close_notify before the FIN: still nothing of the response.
    SslContext tls = selfSignedTls();
    for (Action stale : List.of(Action.close(0), Action.reset())) {
      resent.set(0);
      ScriptedHttpServer server = new ScriptedHttpServer((onConnection, overall) ->
          onConnection == 1 ? Action.answer(NO_HEADERS) : stale, tls);
      toClose.add(server);
      LlmClient client = client(server);

      assertAnswered(send(client, "r1"));
      assertAnswered(send(client, "r2"));

      assertEquals(List.of("1/1 r1", "1/2 r2", "2/1 r2"), trace(server), stale.toString());
      assertEquals(1, resent.get(), stale.toString());
    }
  }

  private SslContext selfSignedTls() throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = getClass().getResourceAsStream("/tls/self-signed.p12")) {
      store.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory keys =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, "changeit".toCharArray());
    return SslContextBuilder.forServer(keys).build();
  }

  @Test
  void theClockOfARequestSentAgainStartsWithItsNewConnection() throws Exception {
    // The stale connection is closed 300 ms after the request reached it: none of that wait
    // is the request's, whose answer then comes at once.
    ScriptedHttpServer server = server((onConnection, overall) ->
        onConnection == 1 ? Action.answer(NO_HEADERS) : Action.close(300));
    LlmClient client = client(server);
    RequestRecord first = send(client, "r1");

    long sentAt = System.nanoTime();
    Disturbance disturbance = Disturbance.start();
    RequestRecord second = send(client, "r2");
    // An answer "at once" is late on a busy machine by as long as the client's and the
    // server's threads waited for a CPU: measured, and added to the 300 ms bounds below.
    long waitedNanos = (long) (disturbance.waitedMs() * 1e6);

    assertAnswered(second);
    assertEquals(1, resent.get());
    long staleArrival = server.received().get(1).nanos();
    assertTrue(second.startNanos() >= staleArrival + TimeUnit.MILLISECONDS.toNanos(300),
        "the clock restarted after the stale connection closed: "
            + (second.startNanos() - sentAt) / 1e6 + " ms after the send");
    assertEquals(second.startNanos(), second.scheduledNanos(), "an unpaced request");
    assertTrue(second.ttftNanos() < TimeUnit.MILLISECONDS.toNanos(300) + waitedNanos,
        "TTFT " + second.ttftNanos() / 1e6 + " ms holds none of the stale 300 ms (first: "
            + first.ttftNanos() / 1e6 + " ms; " + disturbance + ")");
    assertTrue(second.latencyNanos() < TimeUnit.MILLISECONDS.toNanos(300) + waitedNanos,
        "E2EL " + second.latencyNanos() / 1e6 + " ms; " + disturbance);
  }

  @Test
  void aNewConnectionThatClosesBeforeTheResponseIsStillAFailure() throws Exception {
    ScriptedHttpServer server = server((onConnection, overall) -> Action.close(0));
    LlmClient client = client(server);

    RequestRecord r = send(client, "r1");

    assertFalse(r.success());
    assertEquals("connection closed before response", r.error());
    assertEquals(List.of("1/1 r1"), trace(server));
    assertEquals(0, resent.get());
  }

  @Test
  void aRequestIsSentAgainOnlyOnceAndASecondCloseFailsIt() throws Exception {
    ScriptedHttpServer server = server((onConnection, overall) ->
        overall == 1 ? Action.answer(NO_HEADERS) : Action.close(0));
    LlmClient client = client(server);

    assertAnswered(send(client, "r1"));
    RequestRecord r = send(client, "r2");

    assertFalse(r.success());
    assertEquals("connection closed before response", r.error());
    assertEquals(List.of("1/1 r1", "1/2 r2", "2/1 r2"), trace(server));
    assertEquals(1, resent.get());
  }

  @Test
  void anInterimResponseMeansTheServerReadTheRequestSoItIsNotSentAgain() throws Exception {
    ScriptedHttpServer server = server((onConnection, overall) ->
        onConnection == 1 ? Action.answer(NO_HEADERS) : Action.interimAndClose());
    LlmClient client = client(server);

    assertAnswered(send(client, "r1"));
    RequestRecord r = send(client, "r2");

    assertFalse(r.success());
    assertEquals("connection closed before response", r.error());
    assertEquals(List.of("1/1 r1", "1/2 r2"), trace(server));
    assertEquals(0, resent.get());
  }

  @Test
  void connectionCloseKeepsTheConnectionOutOfThePool() throws Exception {
    // The server says close but leaves closing to the client: reuse would work, yet must not.
    ScriptedHttpServer server = server((onConnection, overall) ->
        Action.answer("connection: close\r\n"));
    LlmClient client = client(server);

    for (int i = 1; i <= 3; i++) {
      assertAnswered(send(client, "r" + i));
    }

    assertEquals(List.of("1/1 r1", "2/1 r2", "3/1 r3"), trace(server));
    await("the client closed each connection", () -> server.closedConnections() == 3);
    assertEquals(0, resent.get());
  }

  @Test
  void keepAliveMaxEndsAConnectionsReuseAfterItsNthResponse() throws Exception {
    ScriptedHttpServer server = server((onConnection, overall) ->
        Action.answer("keep-alive: timeout=5, max=2\r\n"));
    LlmClient client = client(server);

    for (int i = 1; i <= 5; i++) {
      assertAnswered(send(client, "r" + i));
    }

    assertEquals(List.of("1/1 r1", "1/2 r2", "2/1 r3", "2/2 r4", "3/1 r5"), trace(server));
    assertEquals(0, resent.get());
  }

  @Test
  void aServerCountingMaxDownAsApacheDoesGivesTheSameLimit() throws Exception {
    // Apache says max=N on the first response of a connection, N-1 on the next, and so on.
    ScriptedHttpServer server = server((onConnection, overall) ->
        Action.answer("Keep-Alive: timeout=5, max=" + (4 - onConnection) + "\r\n"));
    LlmClient client = client(server);

    for (int i = 1; i <= 4; i++) {
      assertAnswered(send(client, "r" + i));
    }

    assertEquals(List.of("1/1 r1", "1/2 r2", "1/3 r3", "2/1 r4"), trace(server));
  }

  @Test
  void keepAliveTimeoutCapsTheIdleTimeAConnectionIsReusedAfter() throws Exception {
    // timeout=1: idle up to 0.8 s, though the client's own limit is 30 s
    ScriptedHttpServer server = server((onConnection, overall) ->
        Action.answer("keep-alive: timeout=1\r\n"));
    LlmClient client = client(server);

    assertAnswered(send(client, "r1"));
    Thread.sleep(1_000);
    assertAnswered(send(client, "r2"));
    assertAnswered(send(client, "r3"));

    assertEquals(List.of("1/1 r1", "2/1 r2", "2/2 r3"), trace(server));
    await("the expired connection closed by the client", () -> server.closedConnections() == 1);
  }

  @Test
  void aServerThatClosesAfterEveryResponseIsNoticedAndSaidOnce() throws Exception {
    // llama.cpp's server: keep-alive announced, the connection closed after the last chunk
    ScriptedHttpServer server = server((onConnection, overall) ->
        Action.answerAndClose("keep-alive: timeout=5, max=100\r\n"));
    LlmClient client = client(server);
    List<String> warnings = new ArrayList<>();

    withWarnings(warnings, () -> {
      for (int i = 1; i <= 12; i++) {
        assertAnswered(send(client, "r" + i));
      }
    });

    assertFalse(client.reusesConnections());
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).startsWith("the server closed the last 4 connections right after "
        + "their response"), warnings.get(0));
    // Each request reached the server once, on a connection of its own: a stale attempt (one
    // of a few, before the reuse stopped) was written into a closed connection, unread.
    assertEquals(12, server.received().size(), trace(server).toString());
    assertTrue(server.received().stream().allMatch(r -> r.onConnection() == 1),
        trace(server).toString());
    assertTrue(resent.get() <= ReuseWatch.CLOSES_IN_A_ROW, "retries " + resent.get());
  }

  @Test
  void connectionsTheServerClosedWhileTheyWaitedInThePoolCountToo() throws Exception {
    // Closed 20 ms after the response, found closed by the next request 200 ms later: no
    // request written into a closed connection, but the same habit.
    ScriptedHttpServer server = server((onConnection, overall) ->
        Action.answerAndClose(NO_HEADERS, 20));
    LlmClient client = client(server);

    for (int i = 1; i <= ReuseWatch.CLOSES_IN_A_ROW + 1; i++) {
      assertTrue(client.reusesConnections(), "before request " + i);
      assertAnswered(send(client, "r" + i));
      Thread.sleep(200);
      await("the client saw the close", () -> openPooled(client) == 0);
    }

    assertFalse(client.reusesConnections());
    assertEquals(0, resent.get());
  }

  @Test
  void aServerThatKeepsConnectionsIsNotMistakenForOneThatCloses() throws Exception {
    // Three in four connections closed right after the response, the fourth kept for more:
    // never four closes in a row, so connections stay reused.
    ScriptedHttpServer server = server((onConnection, overall) ->
        overall % 4 == 0 ? Action.answer(NO_HEADERS) : Action.answerAndClose(NO_HEADERS));
    LlmClient client = client(server);

    for (int i = 1; i <= 16; i++) {
      assertAnswered(send(client, "r" + i));
    }

    assertTrue(client.reusesConnections());
  }

  @Test
  void aServerRestartClosingEveryConnectionAtOnceIsNotTakenForTheHabit() throws Exception {
    ScriptedHttpServer server = server((onConnection, overall) -> Action.answer(NO_HEADERS));
    LlmClient client = client(server);
    sendTogether(client, 4); // four connections
    sendTogether(client, 4); // each serves a second response
    assertEquals(4, server.connections());

    server.closeConnections();
    await("the restart closed all four", () -> server.closedConnections() == 4);
    // The server's side of each close is done; the client learns of it when its loop reads
    // the end of the stream: until then a request could still be written into one.
    await("the client saw the four closes", () -> openPooled(client) == 0);
    for (int i = 1; i <= 4; i++) {
      assertAnswered(send(client, "after" + i));
    }

    assertTrue(client.reusesConnections());
    assertEquals(5, server.connections(), "one new connection, reused after the restart");
    assertEquals(0, resent.get());
  }

  private int openPooled(LlmClient client) {
    try {
      return client.openPooledConnections(loop);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Sends {@code n} requests from the loop at once, so each needs a connection of its own. */
  private void sendTogether(LlmClient client, int n) throws Exception {
    List<CompletableFuture<RequestRecord>> all = new ArrayList<>();
    loop.submit(() -> {
      for (int i = 0; i < n; i++) {
        CompletableFuture<RequestRecord> done = new CompletableFuture<>();
        all.add(done);
        client.send(loop, new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
            "{\"prompt\":\"p\",\"stream\":true}".getBytes(StandardCharsets.UTF_8), 1,
            LlmRequest.NOT_SCHEDULED), done::complete);
      }
    }).get(10, TimeUnit.SECONDS);
    for (CompletableFuture<RequestRecord> done : all) {
      assertAnswered(done.get(20, TimeUnit.SECONDS));
    }
  }

  /**
   * The simulator really closes a connection after its N-th response (max=N) or after every
   * one (Connection: close): a client that honours the headers never writes into a closed
   * connection, so nothing is sent again.
   */
  @Test
  void theSimulatorsAnnouncedClosesAreHonouredSoNothingIsSentAgain() throws Exception {
    for (SimulatorConfig.Builder config : List.of(SimulatorConfig.builder().keepAliveMax(2),
        SimulatorConfig.builder()
            .connectionPolicy(SimulatorConfig.ConnectionPolicy.CONNECTION_CLOSE))) {
      resent.set(0);
      try (Simulator sim = Simulator.start(
          config.ttft(Duration.ofMillis(1)).itl(Duration.ofMillis(1)).build())) {
        LlmClient client = client(sim.baseUrl());
        for (int i = 1; i <= 6; i++) {
          RequestRecord r = send(client, "r" + i);
          assertTrue(r.success(), r.error());
          assertEquals(SimTokens.text(16), r.generatedText());
        }
        boolean max2 = sim.config().keepAliveMax() == 2;
        assertEquals(max2 ? 3 : 6, sim.connectionsAccepted(), sim.config().toString());
        assertEquals(0, resent.get(), sim.config().toString());
        assertEquals(6, sim.requestsReceived());
        assertTrue(client.reusesConnections(), "announced closes are not the server's habit");
      }
    }
  }

  /** Each request as {@code connection/number-on-it request-id}. */
  private static List<String> trace(ScriptedHttpServer server) {
    return server.received().stream()
        .map(r -> r.connection() + "/" + r.onConnection() + " " + r.requestId()).toList();
  }

  /** Runs {@code body}, collecting the client's WARN lines into {@code warnings}. */
  private static void withWarnings(List<String> warnings, ThrowingRunnable body)
      throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(LlmClient.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      body.run();
    } finally {
      logger.detachAppender(appender);
    }
    appender.list.stream().filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage).forEach(warnings::add);
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  /** Polls {@code condition} every 10 ms for at most 10 s. */
  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(10);
    }
  }
}
