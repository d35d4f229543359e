package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.client.CannedHttpServer;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.protocol.LlmRun;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import javax.net.ssl.KeyManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault matrix of docs/reliability.md through the whole path: for each cell, a Gatling run
 * in this JVM against a server that misbehaves in that one way. Each run must end on time,
 * with exactly the expected KO count in Gatling's stats (its own assertion, so the exit code
 * says it), every failed record carrying the cell's message, the vLLM result JSON counting
 * the same, Gatling's and the LLM report written, and the heap back where it was.
 */
@Timeout(300)
class FaultCellsIntegrationTest {

  private static final int USERS = 3;
  private static final String EVENTS = "data: {\"choices\":[{\"text\":\"Hel\"}]}\n\n"
      + "data: {\"choices\":[{\"text\":\"lo\"}],\"usage\":{\"prompt_tokens\":1,"
      + "\"completion_tokens\":2}}\n\n"
      + "data: [DONE]\n\n";
  private static final String SSE_HEAD = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n";

  @TempDir
  Path results;

  /** Runs one cell and checks everything but the message; returns the failed records. */
  private List<RequestRecord> cell(CannedHttpServer server, int expectedFailures,
      Map<String, String> extra) throws Exception {
    return cell(server, "http://127.0.0.1:" + server.port(), expectedFailures, extra);
  }

  private List<RequestRecord> cell(CannedHttpServer server, String baseUrl, int expectedFailures,
      Map<String, String> extra) throws Exception {
    return cell(server, baseUrl, USERS, expectedFailures, extra);
  }

