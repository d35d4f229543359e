package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.report.Recover;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record log of real Gatling runs: a finished run's log reproduces the result JSON the
 * run wrote, a run killed with SIGKILL leaves a log that {@link Recover} turns into a partial
 * result, and neither log holds the run's credentials.
 */
@Timeout(240)
class RecordLogIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path work;

  @Test
  void theFinishedLogReproducesTheJsonTheRunWroteAndHoldsNoCredentials() throws Exception {
    String secret = "sk-inproc-7f3a9c2e41d8b6";
    Path results = work.resolve("results");
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).recordRequests(true).build())) {
      GatlingRunner.Result run = GatlingRunner.run(RecordLogItSimulation.class, results,
          new HashMap<>(Map.of(
              RecordLogItSimulation.BASE_URL, simulator.baseUrl(),
              RecordLogItSimulation.NUM_PROMPTS, "8",
              RecordLogItSimulation.RATE, "40",
              RecordLogItSimulation.AUTHORIZATION, "Bearer " + secret,
              "llm.resultsFolder", results.toString())));
      assertEquals(0, run.exitCode());
      assertEquals("Bearer " + secret,
          simulator.recordedRequests().get(0).header("Authorization"), "the key was sent");
    }
    Path runFolder = onlyRunFolder(results);
    Path written = resultJson(runFolder);
    Path log = runFolder.resolve(RecordLog.FILE_NAME);

    Recover.Recovered recovered = Recover.recover(log, work.resolve("recovered.json"), null,
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    assertFalse(recovered.partial());
    assertEquals(8, recovered.records());
    assertEquals(Files.readString(written), Files.readString(recovered.outcome().resultFile()));
    assertNoTrace(log, secret);
  }

  @Test
  void aRunKilledMidwayIsRecoveredAsAPartialResult() throws Exception {
    String secret = "sk-forked-5e0d2b7a93c1f4";
    int prompts = 60;
    Path results = Files.createDirectories(work.resolve("results"));
    Path output = work.resolve("gatling.out");
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(20)).itl(Duration.ofMillis(20)).recordRequests(true).build())) {
      ProcessBuilder builder = new ProcessBuilder(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "-cp", System.getProperty("java.class.path"),
          "-D" + RecordLogItSimulation.BASE_URL + "=" + simulator.baseUrl(),
          "-D" + RecordLogItSimulation.NUM_PROMPTS + "=" + prompts,
          "-D" + RecordLogItSimulation.RATE + "=4",
          "-Dllm.resultsFolder=" + results,
          "io.gatling.app.Gatling",
          "--simulation", RecordLogItSimulation.class.getName(),
          "--results-folder", results.toString(),
          "--launcher", "maven", "--build-tool-version", "test")
          .redirectErrorStream(true).redirectOutput(output.toFile());
      builder.environment().put("OPENAI_API_KEY", secret);
      Process gatling = builder.start();
      Path log = null;
      try {
        // 60 requests at 4/s take 15 s: kill it once a few are in the log
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && gatling.isAlive()) {
          log = findLog(results).orElse(null);
          if (log != null && recordsIn(log) >= 4) {
            break;
          }
          Thread.sleep(100);
        }
        assertTrue(gatling.isAlive(), "the run ended before it was killed:\n"
            + Files.readString(output));
        assertNotNull(log, Files.readString(output));
      } finally {
        gatling.destroyForcibly();
        gatling.waitFor(30, TimeUnit.SECONDS);
      }
      long sent = simulator.requestsReceived();
      Set<String> serverIds = simulator.recordedRequests().stream()
          .map(r -> r.header("x-request-id")).collect(Collectors.toSet());
      assertEquals("Bearer " + secret,
          simulator.recordedRequests().get(0).header("Authorization"), "the key was sent");

      ByteArrayOutputStream console = new ByteArrayOutputStream();
      Recover.Recovered recovered = Recover.recover(log, work.resolve("partial.json"), null,
          new PrintStream(console, true, StandardCharsets.UTF_8));

      assertTrue(recovered.partial());
      assertTrue(recovered.records() >= 4 && recovered.records() <= sent,
          recovered.records() + " recovered, " + sent + " sent");
      assertTrue(recovered.records() < prompts);
      JsonNode doc = JSON.readTree(recovered.outcome().resultFile().toFile());
      assertTrue(doc.get(Recover.PARTIAL_KEY).asBoolean());
      assertEquals(recovered.records(), doc.get(Recover.RECOVERED_RECORDS_KEY).asInt());
      assertEquals(recovered.records(), doc.get("completed").asInt() + doc.get("failed").asInt());
      assertEquals(prompts, doc.get("num_prompts").asInt(), "the header's settings");
      assertEquals(4.0, doc.get("request_rate").asDouble());
      assertEquals("rec", doc.get("label").asText());
      assertTrue(console.toString(StandardCharsets.UTF_8).contains("PARTIAL"));

      List<RequestRecord> records = RecordLogReader.read(log).records();
      Set<String> ids = new HashSet<>();
      for (RequestRecord r : records) {
        assertTrue(serverIds.contains(r.requestId()), "the server saw " + r.requestId());
        assertTrue(ids.add(r.requestId()), "one record per request: " + r.requestId());
        assertTrue(r.success(), String.valueOf(r.error()));
        assertEquals(6, r.chunkMicros().length);
        assertTrue(r.ttftNanos() > 0 && r.ttftNanos() <= r.latencyNanos());
        assertEquals(r.latencyNanos() / 1000, r.chunkMicros()[5], 1.0);
        assertTrue(r.scheduledNanos() <= r.startNanos() && r.endNanos() >= r.startNanos());
        assertEquals(6, r.outputTokens());
      }
      for (JsonNode start : doc.get("start_times")) {
        assertTrue(start.asDouble() >= 0, "after the benchmark start: " + start);
      }
      for (JsonNode itls : doc.get("itls")) {
        assertEquals(5, itls.size());
      }
      assertNoTrace(log, secret);
    }
  }

  private static void assertNoTrace(Path log, String secret) throws IOException {
    String bytes = new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1);
    assertFalse(bytes.contains(secret), "the key is in " + log);
    assertFalse(bytes.contains(secret.substring(3, 15)), "part of the key is in " + log);
    assertFalse(bytes.toLowerCase().contains("authorization"), "an auth header is in " + log);
  }

  /** Records in the log so far; 0 while its header is being written. */
  private static int recordsIn(Path log) {
    try {
      return RecordLogReader.read(log).records().size();
    } catch (IllegalArgumentException notYet) {
      return 0;
    }
  }

  private static Optional<Path> findLog(Path results) throws IOException {
    try (Stream<Path> files = Files.walk(results)) {
      return files.filter(p -> p.getFileName().toString().equals(RecordLog.FILE_NAME)).findFirst();
    }
  }

  private static Path resultJson(Path runFolder) throws IOException {
    try (Stream<Path> files = Files.list(runFolder)) {
      List<Path> json = files.filter(p -> p.getFileName().toString().endsWith(".json")).toList();
      assertEquals(1, json.size(), "result files: " + json);
      return json.get(0);
    }
  }

  private static Path onlyRunFolder(Path results) throws IOException {
    try (Stream<Path> folders = Files.list(results)) {
      List<Path> all = folders.filter(Files::isDirectory).toList();
      assertEquals(1, all.size(), "run folders: " + all);
      return all.get(0);
    }
  }
}
