package dev.gatlingllm.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.protocol.RunResults;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.StrictServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gatling-llm bench serve --gpu-metrics-url} against the strict simulator's two GPUs
 * ({@code /dcgm/metrics}) and an endpoint that is not there: the run passes, {@code gpu_energy}
 * holds energy that follows the load, its figures per token, and the missing endpoint as a
 * warning; the summary and the LLM report show it.
 */
@Timeout(180)
class GpuEnergyIntegrationTest {

  private static final double IDLE = 70;
  private static final double PER_REQUEST = 25;

  @TempDir
  Path dir;

  @Test
  void theRunsGpuEnergyIsScrapedOverItsWindowAndReportedPerToken() throws Exception {
    Path results = dir.resolve("results");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    PrintStream before = System.out;
    int status;
    String base;
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(10)).gpus(2).gpuIdleWatts(IDLE).gpuWattsPerRequest(PER_REQUEST)
        .build())) {
      base = sim.baseUrl();
      System.setProperty(RunResults.RESULTS_FOLDER_PROPERTY, results.toString());
      System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
      try {
        status = GatlingLlm.run(new String[] {"bench", "serve", "--base-url", base,
            "--model", "served-llm", "--tokenizer", "gpt2", "--dataset-name", "random",
            "--random-input-len", "16", "--random-output-len", "20", "--num-prompts", "12",
            "--max-concurrency", "4", "--seed", "1", "--save-result",
            "--result-filename", "result.json",
            "--gpu-metrics-url", base + "/dcgm/metrics",
            "--gpu-metrics-url", base + "/no-exporter-here"}, System.out, System.err);
      } finally {
        System.setOut(before);
        System.clearProperty(RunResults.RESULTS_FOLDER_PROPERTY);
      }
    }
    String text = console.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, "a missing exporter is a warning, never a failed run: " + text);
    Path run;
    try (Stream<Path> folders = Files.list(results)) {
      run = folders.filter(p -> p.getFileName().toString().startsWith("benchserve-"))
          .findFirst().orElseThrow();
    }
    JsonNode result = new ObjectMapper().readTree(run.resolve("result.json").toFile());
    assertEquals(12, result.get("completed").asInt());
    long tokens = result.get("total_output_tokens").asLong();
    assertEquals(240, tokens);

    JsonNode e = result.get("gpu_energy");
    assertEquals(2, e.get("gpu_count").asInt(), e.toString());
    assertEquals("ok", e.at("/endpoints/0/status").asText());
    assertEquals(base + "/dcgm/metrics", e.at("/endpoints/0/endpoint").asText());
    assertEquals("disabled: HTTP 404", e.at("/endpoints/1/status").asText());
    assertEquals(base + "/no-exporter-here: disabled: HTTP 404", e.at("/warnings/0").asText());
    assertEquals(1, e.get("warnings").size(), e.toString());

    double window = e.get("window_s").asDouble();
    double total = 0;
    for (JsonNode g : e.get("gpus")) {
      assertEquals("counter", g.get("energy_source").asText());
      assertEquals("sim", g.get("hostname").asText());
      double joules = g.get("energy_j").asDouble();
      total += joules;
      // never below idle over the window; above it by 25 W per request running: 12 requests
      // of at least 19 gaps of 10 ms ran 2.28 request-seconds, most of them inside the
      // window (it opens at the first send); at most 4 ran at once
      assertTrue(joules >= IDLE * window - 0.01, joules + " J in " + window + " s");
      assertTrue(joules >= IDLE * window + PER_REQUEST * 1.5, joules + " J in " + window + " s");
      assertTrue(joules <= (IDLE + 4 * PER_REQUEST) * window + 0.01, joules + " J");
      double peak = g.get("peak_power_w").asDouble();
      double avg = g.get("avg_power_w").asDouble();
      assertTrue(avg >= IDLE && avg <= peak && peak <= IDLE + 4 * PER_REQUEST, g.toString());
      assertEquals(g.get("time_s").size(), g.get("power_w").size());
    }
    assertEquals(total, e.get("energy_j").asDouble(), 0.01);
    double energy = e.get("energy_j").asDouble();
    assertEquals(energy / tokens, e.get("joules_per_output_token").asDouble(), 1e-9);
    assertEquals(tokens / energy, e.get("output_tokens_per_joule").asDouble(), 1e-9);

    assertTrue(text.contains("=================== GPU Energy ===================\n"), text);
    assertTrue(text.contains("Warning: " + base + "/no-exporter-here: disabled: HTTP 404"), text);
    String report = Files.readString(run.resolve("llm-report.html"));
    assertTrue(report.contains("\"output_tokens_per_joule\""), "the LLM report has the block");
  }
}
