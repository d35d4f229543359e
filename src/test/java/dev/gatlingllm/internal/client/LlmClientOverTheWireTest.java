package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import io.gatling.netty.util.Transports;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client against a real loopback socket: what it writes, when it reuses a connection, and
 * how it reports connections that cannot be made. The response path itself is covered byte by
 * byte in {@link ExchangeTest}.
 */
class LlmClientOverTheWireTest {

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

  private static ClientConfig config(String baseUrl, Duration keepAlive) {
    return new ClientConfig(Target.parse(baseUrl), Duration.ofSeconds(2), Duration.ZERO,
        Duration.ofSeconds(5), Duration.ofSeconds(10), keepAlive);
  }

  private static LlmClient client(String baseUrl, Duration keepAlive) {
    return new LlmClient(NioSocketChannel::new, config(baseUrl, keepAlive));
  }

  private static LlmRequest request(String path, HttpHeaders headers, String body) {
    return new LlmRequest("gen", path, headers, body.getBytes(StandardCharsets.UTF_8), 4,
        LlmRequest.NOT_SCHEDULED);
  }

  private static LlmRequest request() {
    return request("/v1/completions", new DefaultHttpHeaders(), "{\"prompt\":\"hi\"}");
  }

  /** Sends from the loop, as an action does, and waits for the record. */
  private RequestRecord send(LlmClient client, LlmRequest request) throws Exception {
    CompletableFuture<RequestRecord> done = new CompletableFuture<>();
    loop.execute(() -> client.send(loop, request, done::complete));
    return done.get(10, TimeUnit.SECONDS);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void writesOnePostWithTheBodyTheTargetAndTheCallersHeaders() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         LlmClient client = client(server.baseUrl() + "/proxy/", Duration.ofSeconds(4))) {
      HttpHeaders headers = new DefaultHttpHeaders().add("x-request-id", "benchmark-serving0");
      RequestRecord r = send(client, request("v1/completions", headers, "{\"prompt\":\"héllo\"}"));

      assertTrue(r.success(), r.error());
      assertEquals("Hello", r.generatedText());
      assertEquals(2, r.outputTokens());
      assertEquals(4, r.usagePromptTokens());
      CannedHttpServer.Received got = server.received().get(0);
      assertEquals("POST", got.method());
      // The base URL's prefix (trailing slash dropped) goes in front of the endpoint.
      assertEquals("/proxy/v1/completions", got.uri());
      assertEquals("{\"prompt\":\"héllo\"}", got.body());
      assertEquals("127.0.0.1:" + server.port(), got.headers().get("host"));
      assertEquals("application/json", got.headers().get("content-type"));
      // Bytes, not characters: é is two bytes in UTF-8.
      assertEquals("19", got.headers().get("content-length"));
      assertEquals("application/json, text/event-stream", got.headers().get("accept"));
      assertEquals("benchmark-serving0", got.headers().get("x-request-id"));
    }
  }

  @Test
  void aFinishedKeptAliveConnectionCarriesTheNextRequest() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         LlmClient client = client(server.baseUrl(), Duration.ofSeconds(4))) {
      assertTrue(send(client, request()).success());
      assertTrue(send(client, request()).success());
      assertTrue(send(client, request()).success());
      assertEquals(1, server.connections(), "three requests in a row share one connection");
      assertEquals(3, server.received().size());
      assertEquals(1, server.received().get(2).connection());
    }
  }

  /**
   * Past Netty's server pipeline depth: since Netty 4.2.18 (Gatling 3.16's) its
   * HttpServerCodec stops reading a connection once 128 requests wait for a response it did
   * not encode itself, which every canned response is. The test servers once stopped
   * answering the 129th request on a kept-alive connection, and a run's warm-up, which sends
   * hundreds, then waited out the request timeout. Both kinds of body the client reads are
   * sent: a chunked event stream (read by ChunkedBody) and one with a content-length (read by
   * Netty's response decoder).
   */
  @Test
  void oneKeptAliveConnectionCarriesMoreRequestsThanNettysPipelineDepth() throws Exception {
    String sized = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: "
        + SSE.length() + "\r\n\r\n" + SSE;
    for (CannedHttpServer server : new CannedHttpServer[] {
        CannedHttpServer.streaming(SSE), CannedHttpServer.raw(sized, false)}) {
      try (server; LlmClient client = client(server.baseUrl(), Duration.ofSeconds(4))) {
        int requests = 200;
        for (int i = 1; i <= requests; i++) {
          RequestRecord r = send(client, request());
          assertTrue(r.success(), "request " + i + ": " + r.error());
          assertEquals("Hello", r.generatedText(), "request " + i);
        }
        assertEquals(1, server.connections(), "every request on the first connection");
        assertEquals(requests, server.received().size());
      }
    }
  }

  @Test
  void aConnectionIdleLongerThanTheKeepAliveTimeoutIsClosedNotReused() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         LlmClient client = client(server.baseUrl(), Duration.ofMillis(150))) {
      assertTrue(send(client, request()).success());
      TimeUnit.MILLISECONDS.sleep(300);
      assertTrue(send(client, request()).success());
      assertEquals(2, server.connections());
      assertEquals(2, server.received().get(1).connection());
      // The stale one was closed by the client when it was passed over.
      waitFor(() -> server.closedConnections() == 1, "the stale connection is closed");
    }
  }

  @Test
  void keepAliveCountsFromTheEndOfTheLastRequestNotFromTheConnect() throws Exception {
    // The first request lasts ~800 ms, longer than the 500 ms keep-alive timeout; the second
    // one follows at once, so the connection has been idle for almost nothing and is reused.
    String first = "data: {\"choices\":[{\"index\":0,\"text\":\"a\"}]}\n\n";
    String rest = "data: {\"choices\":[{\"index\":0,\"text\":\"b\"}]}\n\ndata: [DONE]\n\n";
    try (CannedHttpServer server = CannedHttpServer.streamingWithPause(first, 800, rest);
         LlmClient client = client(server.baseUrl(), Duration.ofMillis(500))) {
      assertEquals("ab", send(client, request()).generatedText());
      assertEquals("ab", send(client, request()).generatedText());
      assertEquals(1, server.connections());
    }
  }

  @Test
  void aConnectionTheServerClosesIsNotReused() throws Exception {
    String body = "{\"choices\":[{\"index\":0,\"text\":\"ok\"}]}";
    String response = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n"
        + "content-length: " + body.length() + "\r\n\r\n" + body;
    try (CannedHttpServer server = CannedHttpServer.raw(response, true);
         LlmClient client = client(server.baseUrl(), Duration.ofSeconds(4))) {
      RequestRecord first = send(client, request());
      assertTrue(first.success(), first.error());
      assertEquals("ok", first.generatedText());
      RequestRecord second = send(client, request());
      assertTrue(second.success(), second.error());
      assertEquals(2, server.connections());
    }
  }

  @Test
  void closingTheClientClosesItsIdleConnections() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE)) {
      LlmClient client = client(server.baseUrl(), Duration.ofSeconds(4));
      assertTrue(send(client, request()).success());
      assertEquals(0, server.closedConnections());
      client.close();
      waitFor(() -> server.closedConnections() == 1, "close() closes the idle connection");
    }
  }

  @Test
  void aClosedClientFailsRequestsLaterOnTheCallersLoop() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE)) {
      LlmClient client = client(server.baseUrl(), Duration.ofSeconds(4));
      client.close();
      CompletableFuture<RequestRecord> done = new CompletableFuture<>();
      AtomicReference<Thread> completedOn = new AtomicReference<>();
      AtomicReference<Boolean> completedInsideSend = new AtomicReference<>();
      loop.execute(() -> {
        boolean[] inside = {true};
        client.send(loop, request(), r -> {
          completedOn.set(Thread.currentThread());
          completedInsideSend.set(inside[0]);
          done.complete(r);
        });
        inside[0] = false;
      });
      RequestRecord r = done.get(5, TimeUnit.SECONDS);
      assertFalse(r.success());
      assertEquals("client closed", r.error());
      assertFalse(completedInsideSend.get(), "never completes inside the caller's stack");
      assertTrue(loop.inEventLoop(completedOn.get()));
      assertEquals(0, server.connections());
    }
  }

  @Test
  void aSendFromAnotherThreadHopsOntoTheLoop() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         LlmClient client = client(server.baseUrl(), Duration.ofSeconds(4))) {
      CompletableFuture<Thread> completedOn = new CompletableFuture<>();
      client.send(loop, request(), r -> completedOn.complete(Thread.currentThread()));
      assertTrue(loop.inEventLoop(completedOn.get(10, TimeUnit.SECONDS)));
      assertEquals(1, server.received().size());
    }
  }

  @Test
  void aRefusedConnectionIsNamedAsSuch() throws Exception {
    try (LlmClient client = client("http://127.0.0.1:" + freePort(), Duration.ofSeconds(4))) {
      RequestRecord r = send(client, request());
      assertFalse(r.success());
      assertEquals("connect failed: connection refused", r.error());
      assertEquals(0, r.httpStatus());
      assertEquals(-1, r.ttftNanos());
    }
  }

  @Test
  void anHttpsTargetSpeaksTlsEvenToAPlainServer() throws Exception {
    // A plain HTTP server cannot answer a TLS handshake: the request must fail, whereas a
    // client that forgot TLS would get the canned answer in clear text.
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         LlmClient client = client("https://127.0.0.1:" + server.port(), Duration.ofSeconds(4))) {
      RequestRecord r = send(client, request());
      assertFalse(r.success(), "a cleartext exchange with an https target");
      // What the server decoded, if anything, was handshake bytes, never the POST.
      assertTrue(server.received().stream().noneMatch(got -> got.method().equals("POST")),
          server.received().toString());
    }
  }

  @Test
  void theClientKeepsItsConfig() {
    ClientConfig config = config("http://127.0.0.1:1", Duration.ofSeconds(4));
    try (LlmClient client = new LlmClient(NioSocketChannel::new, config)) {
      assertSame(config, client.config());
    }
  }

  @Test
  void warmUpConnectReportsReachableAndRefusedServers() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         LlmClient up = new LlmClient(Transports.newSocketChannelFactory(false, false),
             new ClientConfig(Target.parse(server.baseUrl()), Duration.ofSeconds(1),
                 Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(4)));
         LlmClient down = client("http://127.0.0.1:" + freePort(), Duration.ofSeconds(4))) {
      // A 1 s connect timeout: the probe waits that long plus a second before giving up.
      assertNull(WarmUp.connect(up, loop));
      waitFor(() -> server.connections() == 1 && server.closedConnections() == 1,
          "the probe connection is opened and closed again");
      assertEquals("connect failed: connection refused", WarmUp.connect(down, loop));
    }
  }

  @Test
  void connectFailuresGetShortStableMessages() {
    // Each distinct message is a row in Gatling's errors table: keep the kinds few.
    assertEquals("connect failed: connection refused",
        Connector.connectError(new java.net.ConnectException("Connection refused: /127.0.0.1:9")));
    assertEquals("connect failed: timeout", Connector.connectError(
        new io.netty.channel.ConnectTimeoutException("connection timed out after 10000 ms")));
    assertEquals("connect failed: UnknownHostException: nowhere.invalid",
        Connector.connectError(new java.net.UnknownHostException("nowhere.invalid")));
    assertEquals("connect failed: IOException", Connector.connectError(new IOException()));
    assertEquals("connect failed: unknown", Connector.connectError(null));
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
