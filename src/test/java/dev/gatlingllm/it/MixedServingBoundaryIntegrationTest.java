package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.report.LlmReport;
import dev.gatlingllm.internal.report.PageLayout;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.testing.TeeOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * vLLM's README command line for {@code mixed_serving_boundary}, pasted into the drop-in
 * against the simulator (fewer prompts): the result JSON has {@code request_class_metrics}
 * with the three classes, their counts add up to {@code --num-prompts}, each class's tokens
 * are its defaults (the simulator answers max_tokens exactly), and the LLM report has the
 * per-class table (checked in Chromium when one is installed; the console section is
 * {@code ClassReportTest}'s).
 */
@Timeout(240)
class MixedServingBoundaryIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PROMPTS = 9;

  @TempDir
  Path results;

  @Test
  void theResultSplitsTheFiguresByRequestClass() throws Exception {
    GatlingRunner.Result result;
    String console;
    PrintStream original = System.out;
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    System.setOut(new PrintStream(new TeeOutputStream(original, copy), true,
        StandardCharsets.UTF_8));
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofNanos(200_000)).build())) {
      String args = "--model served-llm --tokenizer datasets/tokenizers/gpt2"
          + " --base-url " + simulator.baseUrl() + " --dataset-name mixed_serving_boundary"
          + " --num-prompts " + PROMPTS + " --request-rate 20 --save-result --save-detailed"
          + " --result-dir " + results + " --metric-percentiles 50,99 --disable-tqdm";
      result = GatlingRunner.run(BenchServe.class, results, Map.of(
          CommandLine.ARGS_PROPERTY, args, "llm.resultsFolder", results.toString()));
    } finally {
      Thread.interrupted();
      System.setOut(original);
      console = copy.toString(StandardCharsets.UTF_8);
    }
    assertEquals(0, result.exitCode(), console);

    JsonNode doc = JSON.readTree(resultFile().toFile());
    JsonNode classes = doc.get("request_class_metrics");
    assertNotNull(classes, doc.toString());
    List<String> names = new ArrayList<>();
    classes.fieldNames().forEachRemaining(names::add);
    assertEquals(List.of("long_decode", "long_prefill", "shared_prefix"), names);
    int requests = 0;
    for (String name : names) {
      JsonNode c = classes.get(name);
      assertEquals(PROMPTS / 3, c.get("requests").asInt(), name);
      assertEquals(0, c.get("failed").asInt(), name);
      requests += c.get("requests").asInt();
      assertTrue(c.get("mean_ttft_ms").asDouble() > 0, name);
      assertTrue(c.get("ttft_percentiles_ms").has("p99"), name);
      assertTrue(c.get("e2el_percentiles_ms").has("p50"), name);
    }
    assertEquals(PROMPTS, requests, "the classes' counts add up to --num-prompts");
    assertEquals(doc.get("completed").asInt(), requests);
    // the defaults: shared 1024 + 128 -> 128, long prefill 4096 -> 32, long decode 64 -> 1024
    assertEquals(3 * 1024, classes.get("long_decode").get("total_output_tokens").asLong());
    assertEquals(3 * 32, classes.get("long_prefill").get("total_output_tokens").asLong());
    assertEquals(4096.0, classes.get("long_prefill").get("mean_input_tokens").asDouble(), 1.0);
    assertEquals(1152.0, classes.get("shared_prefix").get("mean_input_tokens").asDouble(), 1.0);
    assertEquals(64.0, classes.get("long_decode").get("mean_input_tokens").asDouble(), 1.0);
    long classInput = 0;
    for (String name : names) {
      classInput += classes.get(name).get("total_input_tokens").asLong();
    }
    assertEquals(doc.get("total_input_tokens").asLong(), classInput);
    assertTrue(classes.get("long_decode").get("mean_e2el_ms").asDouble()
        > classes.get("long_prefill").get("mean_e2el_ms").asDouble(),
        "1024 tokens out take longer than 32: " + classes);

    Path page = result.runFolder().resolve(LlmReport.FILE_NAME);
    Optional<Path> chromium = PageLayout.chromium();
    if (chromium.isPresent()) {
      try (PageLayout browser = PageLayout.start(chromium.get())) {
        String table = browser.text(page, "#per-class-table");
        assertTrue(table.contains("\nlong_decode\t3\t0\t64\t1,024\t"), table);
        assertTrue(table.contains("\nshared_prefix\t3\t0\t"), table);
        PageLayout.Findings f = browser.inspect(page, 800, null, null);
        assertEquals(List.of(), f.problems(), "the report with its per-class table at 800 px");
      }
    }
  }

  private Path resultFile() throws Exception {
    try (Stream<Path> files = Files.list(results)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".json")).findFirst()
          .orElseThrow(() -> new AssertionError("no result JSON in " + results));
    }
  }
}
