package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.selfcheck.JvmSettings;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run checking its own JVM, in JVMs forked as {@code gatling:test} forks them: with the
 * settings the timings need, with the serial collector instead of the parallel one, and with
 * that in strict mode.
 */
class JvmCheckIntegrationTest {

  private static final Pattern OK_LINE = Pattern.compile("(?m)^JVM settings: C1 only,"
      + " ParallelGC, heap 1024 MB fixed \\(young 64 MB\\), metaspace 256 MB, early compilation"
      + " 0.02, Netty leak detection disabled: ok$");

  @TempDir
  Path work;

  private ForkedGatling.Result run(List<String> jvmArgs, Map<String, String> properties,
      Simulator simulator) throws IOException, InterruptedException {
    Map<String, String> all = new java.util.HashMap<>(properties);
    all.put(ResultsItSimulation.BASE_URL, simulator.baseUrl());
    all.put(ResultsItSimulation.USERS, "3");
    return ForkedGatling.run(ResultsItSimulation.class, work.resolve("results"), jvmArgs, all,
        Map.of(), work.resolve("gatling.out"));
  }

  private static Simulator simulator() throws IOException {
    return Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).build());
  }

  private JsonNode jvmInTheResult() throws IOException {
    try (Stream<Path> files = Files.walk(work.resolve("results"))) {
      Path json = files.filter(p -> p.getFileName().toString().startsWith("it-")
          && p.toString().endsWith(".json")).findFirst().orElseThrow();
      return new ObjectMapper().readTree(json.toFile()).get("client_self_check").get("jvm");
    }
  }

  @Test
  void theSettingsTheTimingsNeedReadOkOnTheConsoleAndInTheResult() throws Exception {
    try (Simulator simulator = simulator()) {
      ForkedGatling.Result run = run(JvmSettings.jvmArgs(), Map.of(), simulator);
      String log = run.output();

      assertEquals(0, run.exitCode(), log);
      assertTrue(OK_LINE.matcher(log).find(), log);
      assertTrue(!log.contains("settings differ"), log);
      JsonNode jvm = jvmInTheResult();
      assertEquals("ok", jvm.get("verdict").asText());
      assertEquals(0, jvm.get("differences").size());
      assertEquals("C1 only", jvm.get("compiler").asText());
      assertEquals("ParallelGC", jvm.get("gc").asText());
      assertEquals(1024.0, jvm.get("initial_heap_mb").asDouble());
      assertEquals(1024.0, jvm.get("max_heap_mb").asDouble());
      assertEquals(64.0, jvm.get("young_mb").asDouble());
      assertFalse(jvm.get("always_pre_touch").asBoolean());
      assertEquals(1.0, jvm.get("compile_threshold_scaling").asDouble(), "the JVM's own");
      for (String pkg : List.of("dev.gatlingllm", "io.netty", "io.gatling", "scala",
          "com.fasterxml.jackson")) {
        assertEquals(0.02, jvm.get("early_compilation").get(pkg).asDouble(), pkg);
      }
      assertEquals(256.0, jvm.get("metaspace_size_mb").asDouble());
      assertEquals("disabled", jvm.get("netty_leak_detection").asText());
      try (Stream<Path> files = Files.walk(work.resolve("results"))) {
        Path report = files.filter(p -> p.endsWith("llm-report.html")).findFirst().orElseThrow();
        assertTrue(Files.readString(report).contains(jvm.toString()),
            "the LLM report has the JVM's settings and verdict");
      }
    }
  }

  @Test
  void aSettingThatDiffersIsWarnedOnceBeforeTheRunAndRecorded() throws Exception {
    List<String> serial = new ArrayList<>(JvmSettings.jvmArgs());
    serial.set(serial.indexOf("-XX:+UseParallelGC"), "-XX:+UseSerialGC");
    try (Simulator simulator = simulator()) {
      ForkedGatling.Result run = run(serial, Map.of(), simulator);
      String log = run.output();

      assertEquals(0, run.exitCode(), log);
      String difference = "GC: SerialGC, needs ParallelGC (-XX:+UseParallelGC)";
      int warning = log.indexOf("  - " + difference + "\n");
      assertTrue(warning >= 0, log);
      assertEquals(warning, log.lastIndexOf("  - " + difference + "\n"), "warned once: " + log);
      assertTrue(log.indexOf(JvmSettings.mavenBlock()) > warning, "then the block: " + log);
      int line = log.indexOf("JVM settings: C1 only, SerialGC, ");
      assertTrue(line > warning, log);
      assertTrue(log.startsWith(": 1 differs from what the timings need (see above)\n",
          log.indexOf(", Netty leak detection disabled", line) + 31), log);
      // before the run: before Gatling's first console summary of it
      assertTrue(line < log.indexOf("---- Requests"), log);
      JsonNode jvm = jvmInTheResult();
      assertEquals("differs", jvm.get("verdict").asText());
      assertEquals("[\"" + difference + "\"]", jvm.get("differences").toString());
      assertEquals("SerialGC", jvm.get("gc").asText());
    }
  }

  @Test
  void strictModeRefusesTheRunBeforeAnyRequest() throws Exception {
    try (Simulator simulator = simulator()) {
      ForkedGatling.Result run = run(List.of("-XX:+UseSerialGC"), Map.of("llm.strictJvm", "true"),
          simulator);
      String log = run.output();

      assertNotEquals(0, run.exitCode(), log);
      assertTrue(log.contains("-Dllm.strictJvm=true: refusing the run, this JVM's settings"
          + " differ from what the client's timings need: "), log);
      assertTrue(log.contains("GC: SerialGC, needs ParallelGC (-XX:+UseParallelGC)"), log);
      assertEquals(0L, simulator.requestsReceived(), "nothing was sent, not even the warm-up");
    }
  }
}
