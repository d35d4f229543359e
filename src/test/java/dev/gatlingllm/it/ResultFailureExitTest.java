package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose result JSON cannot be written fails the build, after Gatling's report. Gatling
 * runs in a JVM of its own, from its real main class, as {@code gatling:test} forks it: the
 * exit status is the point.
 */
@Timeout(180)
class ResultFailureExitTest {

  @TempDir
  Path work;

  @Test
  void gatlingExitsNonZeroWhenTheResultCannotBeWrittenAndStillWritesItsReport()
      throws Exception {
    // A regular file where the result directory should be: the JSON cannot be written.
    Path occupied = Files.writeString(work.resolve("occupied"), "x");
    Path results = Files.createDirectories(work.resolve("results"));
    Path output = work.resolve("gatling.out");
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).build())) {
      ForkedGatling.Result run = ForkedGatling.run(ResultsItSimulation.class, results, Map.of(
          ResultsItSimulation.BASE_URL, simulator.baseUrl(),
          ResultsItSimulation.USERS, "3",
          ResultsItSimulation.RESULT_DIR, occupied.toString()), output);
      String log = run.output();

      assertEquals(3, run.exitCode(), log);
      assertTrue(log.contains("the benchmark result was not written"), log);
      Path runFolder = onlyRunFolder(results);
      assertTrue(Files.exists(runFolder.resolve("index.html")), "the HTML report is still there");
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
