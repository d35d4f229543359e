package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sweep startup} timing the simulator as a server command: two start-up delays, the
 * measured start-ups ordered and apart as the delays are (the JVM's own start is in both).
 */
@Timeout(300)
class StartupSweepIntegrationTest {

  @TempDir
  Path dir;

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static double quickest(Map<String, Object> run) {
    return java.util.stream.Stream.of("cold_startup_times", "warm_startup_times")
        .flatMap(k -> ((List<?>) run.get(k)).stream())
        .mapToDouble(v -> ((Number) v).doubleValue()).min().orElseThrow();
  }

  @Test
  void twoDelaysGiveStartUpsOrderedAndApartAsTheDelaysAre() throws Exception {
    int port = freePort();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    SweepConfig.Builder builder = SweepConfig.builder()
        .serveCmd(List.of(java, "-XX:TieredStopAtLevel=1", "-cp",
            System.getProperty("java.class.path"), "dev.gatlingllm.sim.Main", "--port",
            String.valueOf(port)))
        .serveParams(Params.parse("[{\"startup-delay-ms\": 200}, "
            + "{\"startup-delay-ms\": 2200}]"))
        .numRuns(1).outputDir(dir).experimentName("startup")
        .out(new PrintStream(console, true, StandardCharsets.UTF_8));
    SweepOutcome o = Sweep.startup(builder.build(), Params.parse("[{\"num_iters_warm\": 2}]"), 1, 1, 2,
        null);
    String text = console.toString(StandardCharsets.UTF_8);
    Path root = dir.resolve("startup");
    assertEquals(root, o.folder());
    assertEquals(2, o.records().size(), text);
    Map<String, Object> fast = Params.readObject(root.resolve(
        "SERVE-startup-delay-ms=200-STARTUP-num_iters_warm=2/run=0.json"));
    Map<String, Object> slow = Params.readObject(root.resolve(
        "SERVE-startup-delay-ms=2200-STARTUP-num_iters_warm=2/run=0.json"));
    for (Map<String, Object> r : List.of(fast, slow)) {
      assertEquals(1, ((List<?>) r.get("cold_startup_times")).size(), "1 cold: " + r);
      assertEquals(2, ((List<?>) r.get("warm_startup_times")).size(), "num_iters_warm 2: " + r);
      assertEquals(List.of("10", "25", "50", "75", "90", "99"),
          List.copyOf(((Map<?, ?>) r.get("warm_startup_percentiles")).keySet()));
      assertEquals(0, r.get("run_number"));
      assertEquals(2, r.get("num_iters_warm"));
    }
    // each start-up is the JVM's start plus the delay: ordered as the delays in both phases,
    // and the quickest of each combination's three (the least disturbed by a busy machine)
    // about the delays' 2 s apart
    for (String key : List.of("avg_cold_startup_time", "avg_warm_startup_time")) {
      double a = SweepData.number(fast, key);
      double b = SweepData.number(slow, key);
      assertTrue(a > 0.2, key + " includes the 0.2 s delay: " + a);
      assertTrue(b > a, key + ": " + a + " s, then " + b + " s\n" + text);
    }
    // A busy machine only adds to a start-up (the JVM's own start varied 1 s ± 0.5 s under
    // load): the quickest of each are at least 1 s apart, and not more than the 2 s by much.
    double apart = quickest(slow) - quickest(fast);
    assertTrue(apart > 1.0 && apart < 5.0, "the quickest start-ups should be about 2 s apart, "
        + "got " + apart + " s\n" + text);
    assertTrue(Files.isRegularFile(root.resolve("summary.csv")));
    assertEquals(1, Params.parse(Files.readString(root.resolve(
        "SERVE-startup-delay-ms=200-STARTUP-num_iters_warm=2/summary.json"))).size());
    assertTrue(text.contains("Cold start-up 1/1: "), text);
    assertTrue(text.contains("Warm start-up 2/2: "), text);
    assertTrue(text.contains("Experiment has been saved at: " + root), text);
    assertTrue(text.matches("(?s).*\nSERVE-startup-delay-ms=2200-STARTUP-num_iters_warm=2 +1 "
        + "+\\d+\\.\\d\\d +\\d+\\.\\d\\d\n.*"), text);

    // resumed: the runs are there, nothing starts again
    console.reset();
    Sweep.startup(builder.resume("startup").build(),
        Params.parse("[{\"num_iters_warm\": 2}]"), 1, 1, 2, null);
    text = console.toString(StandardCharsets.UTF_8);
    assertEquals(2, text.split("\\[SKIPPED BENCHMARK]", -1).length - 1, text);
    assertTrue(!text.contains("start-up 1/"), text);
  }
}
