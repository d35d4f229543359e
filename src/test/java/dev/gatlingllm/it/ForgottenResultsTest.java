package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
    try (Simulator simulator = Simulator.start(SimulatorConfig.builder()
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
  void aRunWhoseFolderIsNotFoundWritesNothingIntoAnotherRunsFolder() throws Exception {
    // Another run's folder, where the plugin looks by default, started in this JVM's lifetime
    // but not written to since: it must not be taken for this run's (such a folder once
    // collected other runs' JSON files).
    Path decoy = Path.of("target", "gatling", "decoysimulation-" + LocalDateTime.now()
        .minusSeconds(1).format(DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS")));
    Files.createDirectories(decoy);
    Path log = Files.writeString(decoy.resolve("simulation.log"), "x");
    Files.setLastModifiedTime(log, FileTime.from(Instant.now().minusSeconds(30)));
    Path results = work.resolve("elsewhere");
    try (Simulator simulator = Simulator.start(SimulatorConfig.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).build())) {
      Map<String, String> properties = Map.of(
          ItSimulation.BASE_URL, simulator.baseUrl(), ItSimulation.USERS, "2");
      GatlingRunner.run(ItSimulation.class, results, properties);
      GatlingRunner.run(ItSimulation.class, results, properties); // writes the first, if it can
      // No result files. (The record log, placed when the run starts, can still land there
      // in this in-JVM case: Gatling does not tell a plugin its run folder. docs/reliability.md)
      try (Stream<Path> files = Files.list(decoy)) {
        assertEquals(List.of(), files.map(f -> f.getFileName().toString())
            .filter(n -> n.endsWith(".json") || n.endsWith(".html")).toList(),
            "no results were written into another run's folder");
      }
    } finally {
      try (Stream<Path> files = Files.list(decoy)) {
        for (Path f : files.toList()) {
          Files.delete(f);
        }
      }
      Files.delete(decoy);
    }
  }

  @Test
  void theJvmWritesThemAtExitWhenNothingElseDid() throws Exception {
    Path results = Files.createDirectories(work.resolve("results"));
    Path output = work.resolve("gatling.out");
    try (Simulator simulator = Simulator.start(SimulatorConfig.builder()
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