  /** {@code server} is closed once the run is over, before the checks. */
  private List<RequestRecord> cell(AutoCloseable server, String baseUrl, int users,
      int expectedFailures, Map<String, String> extra) throws Exception {
    long heapBefore = usedHeapAfterGc();
    long started = System.nanoTime();
    GatlingRunner.Result result;
    try (server) {
      Map<String, String> properties = new HashMap<>(extra);
      properties.put(FaultCellItSimulation.BASE_URL, baseUrl);
      properties.put(FaultCellItSimulation.USERS, Integer.toString(users));
      properties.put(FaultCellItSimulation.EXPECT_FAILED, Integer.toString(expectedFailures));
      properties.put("llm.resultsFolder", results.toString());
      result = GatlingRunner.run(FaultCellItSimulation.class, results, properties);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    assertEquals(0, result.gatlingCode(), "Gatling must count exactly " + expectedFailures
        + " KO");
    assertEquals(expectedFailures == users ? 4 : 0, result.exitCode(),
        "a run in which no request succeeded exits 4, one with successes 0");
    // Each cell's requests end within a second or two (the timeouts are 500 ms); the margin
    // is for a machine shared with other builds.
    assertTrue(seconds < 60, "the run ended on time: " + seconds + " s");

    List<RequestRecord> records = GatlingRunner.captured();
    assertEquals(users, records.size(), "every user came back");
    List<RequestRecord> failed = records.stream().filter(r -> !r.success()).toList();
    assertEquals(expectedFailures, failed.size());
    for (RequestRecord r : records) {
      if (r.success()) {
        assertTrue(r.error() == null && r.chunkMicros().length > 0, "a clean success");
      } else {
        assertTrue(r.error() != null && !r.error().isBlank(), "a failure says why");
      }
    }

    JsonNode json = resultJson(result.runFolder());
    assertEquals(users - expectedFailures, json.get("completed").asInt());
    assertEquals(expectedFailures, json.get("failed").asInt());
    assertTrue(Files.exists(result.file("index.html")), "Gatling's report");
    assertTrue(Files.exists(result.file("llm-report.html")), "the LLM report");
    assertTrue(Files.exists(result.file("llm-records.bin")), "the record log");

    long grown = usedHeapAfterGc() - heapBefore;
    assertTrue(grown < 64L << 20, "the heap grew by " + (grown >> 20) + " MiB over the run");
    return failed;
  }

  private static void allFailWith(List<RequestRecord> failed, Predicate<String> expected) {
    assertEquals(USERS, failed.size());
    failed.forEach(r -> assertTrue(expected.test(r.error()), "error was: " + r.error()));
  }

  @Test
  void http4xxWithAJsonBodyFailsWithTheServersMessage() throws Exception {
    String body = "{\"object\":\"error\",\"message\":\"The model `x` does not exist.\","
        + "\"type\":\"NotFoundError\",\"code\":404}";
    allFailWith(cell(CannedHttpServer.raw("HTTP/1.1 404 Not Found\r\n"
        + "content-type: application/json\r\ncontent-length: " + body.length() + "\r\n\r\n"
        + body, false), USERS, Map.of()),
        e -> e.equals("HTTP 404: The model `x` does not exist."));
  }

  @Test
  void http5xxWithAPlainBodyFailsWithItsText() throws Exception {
    allFailWith(cell(CannedHttpServer.raw("HTTP/1.1 502 Bad Gateway\r\n"
        + "content-type: text/plain\r\ncontent-length: 16\r\n\r\nupstream is down", false),
        USERS, Map.of()), e -> e.equals("HTTP 502: upstream is down"));
  }

  @Test
  void anInBandErrorEventFails() throws Exception {
    allFailWith(cell(CannedHttpServer.streaming("data: {\"choices\":[{\"text\":\"a\"}]}\n\n"
        + "data: {\"error\":{\"message\":\"out of KV cache\",\"code\":500}}\n\n"), USERS,
        Map.of()), e -> e.equals("error event: out of KV cache"));
  }

  @Test
  void aStreamCutMidWayFails() throws Exception {
    String event = "data: {\"choices\":[{\"text\":\"a\"}]}\n\n";
    // Chunked, and closed before the last chunk: a body that ends at the close (no length,
    // not chunked) has no way to tell a cut from its end.
    allFailWith(cell(CannedHttpServer.raw(SSE_HEAD + "transfer-encoding: chunked\r\n\r\n"
        + Integer.toHexString(event.length()) + "\r\n" + event + "\r\n", true), USERS,
        Map.of()), e -> e.equals("connection closed mid-stream"));
  }

  @Test
  void aStallBeforeTheFirstTokenFailsAtTheFirstTokenTimeout() throws Exception {
    allFailWith(cell(CannedHttpServer.delayed(SSE_HEAD + "content-length: "
        + EVENTS.length() + "\r\n\r\n" + EVENTS, 5_000), USERS,
        Map.of(FaultCellItSimulation.FIRST_TOKEN_TIMEOUT_MS, "500")),
        e -> e.equals("first token timeout (500 ms)"));
  }

  @Test
  void aStallBetweenTokensFailsAtTheIdleTimeout() throws Exception {
    allFailWith(cell(CannedHttpServer.streamingWithPause(
        "data: {\"choices\":[{\"text\":\"a\"}]}\n\n", 5_000, "data: [DONE]\n\n"), USERS,
        Map.of(FaultCellItSimulation.IDLE_TIMEOUT_MS, "500")),
        e -> e.equals("idle timeout (500 ms without data)"));
  }

  @Test
  void connectionCloseAfterEachResponseSucceeds() throws Exception {
    cell(CannedHttpServer.raw(SSE_HEAD + "connection: close\r\ncontent-length: "
        + EVENTS.length() + "\r\n\r\n" + EVENTS, true), 0, Map.of());
  }

  @Test
  void http10EndingAtTheCloseSucceeds() throws Exception {
    cell(CannedHttpServer.raw("HTTP/1.0 200 OK\r\ncontent-type: text/event-stream\r\n\r\n"
        + EVENTS, true), 0, Map.of());
  }

  @Test
  void contentLengthInsteadOfChunkedSucceeds() throws Exception {
    cell(CannedHttpServer.raw(SSE_HEAD + "content-length: " + EVENTS.length() + "\r\n\r\n"
        + EVENTS, false), 0, Map.of());
  }

  @Test
  void aGzipStreamSucceeds() throws Exception {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
      gz.write(EVENTS.getBytes(StandardCharsets.UTF_8));
    }
    byte[] head = (SSE_HEAD + "content-encoding: gzip\r\ncontent-length: " + zipped.size()
        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    all.writeBytes(head);
    all.writeBytes(zipped.toByteArray());
    cell(CannedHttpServer.rawBytes(all.toByteArray(), false), 0, Map.of());
  }

  @Test
  void aSingleTenMegabyteEventSucceeds() throws Exception {
    // With usage, as servers send it: without, the report counts the output tokens of a
    // 10 MB one-word text with GPT-2's BPE, which takes minutes (docs/reliability.md).
    String events = "data: {\"choices\":[{\"text\":\"" + "x".repeat(10 << 20) + "\"}],"
        + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1}}\n\ndata: [DONE]\n\n";
    cell(CannedHttpServer.raw(SSE_HEAD + "\r\n" + events, true), 0, Map.of());
  }

  @Test
  void invalidUtf8FailsAsMalformed() throws Exception {
    byte[] head = (SSE_HEAD + "\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] event = "data: {\"choices\":[{\"text\":\"\u00ff\u00fe\"}]}\n\n"
        .getBytes(StandardCharsets.ISO_8859_1);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    all.writeBytes(head);
    all.writeBytes(event);
    allFailWith(cell(CannedHttpServer.rawBytes(all.toByteArray(), true), USERS, Map.of()),
        e -> e.startsWith("malformed JSON chunk: ") && e.toLowerCase().contains("utf-8"));
  }

  @Test
  void aStreamWithoutDoneSucceeds() throws Exception {
    cell(CannedHttpServer.streaming(EVENTS.replace("data: [DONE]\n\n", "")), 0, Map.of());
  }

  @Test
  void aTwoHundredWithANonSseBodyFails() throws Exception {
    allFailWith(cell(CannedHttpServer.raw("HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n"
        + "content-length: 24\r\n\r\n<html>maintenance</html>", false), USERS, Map.of()),
        e -> e.startsWith("HTTP 200 with content-type text/html"));
  }

  @Test
  void aRedirectIsNotFollowed() throws Exception {
    allFailWith(cell(CannedHttpServer.raw("HTTP/1.1 307 Temporary Redirect\r\n"
        + "location: http://127.0.0.1:1/v1/completions\r\ncontent-length: 0\r\n\r\n", false),
        USERS, Map.of()), e -> e.startsWith("HTTP 307 redirect to http://127.0.0.1:1/"));
  }

  @Test
  void aSelfSignedCertificateIsRefusedByDefaultAndAcceptedWithInsecureTls() throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = getClass().getResourceAsStream("/tls/self-signed.p12")) {
      store.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, "changeit".toCharArray());
    SslContext tls = SslContextBuilder.forServer(keys).build();
    CannedHttpServer refusing = CannedHttpServer.streamingOverTls(EVENTS, tls);
    allFailWith(cell(refusing, "https://127.0.0.1:" + refusing.port(), USERS, Map.of()),
        e -> e.startsWith("TLS handshake failed"));
    CannedHttpServer accepted = CannedHttpServer.streamingOverTls(EVENTS, tls);
    cell(accepted, "https://127.0.0.1:" + accepted.port(), 0,
        Map.of(FaultCellItSimulation.INSECURE_TLS, "true"));
  }

  @Test
  void aServerRestartMidRunFailsTheRequestsItCutAndTheLaterOnesSucceed() throws Exception {
    // Three waves, 4 s apart: the first (4 users) is in flight when the server stops (its
    // first token would take a minute), the second (3) finds it down, the third (5) finds it
    // back on the same port. The stop and the restart follow the run's own events, not the
    // clock: the stop once the server has the first wave, the restart once the client has
    // recorded the first two waves' 7 failures.
    SimulatorConfig.Builder config = StrictServer.builder().ttft(Duration.ofSeconds(60));
    RestartingServer server = new RestartingServer(Simulator.start(config.build()),
        config.ttft(Duration.ofMillis(20)).itl(Duration.ofMillis(5)), 4, 7);
    List<RequestRecord> failed = cell(server, server.baseUrl, 12, 7, Map.of(
        FaultCellItSimulation.WAVES, "4,3,5", FaultCellItSimulation.WAVE_GAP_MS, "4000"));

    assertEquals(List.of("connection closed before end of response", "connection closed "
        + "before end of response", "connection closed before end of response",
        "connection closed before end of response", "connect failed: connection refused",
        "connect failed: connection refused", "connect failed: connection refused"),
        failed.stream().map(RequestRecord::error).toList(),
        "the cut requests first, then the refused ones, each with its reason");
    assertEquals(5, server.restarted.requestsReceived(),
        "the third wave reached the restarted server, on new connections");
    for (RequestRecord r : GatlingRunner.captured()) {
      if (r.success()) {
        assertEquals(2, r.outputTokens(), "a whole answer from the restarted server");
      }
    }
  }

  /**
   * A simulator that a control thread stops once it has received {@code stopAfter} requests
   * and starts again on the same port once the run has recorded {@code restartAfter}
   * requests. Every wait is bounded in polls and time; a wait that runs out fails the test
   * when the server is closed, right after the run.
   */
  private static final class RestartingServer implements AutoCloseable {
    private static final int POLLS = 1_200;
    private static final long POLL_MS = 50;

    final String baseUrl;
    private final Simulator first;
    private final CompletableFuture<Void> control;
    volatile Simulator restarted;

    RestartingServer(Simulator first, SimulatorConfig.Builder after, int stopAfter,
        int restartAfter) {
      this.first = first;
      this.baseUrl = first.baseUrl();
      int port = first.port();
      control = CompletableFuture.runAsync(() -> {
        await(() -> first.requestsReceived() >= stopAfter,
            "the server to receive " + stopAfter + " requests");
        // the run under way
        RecordStore run = LlmRun.current().orElseThrow().parts().requests().store();
        first.close();
        await(() -> run.size() >= restartAfter, "the run to record " + restartAfter + " requests");
        restarted = Simulator.start(after.port(port).build());
      });
    }

    private static void await(BooleanSupplier condition, String what) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      for (int i = 0; i < POLLS && System.nanoTime() < deadline; i++) {
        if (condition.getAsBoolean()) {
          return;
        }
        try {
          Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for " + what, e);
        }
      }
      throw new IllegalStateException("gave up waiting for " + what);
    }

    @Override
    public void close() throws Exception {
      try {
        control.get(10, TimeUnit.SECONDS);
      } finally {
        first.close();
        if (restarted != null) {
          restarted.close();
        }
      }
    }
  }

  private static JsonNode resultJson(Path runFolder) throws IOException {
    try (Stream<Path> files = Files.list(runFolder)) {
      List<Path> json = files.filter(p -> p.getFileName().toString().endsWith(".json")).toList();
      assertEquals(1, json.size(), "one result JSON in " + runFolder + ": " + json);
      return new ObjectMapper().readTree(json.get(0).toFile());
    }
  }

  private static long usedHeapAfterGc() {
    Runtime runtime = Runtime.getRuntime();
    System.gc();
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
