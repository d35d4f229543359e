package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.sim.ServerState;
import dev.gatlingllm.internal.sim.SimTokens;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The KV-cache and prefix-cache metrics, under the names vLLM serves them. */
class SimulatorVllmMetricsTest {

  private static final String LABEL = "{model_name=\"sim-model\"}";

  private static double value(String text, String name) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name + LABEL) + " (\\S+)$").matcher(text);
    assertTrue(m.find(), name + " in\n" + text);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void aRepeatedPromptHitsThePrefixCacheForItsWholeBlocks() {
    try (Simulator sim = Simulator.start(SimulatorConfig.builder()
            .ttft(Duration.ofMillis(1)).itl(Duration.ZERO).build());
        TestClient c = new TestClient(sim.port())) {
      String prompt = "alpha beta gamma delta ".repeat(9); // 207 characters: 3 whole blocks
      int tokens = SimTokens.countPromptTokens(prompt);
      String body = "{\"prompt\":\"" + prompt + "\",\"max_tokens\":2,\"stream\":true}";
      c.post("/v1/completions", body);
      String first = c.get("/metrics").body();
      assertEquals(tokens, value(first, "vllm:prefix_cache_queries_total"));
      assertEquals(0, value(first, "vllm:prefix_cache_hits_total"), "nothing cached yet");

      c.post("/v1/completions", body);
      String second = c.get("/metrics").body();
      assertEquals(2 * tokens, value(second, "vllm:prefix_cache_queries_total"));
      assertEquals(Math.round(tokens * 192.0 / prompt.length()),
          value(second, "vllm:prefix_cache_hits_total"), "the three 64-character blocks hit");
      assertTrue(second.contains("# TYPE vllm:prefix_cache_hits_total counter\n"), second);
    }
  }

  @Test
  void kvCacheUsageCountsTheTokensOfRunningRequestsOnly() throws Exception {
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().maxRunning(1)
            .ttft(Duration.ofMillis(800)).itl(Duration.ZERO).build());
        TestClient a = new TestClient(sim.port());
        TestClient b = new TestClient(sim.port());
        TestClient probe = new TestClient(sim.port())) {
      String body = "{\"prompt\":[1,2,3,4,5,6,7,8,9,10],\"max_tokens\":1014,\"stream\":true}";
      a.write("POST", "/v1/completions", body, Map.of());
      b.write("POST", "/v1/completions", body, Map.of());
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (sim.waiting() < 1 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      String text = probe.get("/metrics").body();
      assertEquals(1, value(text, "vllm:num_requests_running"));
      assertEquals(1, value(text, "vllm:num_requests_waiting"));
      double expected = 1024.0 / ServerState.KV_CACHE_TOKENS;
      assertEquals(expected, value(text, "vllm:kv_cache_usage_perc"), 1e-12,
          "the running request's 10 + 1014 tokens; the queued one holds none");
      assertEquals(expected, value(text, "vllm:gpu_cache_usage_perc"), 1e-12);
    }
  }
}
