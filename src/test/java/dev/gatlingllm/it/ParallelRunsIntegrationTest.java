package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.report.Recover;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs of one simulation started at the same moment in one project, as
 * {@code ./mvnw gatling:test} started in several terminals runs them: one working directory,
 * one results folder. Each run sends its own number of requests (run {@code i}: {@code i}),
 * so that every file tells whose it is; each must find its record log, result JSON and LLM
 * report in its own Gatling run folder. Each run is a few requests: the cost is the JVMs.
 */
class ParallelRunsIntegrationTest {

  private static final JsonMapper JSON = new JsonMapper();
  /** Gatling's last line names its report: {@code .../<run folder>/index.html}. */
  private static final Pattern GATLING_REPORT =
      Pattern.compile("file:(\\S*)/index\\.html");
  private static final Pattern LLM_REPORT = Pattern.compile("LLM report: file:(\\S*)");

  @TempDir
  Path project;

  @ParameterizedTest(name = "{0} runs")
  @ValueSource(ints = {2, 4, 8})
  void runsStartedTogetherInOneProjectEachKeepTheirOwnFiles(int runs) throws Exception {
    Path results = Path.of("target", "gatling"); // relative: the project's, as in Maven
    Map<Integer, ForkedGatling.Result> outcomes = new TreeMap<>();
    try (Simulator sim = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).build())) {
      List<CompletableFuture<ForkedGatling.Result>> started = new ArrayList<>();
      for (int i = 1; i <= runs; i++) {
        Map<String, String> props = Map.of(RecordLogItSimulation.BASE_URL, sim.baseUrl(),
            RecordLogItSimulation.NUM_PROMPTS, "" + i, RecordLogItSimulation.RATE, "500");
        Path output = project.resolve("run-" + i + ".out");
        started.add(CompletableFuture.supplyAsync(() -> {
          try {
            return ForkedGatling.run(RecordLogItSimulation.class, results, props, Map.of(),
                output, project, null);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }));
      }
      for (int i = 1; i <= runs; i++) {
        ForkedGatling.Result r = started.get(i - 1).get();
        assertEquals(0, r.exitCode(), r.output());
        outcomes.put(i, r);
      }
    }

    Path root = project.resolve(results);
    for (Map.Entry<Integer, ForkedGatling.Result> e : outcomes.entrySet()) {
      int requests = e.getKey();
      String out = e.getValue().output();
      Path gatlingFolder = Path.of(found(GATLING_REPORT, out));
      Path llmReport = Path.of(found(LLM_REPORT, out));
      Path own = llmReport.getParent();
      // its own Gatling run folder, or (Gatling's run id taken by a run of the same
      // millisecond) its own subfolder of it
      assertTrue(own.equals(gatlingFolder) || own.getParent().equals(gatlingFolder)
          && own.getFileName().toString().startsWith("llm-run-"), own + " / " + gatlingFolder);
      assertEquals(root.toRealPath(), gatlingFolder.getParent().toRealPath());

      // exactly its own files there: one record log, one result JSON, one LLM report
      List<String> files = ownFiles(own);
      assertEquals(List.of("llm-records.bin", "llm-report.html"),
          files.stream().filter(f -> f.startsWith("llm-")).toList(), own + ": " + files);
      List<String> resultFiles = files.stream().filter(f -> f.endsWith(".json")).toList();
      assertEquals(1, resultFiles.size(), own + ": " + files);
      JsonNode result = JSON.readTree(own.resolve(resultFiles.get(0)).toFile());
      assertEquals(requests, result.get("completed").asInt(), own.toString());
      RecordLogReader.Contents log = RecordLogReader.read(own.resolve("llm-records.bin"));
      assertTrue(log.complete());
      assertEquals(requests, log.records().size(), own.toString());
    }
    // and nothing else anywhere: one record log per run
    try (Stream<Path> all = Files.walk(root)) {
      assertEquals(runs, all.filter(p -> p.getFileName().toString().matches(
          "llm-records(-\\d+)?\\.bin")).count());
    }
    // Recover takes a run folder as Merge does, and finds the same result in it
    Path first = Path.of(found(LLM_REPORT, outcomes.get(1).output())).getParent();
    Recover.Recovered again = Recover.recover(first, project.resolve("recovered.json"), null,
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertEquals(1, again.records());
    assertEquals(1, JSON.readTree(again.outcome().resultFile().toFile()).get("completed")
        .asInt());
  }

  private static String found(Pattern pattern, String output) {
    Matcher m = pattern.matcher(output);
    assertTrue(m.find(), pattern + " not in\n" + output);
    return m.group(1).startsWith("//") ? m.group(1).substring(2) : m.group(1);
  }

  private static List<String> ownFiles(Path folder) throws Exception {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted()
          .toList();
    }
  }
}
