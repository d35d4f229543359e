package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start-up sweep's pieces: numpy's percentiles, the health URL, names, refusals. */
class StartupSweepTest {

  @TempDir
  Path dir;

  @Test
  void percentilesInterpolateBetweenRanksAsNumpy() {
    double[] v = {4, 1, 3, 2};
    // sorted 1 2 3 4; rank = 3p/100: p10 -> 0.3 -> 1.3, p50 -> 1.5 -> 2.5, p99 -> 2.97 -> 3.97
    assertEquals(1.3, StartupSweep.percentile(v, 10), 1e-12);
    assertEquals(2.5, StartupSweep.percentile(v, 50), 1e-12);
    assertEquals(3.97, StartupSweep.percentile(v, 99), 1e-12);
    assertEquals(7, StartupSweep.percentile(new double[] {7}, 90));
  }

  @Test
  void theHealthUrlComesFromTheCommandsHostAndPort() {
    assertEquals("http://127.0.0.1:8000", StartupSweep.baseUrl(List.of("vllm", "serve", "m")));
    assertEquals("http://127.0.0.1:9001", StartupSweep.baseUrl(List.of("vllm", "serve", "m",
        "--host", "0.0.0.0", "--port", "9001")));
    assertEquals("http://10.0.0.2:8000", StartupSweep.baseUrl(List.of("x", "--host=10.0.0.2")));
    assertEquals("http://[::1]:7", StartupSweep.baseUrl(List.of("x", "--host", "::1",
        "--port=7")));
  }

  @Test
  void pointsAreNamedAsTheOtherSweepsName() {
    assertEquals("SERVE-max_num_seqs=8-STARTUP-num_iters_cold=1",
        StartupSweep.folderName(Map.of("max_num_seqs", 8), Map.of("num_iters_cold", 1)));
    assertEquals("SERVE-STARTUP", StartupSweep.folderName(Map.of(), Map.of()));
  }

  @Test
  void aDryRunPrintsTheCommandsWithTheStartupFlagsAppliedAndStartsNothing() {
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    SweepOutcome o = Sweep.startup(SweepConfig.builder().serveCmd("vllm serve m --port 9")
        .outputDir(dir).experimentName("x").dryRun(true).numRuns(2)
        .out(new PrintStream(console, true, StandardCharsets.UTF_8)).build(),
        Params.parse("[{\"num_iters_cold\": 0, \"enforce_eager\": true}]"), 3, 1, 3, null);
    String text = console.toString(StandardCharsets.UTF_8);
    assertEquals(List.of(), o.records());
    assertEquals(false, Files.exists(dir.resolve("x")));
    assertEquals(2, text.split("Server command: vllm serve m --port 9 --enforce-eager\n", -1)
        .length - 1, text);
    assertEquals(true, text.contains("Start-ups: 0 cold, 1 warm-up, 3 warm; ready when GET "
        + "http://127.0.0.1:9/health answers 2xx"), text);
    assertEquals(true, text.contains("Experiment will be saved at: " + dir.resolve("x")), text);
  }

  @Test
  void badCountsAndAMissingCommandAreRefusedBeforeAnythingStarts() {
    SweepConfig config = SweepConfig.builder().serveCmd("x").outputDir(dir).build();
    assertEquals("--startup-params: num_iters_warm must be a whole number, got 1.5",
        assertThrows(IllegalArgumentException.class, () -> Sweep.startup(config,
            Params.parse("[{\"num_iters_warm\": 1.5}]"), 3, 1, 3, null)).getMessage());
    assertEquals("a start-up run measures something: give num_iters_cold or num_iters_warm "
        + "above 0", assertThrows(IllegalArgumentException.class, () -> Sweep.startup(config,
            Params.parse("[{\"num_iters_cold\": 0}]"), 3, 1, 0, null)).getMessage());
    assertEquals("startup times a server command: give --serve-cmd",
        assertThrows(IllegalArgumentException.class, () -> Sweep.startup(SweepConfig.builder()
            .outputDir(dir).build(), List.of(Map.of()), 3, 1, 3, null)).getMessage());
  }
}
