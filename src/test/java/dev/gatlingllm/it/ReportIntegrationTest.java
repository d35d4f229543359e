package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.report.Compare;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real runs against the simulator: the LLM report next to Gatling's, holding the result
 * JSON's own figures and the server's metrics scraped during the run, and two runs compared.
 */
@Timeout(120)
class ReportIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern DATA =
      Pattern.compile("<script type=\"application/json\" id=\"llm-data\">(.*?)</script>",
          Pattern.DOTALL);
  private static final String SECRET = "s3cret-token-never-written";
  private static Simulator simulator;

  @TempDir
  Path results;

  @BeforeAll
  static void start() {
    simulator = Simulator.start(StrictServer.builder().maxRunning(8)
        .ttft(Duration.ofMillis(30)).itl(Duration.ofMillis(10)).errorRate(0.1).build());
  }

  @AfterAll
  static void stop() {
    simulator.close();
  }

  private GatlingRunner.Result run(Map<String, String> extra) {
    Map<String, String> properties = new HashMap<>(extra);
    properties.put(ResultsItSimulation.BASE_URL, simulator.baseUrl());
    properties.put(ResultsItSimulation.USERS, "40");
    properties.put("llm.resultsFolder", results.toString());
    return GatlingRunner.run(ResultsItSimulation.class, results, properties);
  }

  private static JsonNode resultJson(Path runFolder) throws IOException {
    try (Stream<Path> files = Files.list(runFolder)) {
      Path json = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
      return JSON.readTree(json.toFile());
    }
  }

  private static JsonNode embedded(Path html) throws IOException {
    Matcher m = DATA.matcher(Files.readString(html));
    assertTrue(m.find(), "data in " + html);
    return JSON.readTree(m.group(1));
  }

  @Test
  void theReportHoldsTheResultsFiguresAndTheServersMetrics() throws IOException {
    GatlingRunner.Result result = run(Map.of(ResultsItSimulation.GOODPUT, "ttft:200 tpot:50",
        ResultsItSimulation.HEADER, "Authorization:Bearer " + SECRET));
    assertEquals(0, result.exitCode());
    assertTrue(Files.exists(result.file("index.html")));
    Path report = result.file("llm-report.html");
    assertTrue(Files.exists(report), "the LLM report sits next to Gatling's");

    JsonNode json = resultJson(result.runFolder());
    JsonNode data = embedded(report);
    JsonNode headline = data.get("result");
    for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      // the detailed result's own keys; the report draws the phases from the records
      if (List.of("input_lens", "output_lens", "ttfts", "itls", "latencies", "start_times",
          "generated_texts", "errors", "request_phases").contains(e.getKey())) {
        assertFalse(headline.has(e.getKey()), "no per-request array in the headline");
        continue;
      }
      assertEquals(e.getValue(), headline.get(e.getKey()), e.getKey() + " as in the JSON");
    }
    assertEquals(40, data.get("timeline").get("rows").size());
    assertEquals(json.get("completed").asInt(), data.at("/hist/e2el/count").asInt());
    assertEquals(json.get("failed").asInt(), data.at("/failures/0/count").asInt(),
        "one reason: the injected HTTP 500");

    JsonNode server = json.get("server_metrics");
    assertNotNull(server, "the vllm backend scrapes /metrics by default");
    assertEquals("ok", server.get("status").asText());
    assertEquals(simulator.baseUrl() + "/metrics", server.get("endpoint").asText());
    int samples = server.get("time_s").size();
    assertTrue(samples >= 1, "scraped during the run: " + server);
    assertEquals(samples, server.get("num_requests_running").size());
    assertEquals(samples, server.get("kv_cache_usage_perc").size());
    assertTrue(server.get("kv_cache_usage_perc").get(0).isNumber(), server.toString());
    double maxRunning = 0;
    for (JsonNode v : server.get("num_requests_running")) {
      maxRunning = Math.max(maxRunning, v.asDouble());
    }
    assertTrue(maxRunning <= 8, "the simulator runs at most 8 at once: " + maxRunning);
    assertEquals(server, headline.get("server_metrics"), "the report charts the JSON's series");

    assertFalse(Files.readString(report).contains(SECRET), "no secret in the report");
    try (Stream<Path> files = Files.list(result.runFolder())) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
        assertFalse(Files.readString(f).contains(SECRET), "no secret in " + f);
      }
    }
  }

  @Test
  void anEndpointThatIsNotThereIsDroppedAndTwoRunsCompare() throws IOException {
    GatlingRunner.Result first = run(Map.of(ResultsItSimulation.SERVER_METRICS, "/no-metrics"));
    assertEquals(0, first.exitCode());
    JsonNode server = resultJson(first.runFolder()).get("server_metrics");
    assertEquals("disabled: HTTP 404", server.get("status").asText());
    assertEquals(0, server.get("time_s").size());

    GatlingRunner.Result second = run(Map.of());
    Path page = Compare.write(List.of(first.runFolder(), second.runFolder()),
        results.resolve("compare.html"));
    JsonNode runs = embedded(page).get("runs");
    assertEquals(2, runs.size());
    assertEquals(resultJson(first.runFolder()).get("output_throughput"),
        runs.get(0).at("/result/output_throughput"));
    assertEquals(resultJson(second.runFolder()).get("p99_ttft_ms"),
        runs.get(1).at("/result/p99_ttft_ms"));
    assertTrue(runs.get(1).has("hist") && runs.get(1).has("overTime"));
  }
}
