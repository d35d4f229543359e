package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.StrictServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The readiness wait of a sweep's server and the cache resets after each benchmark run of a
 * {@code vllm} server, at each replica when several are given.
 */
class ServerProcessTest {

  @TempDir Path dir;
  final List<String> seen = new CopyOnWriteArrayList<>();
  final PrintStream out = new PrintStream(new ByteArrayOutputStream(), true,
      StandardCharsets.UTF_8);
  HttpServer server;
  String baseUrl;
  volatile int mmStatus = 200;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      seen.add(exchange.getRequestMethod() + " " + path);
      exchange.sendResponseHeaders(path.equals("/reset_mm_cache") ? mmStatus : 200, -1);
      exchange.close();
    });
    server.start();
    baseUrl = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void aStartUpIsNotTimedWhileSomethingAlreadyAnswersItsHealthUrl() throws Exception {
    URI health = URI.create(baseUrl + "/health");
    SweepFailure e = assertThrows(SweepFailure.class,
        () -> ServerProcess.requireNothingServes(health));
    assertEquals("something already serves " + health + " (HTTP 200) before the server was "
        + "started: its answer would be timed as the start-up; stop it or use another port",
        e.getMessage());
    server.stop(0);
    ServerProcess.requireNothingServes(health); // nothing there now: no complaint
  }

  @Test
  void aVllmServerHasBothCachesResetByPost() {
    ServerProcess.afterBench(List.of(), List.of("/opt/venv/bin/vllm", "serve", "m"),
        List.of(baseUrl), false, out, dir.resolve("after.log"));
    assertEquals(List.of("POST /reset_prefix_cache", "POST /reset_mm_cache"), seen);
  }

  @Test
  void aRefusedResetStopsTheSweepNamingTheUrlStatusAndTheFix() {
    mmStatus = 404;
    SweepFailure e = assertThrows(SweepFailure.class, () -> ServerProcess.afterBench(List.of(),
        List.of("vllm", "serve", "m"), List.of(baseUrl), false, out, dir.resolve("after.log")));
    assertEquals("POST " + baseUrl + "/reset_mm_cache answered HTTP 404 (vLLM needs "
        + "VLLM_SERVER_DEV_MODE=1 for it, which the sweep sets; or give --after-bench-cmd)",
        e.getMessage());
  }

  @Test
  void otherServersAreNotReset() {
    ServerProcess.afterBench(List.of(), List.of("sglang", "serve"), List.of(baseUrl), false,
        out, dir.resolve("after.log"));
    ServerProcess.afterBench(List.of(), List.of("/opt/vllm-venv/bin/python", "-m", "sglang"),
        List.of(baseUrl), false, out, dir.resolve("after.log"));
    // the same server, a vllm command: the resets reach it, so the silence above was the rule
    ServerProcess.afterBench(List.of(), List.of("vllm", "serve", "m"), List.of(baseUrl), false,
        out, dir.resolve("after.log"));
    assertEquals(List.of("POST /reset_prefix_cache", "POST /reset_mm_cache"), seen);
  }

  @Test
  void everyReplicaHasItsCachesReset() {
    try (Simulator a = replica(); Simulator b = replica()) {
      ServerProcess.afterBench(List.of(), List.of("vllm", "serve", "m"),
          List.of(a.baseUrl(), b.baseUrl()), false, out, dir.resolve("after.log"));
      for (Simulator replica : List.of(a, b)) {
        assertEquals(List.of("POST /reset_prefix_cache", "POST /reset_mm_cache"),
            replica.recordedRequests().stream().map(r -> r.method() + " " + r.path()).toList());
      }
    }
  }

  @Test
  void aReplicaThatRefusesItsResetIsNamed() {
    mmStatus = 404;
    try (Simulator a = replica()) {
      SweepFailure e = assertThrows(SweepFailure.class, () -> ServerProcess.afterBench(
          List.of(), List.of("vllm", "serve", "m"), List.of(a.baseUrl(), baseUrl), false, out,
          dir.resolve("after.log")));
      assertEquals("POST " + baseUrl + "/reset_mm_cache answered HTTP 404 (vLLM needs "
          + "VLLM_SERVER_DEV_MODE=1 for it, which the sweep sets; or give --after-bench-cmd)",
          e.getMessage());
      assertEquals(2, a.recordedRequests().size()); // the first replica was reset
    }
  }

  @Test
  void theServerIsReadyWhenEveryReplicaAnswersItsHealth() {
    try (Simulator a = replica(); Simulator b = replica();
        ServerProcess server = ServerProcess.start(List.of("sleep", "60"),
            dir.resolve("server.log"), false, out)) {
      server.awaitReady(List.of(URI.create(a.baseUrl() + "/health"),
          URI.create(b.baseUrl() + "/health")), Duration.ofSeconds(60));
      for (Simulator replica : List.of(a, b)) {
        assertEquals(List.of("GET /health"), replica.recordedRequests().stream()
            .map(r -> r.method() + " " + r.path()).toList());
      }
    }
  }

  @Test
  void aReplicaThatNeverAnswersIsNamedWhenTheWaitEnds() throws Exception {
    String dead;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      dead = "http://127.0.0.1:" + free.getLocalPort() + "/health";
    }
    try (Simulator a = replica()) {
      ServerProcess server = ServerProcess.start(List.of("sleep", "60"),
          dir.resolve("server.log"), false, out);
      SweepFailure e = assertThrows(SweepFailure.class, () -> server.awaitReady(
          List.of(URI.create(a.baseUrl() + "/health"), URI.create(dead)), Duration.ofSeconds(1)));
      assertTrue(e.getMessage().startsWith("the server did not become ready within 1 s "
          + "(--server-ready-timeout): GET " + dead + " last gave GET " + dead + " failed: "),
          e.getMessage());
      assertFalse(e.getMessage().contains(a.baseUrl()), e.getMessage());
    }
  }

  private static Simulator replica() {
    return Simulator.start(StrictServer.builder().recordRequests(true).build());
  }
}
