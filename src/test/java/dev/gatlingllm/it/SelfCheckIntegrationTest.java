package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.selfcheck.JvmCheck;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's measurement of its own distortion, in the result JSON of real runs. */
class SelfCheckIntegrationTest {

  @TempDir
  Path results;

  private JsonNode selfCheck(Simulator simulator, long stallMs) throws IOException {
    Map<String, String> properties = new HashMap<>();
    properties.put(SelfCheckItSimulation.BASE_URL, simulator.baseUrl());
    properties.put(SelfCheckItSimulation.STALL_MS, Long.toString(stallMs));
    properties.put("llm.resultsFolder", results.toString());
    GatlingRunner.Result result = GatlingRunner.run(SelfCheckItSimulation.class, results, properties);
    assertEquals(0, result.exitCode());
    try (Stream<Path> files = Files.list(result.runFolder())) {
      Path json = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
      return new ObjectMapper().readTree(json.toFile()).get("client_self_check");
    }
  }

  @Test
  void everyRunReportsItsOwnDistortion() throws IOException {
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(20)).itl(Duration.ofMillis(5)).build())) {
      JsonNode check = selfCheck(simulator, 0);
      int requests = GatlingRunner.captured().size();
      assertEquals(40, requests);
      assertEquals(requests, check.get("write_time_samples").asInt(), "one write time per request");
      assertTrue(check.get("loop_lag_samples").asInt() > 100, "every loop probed all run long");
      assertEquals(check.get("event_loops").asInt(), check.get("max_loop_lag_ms_per_loop").size());
      double cpu = check.get("cpu_percent_of_one_core").asDouble();
      assertTrue(cpu > 0 && cpu <= 100.0 * check.get("available_processors").asInt(), "cpu " + cpu);
      double window = check.get("window_ms").asDouble();
      assertTrue(window > 1_800 && window < 60_000, "the window is the run's: " + window);
      assertTrue(check.get("median_write_time_ms").asDouble() < check.get("window_ms").asDouble());
      // Surefire's JVM is not the tuned one: whatever it is, the JSON says what the check says.
      JvmCheck jvm = JvmCheck.thisJvm();
      assertEquals(jvm.verdict(), check.get("jvm").get("verdict").asText());
      assertEquals(jvm.differences().size(), check.get("jvm").get("differences").size());
      assertEquals(jvm.reading().gc(), check.get("jvm").get("gc").asText());
      // graded against the run's own figures: warnings only for a grade worse than good
      String grade = check.get("grade").asText();
      assertTrue(List.of("good", "fair", "distorted").contains(grade), grade);
      assertEquals(grade.equals("good"), check.get("warnings").isEmpty(), check.toString());
      if (jvm.ok() && check.get("p99_loop_lag_ms").asDouble() <= 1) {
        assertEquals("good", grade, check.toString());
      }
    }
  }

  @Test
  void aStalledEventLoopIsReportedAndTripsTheWarning() throws IOException {
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(20)).itl(Duration.ofMillis(5)).build())) {
      JsonNode check = selfCheck(simulator, 200);
      assertTrue(check.get("max_loop_lag_ms").asDouble() >= 190,
          "the 200 ms stall is seen: " + check.get("max_loop_lag_ms"));
      assertTrue(check.get("p99_loop_lag_ms").asDouble() > 1,
          "200 ms of a ~2.5 s run is more than 1 % of the time");
      // 200 ms in the tail of a run whose gaps are 5 ms: the worst grade, its cause named
      assertEquals("distorted", check.get("grade").asText(), check.toString());
      assertTrue(check.get("warnings").get(0).asText().startsWith("distorted: event-loop lag p99"),
          check.get("warnings").toString());
      assertTrue(check.get("grade_reason").asText().contains("of the run's ITL p50"),
          check.get("grade_reason").asText());
      JsonNode split = check.get("loop_lag_split");
      if (Files.isReadable(Path.of("/proc/thread-self/schedstat"))) {
        // The stall parks the loop's thread: its lag is not runnable, not running.
        assertTrue(split.get("not_runnable_ms").asDouble() >= 150, split.toString());
        assertTrue(split.get("lag_ms").asDouble() >= split.get("not_runnable_ms").asDouble()
            + split.get("running_ms").asDouble() - 0.002, split.toString()); // 3-decimal rounding
        assertTrue(check.get("warnings").toString().contains("% not runnable"),
            check.get("warnings").toString());
      } else {
        assertTrue(split.isNull(), "no scheduler figures here: " + split);
      }
    }
  }
}
