package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link BenchmarkMetrics#value} is what CI gates read by vLLM's JSON key: every key must
 * give its own figure. Two requests with round numbers make each figure distinct.
 */
class ResultValuesByKeyTest {

  private static final long MS = 1_000_000L;

  // A: start 0, TTFT 100 ms, chunks at 100/300/600 ms, 3 tokens usage, prompt 10.
  // B: start 500 ms, TTFT 200 ms, chunks at 200/400 ms, 2 tokens usage, prompt 6.
  // C: failed.
  private static final List<RequestRecord> RECORDS = List.of(
      RequestRecord.builder("a").startNanos(0).ttftNanos(100 * MS).latencyNanos(600 * MS)
          .endNanos(600 * MS).chunkMicros(new int[] {100_000, 300_000, 600_000}).promptTokens(10)
          .outputTokens(3).httpStatus(200).success(true).generatedText("x y z").build(),
      RequestRecord.builder("b").startNanos(500 * MS).ttftNanos(200 * MS).latencyNanos(400 * MS)
          .endNanos(900 * MS).chunkMicros(new int[] {200_000, 400_000}).promptTokens(6)
          .outputTokens(2).httpStatus(200).success(true).generatedText("x y").build(),
      RequestRecord.builder("c").startNanos(600 * MS).endNanos(700 * MS).promptTokens(4)
          .httpStatus(500).error("HTTP 500: boom").build());

  private static final BenchmarkMetrics M = MetricsCalculator.builder()
      .percentiles(50, 99.9).goodput(GoodputSlo.parse("ttft:150"))
      .build().compute(RECORDS, 2.0);

  private static double value(String key) {
    return M.value(key).orElseThrow(() -> new AssertionError("no value for " + key));
  }

  @Test
  void runFigures() {
    assertEquals(2.0, value("duration"));
    assertEquals(2.0, value("completed"));
    assertEquals(1.0, value("failed"));
    assertEquals(16.0, value("total_input_tokens"), "failed requests' prompts do not count");
    assertEquals(5.0, value("total_output_tokens"));
    assertEquals(1.0, value("request_throughput"));
    assertEquals(0.5, value("request_goodput"), "only A meets ttft <= 150 ms");
    assertEquals(2.5, value("output_throughput"));
    assertEquals(10.5, value("total_token_throughput"));
    assertEquals(3.0, M.requestCount());
  }

  @Test
  void peakFigures() {
    // bucket 0 (0-1 s) holds all five chunks; both requests overlap in it
    assertEquals(5.0, value("max_output_tokens_per_s"));
    assertEquals(2.0, value("max_concurrent_requests"));
  }

  @Test
  void distributionFiguresByStatisticAndMetric() {
    assertEquals(150.0, value("mean_ttft_ms"), 1e-9);
    assertEquals(150.0, value("median_ttft_ms"), 1e-9);
    assertEquals(50.0, value("std_ttft_ms"), 1e-9);
    // E2EL: 600 and 400 ms
    assertEquals(500.0, value("mean_e2el_ms"), 1e-9);
    assertEquals(599.8, value("p99.9_e2el_ms"), 1e-9);
    assertEquals(500.0, value("p50_e2el_ms"), 1e-9);
    // TPOT: A (600-100)/2 = 250 ms, B (400-200)/1 = 200 ms
    assertEquals(225.0, value("mean_tpot_ms"), 1e-9);
    // ITL: 200, 300 (A) and 200 (B) ms
    assertEquals(200.0, value("median_itl_ms"), 1e-9);
    assertSame(M.e2el(), M.distribution(Metric.E2EL));
  }

  @Test
  void unknownOrUncomputedKeysAreEmpty() {
    assertFalse(M.value("p90_ttft_ms").isPresent(), "90 was not requested");
    assertFalse(M.value("mean_ttft").isPresent(), "no _ms suffix");
    assertFalse(M.value("mean_foo_ms").isPresent(), "no such metric");
    assertFalse(M.value("max_ttft_ms").isPresent(), "no such statistic");
    assertFalse(MetricsCalculator.builder().build().compute(RECORDS, 2.0)
        .value("request_goodput").isPresent(), "no SLOs, no goodput");
  }

  @Test
  void outputLengthsFollowTheSourceOrderWithZeroForFailures() {
    assertEquals(3, M.outputLen(0));
    assertEquals(2, M.outputLen(1));
    assertEquals(0, M.outputLen(2));
  }
}
