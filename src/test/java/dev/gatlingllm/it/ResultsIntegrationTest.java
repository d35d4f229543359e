package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.report.DetailedJsonVerifier;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * vLLM result files from real runs; a detailed one's aggregates are recomputed from its own
 * per-request arrays.
 */
@Timeout(120)
class ResultsIntegrationTest {

  private static Simulator simulator;

  @TempDir
  Path results;

  @BeforeAll
  static void start() {
    simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(30)).itl(Duration.ofMillis(4)).jitter(0.3).errorRate(0.1)
        .build());
  }

  @AfterAll
  static void stop() {
    simulator.close();
  }

  private GatlingRunner.Result run(Map<String, String> extra) {
    Map<String, String> properties = new java.util.HashMap<>(extra);
    properties.put(ResultsItSimulation.BASE_URL, simulator.baseUrl());
    properties.put("llm.resultsFolder", results.toString());
    return GatlingRunner.run(ResultsItSimulation.class, results, properties);
  }

  private static Path resultJson(Path runFolder) throws IOException {
    try (Stream<Path> files = Files.list(runFolder)) {
      List<Path> json = files.filter(p -> p.getFileName().toString().endsWith(".json")).toList();
      assertEquals(1, json.size(), "one result JSON in " + runFolder + ": " + json);
      return json.get(0);
    }
  }

  @Test
  void detailedResultOfARealRunAgreesWithItsOwnPerRequestArrays() throws IOException {
    GatlingRunner.Result result = run(Map.of(ResultsItSimulation.GOODPUT, "ttft:200 tpot:50"));
    assertEquals(0, result.exitCode());
    assertTrue(Files.exists(result.file("index.html")));
    Path json = resultJson(result.runFolder());
    String name = json.getFileName().toString();
    assertTrue(name.matches("it-infqps-served-llm-\\d{8}-\\d{6}\\.json"), name);

    JsonNode doc = new ObjectMapper().readTree(json.toFile());
    assertEquals(30, doc.get("completed").asInt() + doc.get("failed").asInt());
    assertEquals(3, doc.get("failed").asInt(), "10% of 30 requests get HTTP 500");
    assertEquals(30, doc.get("ttfts").size());
    assertEquals("gpt2", doc.get("tokenizer_id").asText(), "no counter set: GPT-2 counts");
    assertTrue(doc.get("request_goodput").isNumber());
    DetailedJsonVerifier.assertConsistent(json, Map.of("ttft", 200.0, "tpot", 50.0));
  }

  @Test
  void readmeChatJourneyRunsGreenWithItsAssertions() throws IOException {
    GatlingRunner.Result result = GatlingRunner.run(
        dev.gatlingllm.simulations.ChatJourneySimulation.class, results,
        Map.of("llm.resultsFolder", results.toString(), "llm.durationSeconds", "2"));
    assertEquals(0, result.exitCode(), "TTFT and goodput assertions hold against the simulator");
    // no after(): written once the run is over (at exit under gatling:test); here, now
    GatlingRunner.writeResults(dev.gatlingllm.simulations.ChatJourneySimulation.class, results);
    JsonNode doc = new ObjectMapper().readTree(resultJson(result.runFolder()).toFile());
    assertEquals(20, doc.get("completed").asInt(), "10 users x 2 turns");
    assertEquals("openai-chat", doc.get("endpoint_type").asText());
    assertEquals(20.0 / doc.get("duration").asDouble(), doc.get("request_goodput").asDouble(),
        1e-9, "every request met the SLOs");
  }

  @Test
  void missedGoodputFailsTheRunButKeepsTheReportAndTheJson() throws IOException {
    GatlingRunner.Result result = run(Map.of(
        ResultsItSimulation.GOODPUT, "ttft:1",
        ResultsItSimulation.MIN_GOODPUT_PERCENT, "90"));
    assertNotEquals(0, result.exitCode(), "a failed assertion makes Gatling exit non-zero");
    assertTrue(Files.exists(result.file("index.html")), "HTML report still written");
    JsonNode doc = new ObjectMapper().readTree(resultJson(result.runFolder()).toFile());
    assertEquals(0.0, doc.get("request_goodput").asDouble(), "no request meets a 1 ms TTFT");
  }
}
