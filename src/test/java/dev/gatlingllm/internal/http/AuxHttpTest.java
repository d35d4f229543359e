package dev.gatlingllm.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import dev.gatlingllm.testing.SelfSignedHttps;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuxHttpTest {

  static final String SECRET = "sk-verySecretValue42";

  /** What one request brought: method, path, body and two of its headers. */
  record Seen(String method, String path, String body, String authorization, String apiKey) {}

  final List<Seen> seen = new CopyOnWriteArrayList<>();
  HttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  URI serve(String path, HttpHandler handler) throws IOException {
    if (server == null) {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.start();
    }
    server.createContext(path, exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
          new String(body, StandardCharsets.UTF_8),
          exchange.getRequestHeaders().getFirst("Authorization"),
          exchange.getRequestHeaders().getFirst("X-Api-Key")));
      handler.handle(exchange);
    });
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  static HttpHandler answer(int status, String body, Map<String, String> headers) {
    return exchange -> {
      headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    };
  }

  @Test
  void aGetSendsTheHeadersAndReadsStatusHeadersAndBody() throws Exception {
    URI base = serve("/v1/models", answer(200, "{\"data\":[]}", Map.of("X-Served-By", "sim")));
    AuxHttp.Response r = AuxHttp.get(base.resolve("/v1/models"))
        .headers(Map.of("Authorization", "Bearer " + SECRET)).send();
    assertEquals(200, r.status());
    assertTrue(r.ok());
    assertEquals("{\"data\":[]}", r.text());
    assertEquals("sim", r.header("x-served-by").orElseThrow(), "header names ignore case");
    assertFalse(r.truncated());
    assertEquals("Bearer " + SECRET, seen.get(0).authorization());
    assertEquals("GET", seen.get(0).method());
  }

  @Test
  void anErrorStatusNamesTheUrlWithoutItsQueryAndNeverAHeaderValue() throws Exception {
    URI base = serve("/metrics", answer(503, "overloaded", Map.of()));
    AuxHttp call = AuxHttp.get(URI.create(base + "/metrics?token=" + SECRET))
        .header("Authorization", "Bearer " + SECRET).header("X-Api-Key", SECRET);
    AuxHttp.Response r = call.send();
    assertEquals(503, r.status());
    assertEquals("overloaded", r.text(), "the error body is read too");
    AuxHttpException e = assertThrows(AuxHttpException.class, r::requireOk);
    assertEquals("GET " + base + "/metrics answered HTTP 503", e.getMessage());
    assertEquals(503, e.status());
    assertEquals(base + "/metrics", e.url());
    assertFalse(call.toString().contains(SECRET), call.toString());
    assertTrue(call.toString().contains("Authorization"), "names are shown: " + call);
    assertFalse(r.toString().contains(SECRET), r.toString());
  }

  @Test
  void aSilentServerFailsAfterTheTimeoutNamingTheUrl() throws Exception {
    URI base = serve("/slow", exchange -> {
      try {
        Thread.sleep(3_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      answer(200, "late", Map.of()).handle(exchange);
    });
    long start = System.nanoTime();
    AuxHttpException e = assertThrows(AuxHttpException.class,
        () -> AuxHttp.get(URI.create(base + "/slow?key=" + SECRET))
            .header("Authorization", SECRET).timeout(Duration.ofMillis(300)).send());
    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(tookMs >= 250 && tookMs < 2_500, "took " + tookMs + " ms");
    assertTrue(e.getMessage().startsWith("GET " + base + "/slow failed: no answer within 300 ms"),
        e.getMessage());
    assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    assertEquals(-1, e.status());
  }

  @Test
  void aRefusedConnectionNamesMethodAndUrl() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    URI closed = URI.create("http://127.0.0.1:" + port + "/reset_prefix_cache");
    AuxHttpException e = assertThrows(AuxHttpException.class,
        () -> AuxHttp.post(closed, new byte[0], "application/json").send());
    assertTrue(e.getMessage().startsWith("POST " + closed + " failed: java.net.ConnectException"),
        e.getMessage());
  }

  @Test
  void theBodyIsCutAtTheLimitAndSaysSo() throws Exception {
    String thousand = "x".repeat(1_000);
    URI base = serve("/big", answer(200, thousand, Map.of()));
    AuxHttp.Response cut = AuxHttp.get(base.resolve("/big")).maxBody(100).send();
    assertEquals(100, cut.body().length);
    assertTrue(cut.truncated());
    AuxHttp.Response exact = AuxHttp.get(base.resolve("/big")).maxBody(1_000).send();
    assertEquals(thousand, exact.text());
    assertFalse(exact.truncated(), "a body exactly at the limit is whole");
  }

  @Test
  void credentialsFollowARedirectOnlyWithinTheOrigin() throws Exception {
    URI base = serve("/final", answer(200, "done", Map.of()));
    int port = server.getAddress().getPort();
    serve("/same", answer(302, "", Map.of("Location", "/final")));
    serve("/other", answer(307, "", Map.of("Location", "http://localhost:" + port + "/final")));
    Map<String, String> creds = Map.of("Authorization", "Bearer " + SECRET, "X-Api-Key", SECRET);

    assertEquals("done", AuxHttp.get(base.resolve("/same")).headers(creds).send().text());
    assertEquals("Bearer " + SECRET, seen.get(1).authorization(), "same origin keeps it");
    assertEquals(SECRET, seen.get(1).apiKey());

    seen.clear();
    assertEquals("done", AuxHttp.get(base.resolve("/other")).headers(creds).send().text());
    assertEquals("/final", seen.get(1).path());
    assertNull(seen.get(1).authorization(), "another host gets no token");
    assertNull(seen.get(1).apiKey());

    seen.clear();
    AuxHttp.Response notFollowed =
        AuxHttp.get(base.resolve("/same")).followRedirects(false).send();
    assertEquals(302, notFollowed.status());
    assertEquals("/final", notFollowed.header("Location").orElseThrow());
    assertEquals(1, seen.size());
  }

  @Test
  void endlessOrNonHttpRedirectsStopWithAMessage() throws Exception {
    URI base = serve("/loop", answer(302, "", Map.of("Location", "/loop")));
    AuxHttpException e = assertThrows(AuxHttpException.class,
        () -> AuxHttp.get(base.resolve("/loop")).send());
    assertEquals("GET " + base + "/loop failed: more than 10 redirects", e.getMessage());
    assertEquals(11, seen.size(), "the first request and ten redirects");

    serve("/ftp", answer(302, "", Map.of("Location", "ftp://files.example/x")));
    AuxHttpException ftp = assertThrows(AuxHttpException.class,
        () -> AuxHttp.get(base.resolve("/ftp")).send());
    assertEquals("GET " + base + "/ftp redirects to a location that is not an http(s) URL",
        ftp.getMessage());
  }

  @Test
  void aPostSendsItsBodyAndA303GoesOnAsAGet() throws Exception {
    URI base = serve("/start_profile", answer(303, "", Map.of("Location", "/done")));
    serve("/done", answer(200, "ok", Map.of()));
    AuxHttp.Response r = AuxHttp.post(base.resolve("/start_profile"),
        "{\"prompt\":\"hi\"}".getBytes(StandardCharsets.UTF_8), "application/json").send();
    assertEquals("ok", r.text());
    assertEquals(new Seen("POST", "/start_profile", "{\"prompt\":\"hi\"}", null, null),
        seen.get(0));
    assertEquals(new Seen("GET", "/done", "", null, null), seen.get(1));
  }

  @Test
  void aDownloadWritesTheWholeBodyPastTheLimit(@TempDir Path dir) throws Exception {
    String body = "0123456789".repeat(50);
    URI base = serve("/file", answer(200, body, Map.of()));
    serve("/missing", answer(404, "Entry not found", Map.of()));
    Path target = dir.resolve("sub/file.bin");
    AuxHttp.Response r = AuxHttp.get(base.resolve("/file")).maxBody(10).download(target);
    assertEquals(200, r.status());
    assertEquals(body, Files.readString(target));

    Path never = dir.resolve("never.bin");
    AuxHttp.Response missing = AuxHttp.get(base.resolve("/missing")).download(never);
    assertEquals(404, missing.status());
    assertEquals("Entry not found", missing.text());
    assertFalse(Files.exists(never));
  }

  @Test
  void aHeaderValueWithALineBreakIsRefusedWithoutShowingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> AuxHttp.get(URI.create("http://127.0.0.1:1/")).header("Authorization",
            SECRET + "\r\nX-Injected: 1"));
    assertEquals("The value of header Authorization contains a line break", e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> AuxHttp.get(URI.create("file:///etc/passwd")));
  }

  @Test
  void aSelfSignedServerIsReachedOnlyWithInsecureTls() throws Exception {
    HttpsServer https = SelfSignedHttps.start("/health", answer(200, "up", Map.of()));
    try {
      // "localhost" also differs from whatever name the certificate was made for
      URI health = URI.create("https://localhost:" + https.getAddress().getPort() + "/health");
      AuxHttpException refused = assertThrows(AuxHttpException.class,
          () -> AuxHttp.get(health).send());
      // one sentence, not "javax.net.ssl.SSLHandshakeException: PKIX path building failed:
      // sun.security.provider.certpath..."
      assertEquals("GET " + health + " failed: the server's certificate is not trusted "
          + "(self-signed?)", refused.getMessage());
      assertTrue(AuxHttpException.untrustedCertificate(refused));
      assertEquals("up", AuxHttp.get(health).insecureTls(true).send().text());
    } finally {
      https.stop(0);
    }
  }

}
