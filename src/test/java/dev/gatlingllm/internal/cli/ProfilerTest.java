package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import dev.gatlingllm.internal.action.RequestPreview;
import dev.gatlingllm.testing.SelfSignedHttps;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code --profile}'s two calls: what they send, and what a refusing server makes of them. */
class ProfilerTest {

  static final String KEY = "sk-profilerSecret9";
  static final RequestPreview.Rendered TEST = new RequestPreview.Rendered("/v1/completions",
      "{\"prompt\":\"hi\"}".getBytes(StandardCharsets.UTF_8), "application/json", false);

  final List<String> seen = new CopyOnWriteArrayList<>();
  final ByteArrayOutputStream console = new ByteArrayOutputStream();
  HttpServer server;
  String baseUrl;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " "
          + exchange.getRequestHeaders().getFirst("Content-Type") + " "
          + exchange.getRequestHeaders().getFirst("Authorization") + " "
          + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      int status = exchange.getRequestURI().getPath().equals("/start_profile") ? 200 : 404;
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
    });
    server.start();
    baseUrl = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  Profiler profiler(String url) {
    return new Profiler(url, Map.of("Authorization", "Bearer " + KEY), TEST,
        new PrintStream(console, true, StandardCharsets.UTF_8), false);
  }

  @Test
  void theTestRequestIsPostedWithTheRunsHeadersAndARefusalIsReported() {
    Profiler profiler = profiler(baseUrl);
    profiler.start();
    profiler.stop();
    assertEquals(List.of(
        "POST /start_profile application/json Bearer " + KEY + " {\"prompt\":\"hi\"}",
        "POST /stop_profile application/json Bearer " + KEY + " {\"prompt\":\"hi\"}"), seen);
    String out = console.toString(StandardCharsets.UTF_8);
    assertEquals("Starting profiler...\nProfiler started\nStopping profiler...\n"
        + "Profiler call /stop_profile failed: HTTP 404 (was the server started with "
        + "VLLM_TORCH_PROFILER_DIR?)\n", out.replace(System.lineSeparator(), "\n"));
  }

  @Test
  void anUnreachableServerIsReportedWithoutTheKeyAndTheRunGoesOn() {
    server.stop(0);
    profiler(baseUrl).start();
    String out = console.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("Profiler call failed: POST " + baseUrl + "/start_profile failed: "),
        out);
    assertFalse(out.contains(KEY), out);
    assertFalse(out.contains("Profiler started"), out);
  }

  @Test
  void insecureReachesASelfSignedServerAndOnlyThen() throws Exception {
    HttpsServer https = SelfSignedHttps.start("/start_profile", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    try {
      String url = "https://localhost:" + https.getAddress().getPort();
      PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
      new Profiler(url, Map.of(), TEST, out, false).start();
      String checked = console.toString(StandardCharsets.UTF_8);
      assertTrue(checked.contains("Profiler call failed: POST " + url + "/start_profile"),
          checked);
      console.reset();
      new Profiler(url, Map.of(), TEST, out, true).start();
      assertEquals("Starting profiler...\nProfiler started\n",
          console.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    } finally {
      https.stop(0);
    }
  }
}
