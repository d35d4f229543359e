package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import javax.net.ssl.KeyManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fault matrix of the reliability issue, at the client: each cell is a server that
 * misbehaves in one way, over a real socket, and what the request becomes (success with the
 * right tokens, or a failure whose message names the problem).
 */
class FaultMatrixTest {

  private static final String EVENTS = "data: {\"choices\":[{\"text\":\"Hel\"}]}\n\n"
      + "data: {\"choices\":[{\"text\":\"lo\"}],\"usage\":{\"prompt_tokens\":4,"
      + "\"completion_tokens\":2}}\n\n"
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

  private static LlmClient client(String baseUrl, boolean insecureTls) {
    return new LlmClient(NioSocketChannel::new, new ClientConfig(Target.parse(baseUrl),
        Duration.ofSeconds(2), Duration.ZERO, Duration.ofSeconds(3), Duration.ofSeconds(10),
        Duration.ofSeconds(4), insecureTls));
  }

  private RequestRecord send(LlmClient client) throws Exception {
    LlmRequest request = new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
        "{\"prompt\":\"hi\"}".getBytes(StandardCharsets.UTF_8), 4, LlmRequest.NOT_SCHEDULED);
    CompletableFuture<RequestRecord> done = new CompletableFuture<>();
    loop.execute(() -> client.send(loop, request, done::complete));
    return done.get(15, TimeUnit.SECONDS);
  }

  private RequestRecord against(CannedHttpServer server) throws Exception {
    try (server; LlmClient client = client(server.baseUrl(), false)) {
      return send(client);
    }
  }

  private static void assertHello(RequestRecord r) {
    assertTrue(r.success(), r.error());
    assertEquals("Hello", r.generatedText());
    assertEquals(2, r.outputTokens());
    assertEquals(2, r.chunkMicros().length);
  }

  @Test
  void http10WithTheBodyEndingAtTheClose() throws Exception {
    assertHello(against(CannedHttpServer.raw("HTTP/1.0 200 OK\r\n"
        + "content-type: text/event-stream\r\n\r\n" + EVENTS, true)));
  }

  @Test
  void contentLengthInsteadOfChunked() throws Exception {
    int length = EVENTS.getBytes(StandardCharsets.UTF_8).length;
    assertHello(against(CannedHttpServer.raw("HTTP/1.1 200 OK\r\n"
        + "content-type: text/event-stream\r\ncontent-length: " + length + "\r\n\r\n" + EVENTS,
        false)));
  }

  @Test
  void connectionCloseAfterEachResponseIsNotReused() throws Exception {
    int length = EVENTS.getBytes(StandardCharsets.UTF_8).length;
    try (CannedHttpServer server = CannedHttpServer.raw("HTTP/1.1 200 OK\r\n"
        + "content-type: text/event-stream\r\nconnection: close\r\ncontent-length: " + length
        + "\r\n\r\n" + EVENTS, true);
         LlmClient client = client(server.baseUrl(), false)) {
      assertHello(send(client));
      assertHello(send(client));
      assertEquals(2, server.connections(), "a closed connection is not reused");
    }
  }

  @Test
  void aStreamWithoutDoneEndsWithTheBody() throws Exception {
    String noDone = EVENTS.replace("data: [DONE]\n\n", "");
    assertHello(against(CannedHttpServer.raw("HTTP/1.1 200 OK\r\n"
        + "content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
        + Integer.toHexString(noDone.length()) + "\r\n" + noDone + "\r\n0\r\n\r\n", false)));
  }

  @Test
  void aGzipEncodedStreamIsDecoded() throws Exception {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
      gz.write(EVENTS.getBytes(StandardCharsets.UTF_8));
    }
    assertHello(against(CannedHttpServer.rawBytes(encodedStream("gzip", zipped), false)));
  }

  @Test
  void aDeflateEncodedStreamIsDecodedToo() throws Exception {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (DeflaterOutputStream z = new DeflaterOutputStream(zipped)) {
      z.write(EVENTS.getBytes(StandardCharsets.UTF_8));
    }
    assertHello(against(CannedHttpServer.rawBytes(encodedStream("deflate", zipped), false)));
  }

  @Test
  void aGzipEventThatInflatesToMegabytesFromOneReadIsDecoded() throws Exception {
    // 2 MB of text gzip to a few kilobytes, one read: Netty's decoder, bounded to 64 KiB of
    // output, failed this with "Decompression buffer has reached maximum size".
    String big = "x".repeat(2 * 1024 * 1024);
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
      gz.write(("data: {\"choices\":[{\"text\":\"" + big + "\"}]}\n\n" + EVENTS)
          .getBytes(StandardCharsets.UTF_8));
    }
    RequestRecord r = against(CannedHttpServer.rawBytes(encodedStream("gzip", zipped), false));
    assertTrue(r.success(), r.error());
    assertEquals(big + "Hello", r.generatedText());
    assertEquals(3, r.chunkMicros().length);
  }

  /** An event-stream response whose body is {@code body}, sent with that content-encoding. */
  private static byte[] encodedStream(String encoding, ByteArrayOutputStream body) {
    byte[] head = ("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
        + "content-encoding: " + encoding + "\r\ncontent-length: " + body.size() + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
    byte[] all = Arrays.copyOf(head, head.length + body.size());
    System.arraycopy(body.toByteArray(), 0, all, head.length, body.size());
    return all;
  }

  @Test
  void aGzipStreamCutMidWayFailsAndEnds() throws Exception {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
      gz.write(EVENTS.getBytes(StandardCharsets.UTF_8));
    }
    int sent = zipped.size() - 6; // no gzip trailer, no last chunk: the server died mid-stream
    byte[] head = ("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
        + "content-encoding: gzip\r\ntransfer-encoding: chunked\r\n\r\n"
        + Integer.toHexString(sent) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] all = Arrays.copyOf(head, head.length + sent);
    System.arraycopy(zipped.toByteArray(), 0, all, head.length, sent);
    RequestRecord r = against(CannedHttpServer.rawBytes(all, true));
    assertFalse(r.success(), "a cut stream is not a success");
    assertEquals("connection closed mid-stream", r.error());
  }

  @Test
  void aBodyThatIsNotGzipFailsAndEnds() throws Exception {
    RequestRecord r = against(CannedHttpServer.raw("HTTP/1.1 200 OK\r\n"
        + "content-type: text/event-stream\r\ncontent-encoding: gzip\r\n\r\n"
        + "data: {\"choices\":[{\"text\":\"a\"}]}\n\n", true));
    assertFalse(r.success());
    assertTrue(r.error().startsWith("malformed compressed body: "), r.error());
  }

  @Test
  void anEncodingTheClientCannotReadFailsAndNamesIt() throws Exception {
    RequestRecord r = against(CannedHttpServer.raw("HTTP/1.1 200 OK\r\n"
        + "content-type: text/event-stream\r\ncontent-encoding: br\r\n\r\nxx", true));
    assertFalse(r.success());
    assertEquals("unsupported content-encoding: br", r.error());
  }

  @Test
  void invalidUtf8InTheTextFailsTheRequestAsMalformed() throws Exception {
    byte[] head = ("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
    byte[] event = "data: {\"choices\":[{\"text\":\"\u00ff\u00fe\"}]}\n\n"
        .getBytes(StandardCharsets.ISO_8859_1); // 0xFF 0xFE: never valid UTF-8
    byte[] all = new byte[head.length + event.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(event, 0, all, head.length, event.length);
    RequestRecord r = against(CannedHttpServer.rawBytes(all, true));
    assertFalse(r.success());
    assertTrue(r.error().startsWith("malformed JSON chunk: "), r.error());
    assertTrue(r.error().toLowerCase().contains("utf-8"), r.error());
  }

  @Test
  void oneTenMegabyteEventIsReadWhole() throws Exception {
    String big = "x".repeat(10 * 1024 * 1024);
    String events = "data: {\"choices\":[{\"text\":\"" + big + "\"}]}\n\ndata: [DONE]\n\n";
    RequestRecord r = against(CannedHttpServer.raw("HTTP/1.1 200 OK\r\n"
        + "content-type: text/event-stream\r\n\r\n" + events, true));
    assertTrue(r.success(), r.error());
    assertEquals(big.length(), r.generatedText().length());
  }

  @Test
  void aTwoHundredWithAnHtmlPageFailsAndSaysWhatCame() throws Exception {
    RequestRecord r = against(CannedHttpServer.raw("HTTP/1.1 200 OK\r\n"
        + "content-type: text/html\r\ncontent-length: 24\r\n\r\n<html>maintenance</html>",
        false));
    assertFalse(r.success());
    assertTrue(r.error().contains("text/html"), r.error());
  }

  @Test
  void aRedirectIsNotFollowedAndNamesWhereItPoints() throws Exception {
    RequestRecord r = against(CannedHttpServer.raw("HTTP/1.1 307 Temporary Redirect\r\n"
        + "location: http://127.0.0.1:1/v1/completions\r\ncontent-length: 0\r\n\r\n", false));
    assertFalse(r.success());
    assertTrue(r.error().startsWith("HTTP 307"), r.error());
    assertTrue(r.error().contains("http://127.0.0.1:1/v1/completions"), r.error());
  }

  @Test
  void aSelfSignedCertificateIsRefusedByDefaultAndAcceptedWhenAskedFor() throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = getClass().getResourceAsStream("/tls/self-signed.p12")) {
      store.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, "changeit".toCharArray());
    SslContext tls = SslContextBuilder.forServer(keys).build();
    try (CannedHttpServer server = CannedHttpServer.streamingOverTls(EVENTS, tls)) {
      String url = "https://127.0.0.1:" + server.port();
      try (LlmClient strict = client(url, false)) {
        RequestRecord refused = send(strict);
        assertFalse(refused.success());
        // one plain sentence that names the flag: not the engine's "General OpenSslEngine
        // problem", nor only the DSL's llm().insecureTls()
        assertEquals("TLS handshake failed: the server's certificate is not trusted "
            + "(self-signed?): --insecure (llm().insecureTls() in a simulation) accepts it",
            refused.error());
      }
      try (LlmClient trusting = client(url, true)) {
        assertHello(send(trusting));
      }
    }
  }

  @Test
  void aServerRestartFailsNothingItDidNotHaveToAndLaterRequestsUseNewConnections()
      throws Exception {
    SimulatorConfig.Builder config = SimulatorConfig.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1));
    Simulator first = Simulator.start(config.build());
    int port = first.port();
    try (LlmClient client = client("http://127.0.0.1:" + port, false)) {
      RequestRecord before = send(client);
      assertTrue(before.success(), before.error());
      first.close(); // the kept-alive connection dies with the server
      RequestRecord down = send(client);
      assertFalse(down.success());
      // Refused, or (had the pooled connection's close not been read yet) cut: a reason.
      assertTrue(down.error().startsWith("connect failed: connection refused")
          || down.error().startsWith("connection closed before"), down.error());
      try (Simulator second = Simulator.start(config.port(port).build())) {
        RequestRecord after = send(client);
        assertTrue(after.success(), "a new connection to the restarted server: " + after.error());
        assertEquals(1, second.requestsReceived());
      }
    }
  }
}
