package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets never leave memory: a run with an API key in {@code OPENAI_API_KEY} and a custom
 * auth header, every output switched on, in a JVM of its own as {@code gatling:test} runs
 * it. The server gets both; no file the run writes (simulation.log, Gatling's report, the
 * result JSON, the LLM report, the record log) and nothing on the console contains either.
 */
@Timeout(180)
class SecretsIntegrationTest {

  private static final String ENV_KEY = "sk-env-9d41c7e2b05a3f68";
  private static final String HEADER_KEY = "hdr-key-3b8f0e6d2a91c457";

  @TempDir
  Path work;

  @Test
  void noFileTheRunWritesAndNothingOnTheConsoleHoldsASecret() throws Exception {
    Path results = Files.createDirectories(work.resolve("results"));
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).recordRequests(true).build())) {
      ForkedGatling.Result run = ForkedGatling.run(SecretsItSimulation.class, results,
          Map.of(SecretsItSimulation.BASE_URL, simulator.baseUrl(),
              SecretsItSimulation.API_KEY_HEADER, HEADER_KEY),
          Map.of("OPENAI_API_KEY", ENV_KEY), work.resolve("console.txt"));
      assertEquals(0, run.exitCode(), run.output());

      // Both secrets were really sent, so their absence below means something.
      List<RecordedRequest> received = simulator.recordedRequests().stream()
          .filter(r -> r.path().endsWith("/v1/completions")).toList();
      assertTrue(received.size() >= 4, "completions received: " + received.size());
      RecordedRequest last = received.get(received.size() - 1);
      assertEquals("Bearer " + ENV_KEY, last.header("authorization"));
      assertEquals(HEADER_KEY, last.header("x-api-key"));

      List<Path> files = new ArrayList<>();
      try (Stream<Path> all = Files.walk(results)) {
        all.filter(Files::isRegularFile).forEach(files::add);
      }
      List<String> names = files.stream().map(p -> p.getFileName().toString()).toList();
      for (String expected : List.of("simulation.log", "index.html", "llm-report.html",
          "llm-records.bin")) {
        assertTrue(names.contains(expected), "the run wrote " + expected + ": " + names);
      }
      assertTrue(names.stream().anyMatch(n -> n.startsWith("secrets-") && n.endsWith(".json")),
          "the result JSON: " + names);
      for (Path file : files) {
        String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        assertFalse(text.contains(ENV_KEY), "the API key is in " + file);
        assertFalse(text.contains(HEADER_KEY), "the header's key is in " + file);
      }
      assertFalse(run.output().contains(ENV_KEY), "the API key is on the console");
      assertFalse(run.output().contains(HEADER_KEY), "the header's key is on the console");
    }
  }
}
