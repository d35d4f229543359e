package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatlingllm.internal.metrics.MetricFixtures;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.report.ReportOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DetailedJsonVerifierTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Three requests worked out by hand. ttfts of the successes 0.1 and 0.3 s: mean 200,
   * median 200, std 100, p99 = 100 + 0.99 * 200 = 298 ms. One ITL each (0.05, 0.25):
   * mean 150, p50 150. TPOT (output 2): (0.15 - 0.1) / 1 = 50 ms and (0.55 - 0.3) = 250 ms.
   * Tokens: request 0 at 0.1, 0.15 s; request 1 starts 1.0 s, tokens 1.3, 1.55 s: buckets
   * 0 and 1 hold 2 each; request 1 spans buckets 1 only, request 0 bucket 0: peak 1.
   */
  private static final String HAND_MADE = """
      {"duration": 2.0, "completed": 2, "failed": 1, "total_input_tokens": 30,
       "total_output_tokens": 4, "request_throughput": 1.0, "request_goodput": 0.5,
       "output_throughput": 2.0, "total_token_throughput": 17.0,
       "input_lens": [10, 20, 99], "output_lens": [2, 2, 0], "ttfts": [0.1, 0.3, 0.0],
       "itls": [[0.05], [0.25], []], "latencies": [0.15, 0.55, 0.0],
       "start_times": [0.0, 1.0, 1.5], "generated_texts": ["a b", "c d", ""],
       "errors": ["", "", "HTTP 500"],
       "max_output_tokens_per_s": 2.0, "max_concurrent_requests": 1,
       "mean_ttft_ms": 200.0, "median_ttft_ms": 200.0, "std_ttft_ms": 100.0,
       "p99_ttft_ms": 298.0, "mean_tpot_ms": 150.0, "median_tpot_ms": 150.0,
       "std_tpot_ms": 100.0, "p99_tpot_ms": 248.0, "mean_itl_ms": 150.0, "median_itl_ms": 150.0,
       "std_itl_ms": 100.0, "p50_itl_ms": 150.0, "mean_e2el_ms": 350.0,
       "median_e2el_ms": 350.0, "std_e2el_ms": 200.0, "p99.9_e2el_ms": 549.6}
      """;

  @TempDir
  Path dir;

  @Test
  void acceptsAHandComputedFile() throws Exception {
    DetailedJsonVerifier.Verification v = DetailedJsonVerifier.verify(JSON.readTree(HAND_MADE),
        Map.of("tpot", 100.0), 1e-9);
    assertTrue(v.ok(), String.join("\n", v.mismatches()));
    assertEquals(26, v.checked().size(), v.checked().toString());
  }

  @Test
  void reportsEachFigureThatDisagrees() throws Exception {
    ObjectNode doc = (ObjectNode) JSON.readTree(HAND_MADE);
    doc.put("p99_ttft_ms", 298.001);
    doc.put("max_concurrent_requests", 2);
    DetailedJsonVerifier.Verification v =
        DetailedJsonVerifier.verify(doc, Map.of("tpot", 100.0), 1e-9);
    assertEquals(2, v.mismatches().size(), v.mismatches().toString());
    assertTrue(v.mismatches().get(0).startsWith("max_concurrent_requests"));
    assertTrue(v.mismatches().get(1).startsWith("p99_ttft_ms: recomputed 298.0"));
  }

  @Test
  void refusesANonDetailedFile() throws Exception {
    Path file = Files.writeString(dir.resolve("plain.json"), "{\"duration\": 1.0}");
    AssertionError e = assertThrows(AssertionError.class,
        () -> DetailedJsonVerifier.assertConsistent(file, null));
    assertTrue(e.getMessage().contains("not a detailed result"), e.getMessage());
  }

  @Test
  void agreesWithOurDetailedOutputForAMessyRun() throws Exception {
    String name = "random-200";
    List<RequestRecord> records = MetricFixtures.records(name);
    ResultOptions opts = ResultOptionsAccess.goodput(ResultOptions.builder()
        .detailed(true)
        .append(true)
        .resultFilename("random.json")
        .percentileMetrics("ttft,tpot,itl,e2el")
        .metricPercentiles(MetricFixtures.percentiles(name)), MetricFixtures.goodput(name))
        .printSummary(false)
        .build();
    long start = records.stream().mapToLong(RequestRecord::startNanos).min().getAsLong() - 1234;
    RunInfo run = RunInfo.builder("m").build();
    ReportOutcome out = null;
    for (int i = 0; i < 2; i++) {
      out = RunReporter.report(run, RecordSource.of(records), opts, dir, MetricFixtures.WORDS,
          OptionalLong.of(start), Goldens.CLOCK, System.out);
      assertTrue(out.ok(), out.error());
    }
    DetailedJsonVerifier.assertConsistent(out.resultFile(),
        MetricFixtures.goodput(name).asMap());
    JsonNode doc = JSON.readTree(Files.readAllLines(out.resultFile()).get(1));
    DetailedJsonVerifier.Verification v =
        DetailedJsonVerifier.verify(doc, MetricFixtures.goodput(name).asMap(), 1e-9);
    assertEquals(38, v.checked().size(), v.checked().toString());
  }

  @Test
  void agreesWithOurDetailedEmbeddingOutput() throws Exception {
    ReportOutcome out = RunReporter.report(Goldens.run("embedding"),
        RecordSource.of(MetricFixtures.records("embedding")),
        ResultOptions.builder().detailed(true).metricPercentiles(50, 99).printSummary(false)
            .build(), dir, null, OptionalLong.of(-7), Goldens.CLOCK, System.out);
    DetailedJsonVerifier.assertConsistent(out.resultFile(), null);
  }
}
