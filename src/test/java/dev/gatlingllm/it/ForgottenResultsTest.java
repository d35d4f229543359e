package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.protocol.RunResults;
import dev.gatlingllm.internal.report.LlmReport;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulation that never calls {@code LlmDsl.writeResults(this)} still gets its result JSON,
 * in its own run folder: when the next run starts in the same JVM, or when the JVM exits
 * (the way {@code gatling:test} runs it: one forked JVM per run). {@link ItSimulation} has no
 * {@code after()}.
 */
@Timeout(180)
class ForgottenResultsTest {

  @TempDir
  Path work;

  @Test
  void theNextRunInTheSameJvmWritesTheForgottenRunsResultsIntoItsOwnFolder() throws Exception {
    Path results = work.resolve("results");
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).build())) {
      Map<String, String> properties = new HashMap<>(Map.of(
          ItSimulation.BASE_URL, simulator.baseUrl(),
          ItSimulation.USERS, "3",
          "llm.resultsFolder", results.toString()));
      GatlingRunner.Result forgetful = GatlingRunner.run(ItSimulation.class, results, properties);
      assertEquals(0, forgetful.exitCode());
      assertEquals(List.of(), jsonFiles(forgetful.runFolder()), "nothing written yet");

      properties.put(ItSimulation.USERS, "2");
      GatlingRunner.Result next = GatlingRunner.run(ItSimulation.class, results, properties);
      assertEquals(0, next.exitCode());
      List<Path> written = jsonFiles(forgetful.runFolder());
      assertEquals(1, written.size(), "the first run's JSON, in the first run's folder");
      assertEquals(3, new ObjectMapper().readTree(written.get(0).toFile()).get("completed")
          .asInt());
      assertEquals(List.of(), jsonFiles(next.runFolder()), "the second run is not done yet");
    }
  }

  @Test
  void aRunOutsideTheFoldersLookedInWritesIntoItsOwnFolderNotIntoAnotherRuns() throws Exception {
    // Gatling writes these runs under "elsewhere", which is not among the folders the plugin
    // looks in; the one it looks in first (-Dllm.resultsFolder) holds another run's folder,
    // started in this JVM's lifetime but not written to since. Such a folder once collected
    // other runs' JSON files. The runs' own folders are found through the simulation.log this
    // JVM holds open, which only Linux shows (/proc/self/fd).
    assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd (Linux)");
    Path lookedIn = work.resolve("looked-in");
    Path decoy = Files.createDirectories(lookedIn.resolve("decoysimulation-"
        + LocalDateTime.now().minusSeconds(1).format(
            DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS"))));
    Path log = Files.writeString(decoy.resolve("simulation.log"), "x");
    Files.setLastModifiedTime(log, FileTime.from(Instant.now().minusSeconds(30)));
    Path results = work.resolve("elsewhere");
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).build())) {
      Map<String, String> properties = Map.of(ItSimulation.BASE_URL, simulator.baseUrl(),
          ItSimulation.USERS, "2", RunResults.RESULTS_FOLDER_PROPERTY, lookedIn.toString());
      GatlingRunner.Result forgetful = GatlingRunner.run(ItSimulation.class, results, properties);
      assertEquals(0, forgetful.exitCode());
      // the next run writes the forgotten one's results
      GatlingRunner.Result next = GatlingRunner.run(ItSimulation.class, results, properties);
      assertEquals(0, next.exitCode());

      List<Path> written = jsonFiles(forgetful.runFolder());
      assertEquals(1, written.size(), "the first run's JSON, in the first run's folder");
      JsonNode doc = new ObjectMapper().readTree(written.get(0).toFile());
      // two users, one request each: 5 prompt tokens, 20 output tokens (ignore_eos)
      assertEquals(2, doc.get("completed").asInt());
      assertEquals(0, doc.get("failed").asInt());
      assertEquals(10, doc.get("total_input_tokens").asInt());
      assertEquals(40, doc.get("total_output_tokens").asInt());
      assertEquals("served-llm", doc.get("model_id").asText());
      assertTrue(Files.isRegularFile(forgetful.file(LlmReport.FILE_NAME)), "the LLM report");
      assertTrue(Files.isRegularFile(forgetful.file(RecordLog.FILE_NAME)), "the record log");
      assertEquals(List.of(), jsonFiles(next.runFolder()), "the second run is not done yet");
      try (Stream<Path> files = Files.list(decoy)) {
        assertEquals(List.of("simulation.log"), files.map(f -> f.getFileName().toString())
            .toList(), "nothing was written into another run's folder");
      }
      try (Stream<Path> folders = Files.list(lookedIn)) {
        assertEquals(List.of(decoy), folders.toList(), "no folder made beside it");
      }
    }
  }

  @Test
  void theJvmWritesThemAtExitWhenNothingElseDid() throws Exception {
    Path results = Files.createDirectories(work.resolve("results"));
    Path output = work.resolve("gatling.out");
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).build())) {
      ForkedGatling.Result run = ForkedGatling.run(ItSimulation.class, results, Map.of(
          ItSimulation.BASE_URL, simulator.baseUrl(),
          ItSimulation.USERS, "4"), output);
      String log = run.output();
      assertEquals(0, run.exitCode(), log);
      assertTrue(log.contains("gatling-llm: the run is over: writing its results into "), log);
      assertTrue(log.contains("gatling-llm: wrote the benchmark result to "), "the file is named "
          + "though the log is closed by then: " + log);
      assertTrue(log.contains("Serving Benchmark Result"), "vLLM's summary is printed: " + log);
      Path runFolder;
      try (Stream<Path> folders = Files.list(results)) {
        runFolder = folders.filter(Files::isDirectory).findFirst().orElseThrow();
      }
      List<Path> written = jsonFiles(runFolder);
      assertEquals(1, written.size(), log);
      JsonNode doc = new ObjectMapper().readTree(written.get(0).toFile());
      assertEquals(4, doc.get("completed").asInt());
      assertTrue(Files.exists(runFolder.resolve("index.html")), "Gatling's report too");
    }
  }

  private static List<Path> jsonFiles(Path runFolder) throws IOException {
    try (Stream<Path> files = Files.list(runFolder)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".json")).toList();
    }
  }
}
