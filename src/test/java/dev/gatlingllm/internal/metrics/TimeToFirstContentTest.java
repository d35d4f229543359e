package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * TTFC (time to the first answer chunk, after the reasoning) over hand-built records; the
 * expected figures are worked out by hand below, numpy's way (population std, linear
 * percentiles).
 */
class TimeToFirstContentTest {

  private static final long MS = 1_000_000;

  /** A successful request: TTFT 50 ms, chunks every 10 ms, TTFC as given (-1: none). */
  private static RequestRecord reasoning(long startNanos, long ttfcMs, int reasoningChunks) {
    int[] chunks = {50_000, 60_000, 70_000, 80_000, 90_000};
    return RequestRecord.builder("r").startNanos(startNanos).ttftNanos(50 * MS)
        .latencyNanos(90 * MS).endNanos(startNanos + 95 * MS).chunkMicros(chunks).promptTokens(10)
        .usagePromptTokens(10).outputTokens(5).httpStatus(200).success(true).generatedText("answer")
        .requestId("id").ttfcNanos(ttfcMs < 0 ? -1 : ttfcMs * MS).reasoningChunks(reasoningChunks)
        .build();
  }

  @Test
  void ttfcIsComputedOverRequestsThatReachedTheirAnswer() {
    List<RequestRecord> records = List.of(
        reasoning(0, 120, 3),
        reasoning(5 * MS, 300, 4),
        reasoning(9 * MS, -1, 5), // reasoned until the budget ran out: no TTFC
        failed());
    BenchmarkMetrics m = MetricsCalculator.builder().percentiles(50, 99).build()
        .compute(records, 1.0);
    Distribution d = m.ttfc().orElseThrow();
    // samples 120, 300: mean 210, median 210, std |300 - 210| = 90,
    // p99 = 120 + 0.99 * (300 - 120) = 298.2
    assertEquals(210.0, d.mean(), 1e-9);
    assertEquals(210.0, d.median(), 1e-9);
    assertEquals(90.0, d.std(), 1e-9);
    assertEquals(298.2, m.value("p99_ttfc_ms").getAsDouble(), 1e-9);
    assertEquals(210.0, m.value("p50_ttfc_ms").getAsDouble(), 1e-9);
    // reasoning chunks are ordinary chunks for TTFT: all three TTFTs are 50 ms
    assertEquals(50.0, m.ttft().mean(), 1e-9);
    // and so for ITL: 4 gaps of 10 ms per successful request
    assertEquals(10.0, m.itl().mean(), 1e-9);
  }

  @Test
  void aRunWithoutReasoningHasNoTtfcFigures() {
    RequestRecord plain = RequestRecord.builder("r").startNanos(0).ttftNanos(50 * MS)
        .latencyNanos(90 * MS).endNanos(95 * MS).chunkMicros(new int[] {50_000, 90_000})
        .promptTokens(1).usagePromptTokens(1).outputTokens(2).httpStatus(200).success(true)
        .generatedText("ab").requestId("id").ttfcNanos(50 * MS).build();
    BenchmarkMetrics m = MetricsCalculator.builder().build().compute(List.of(plain), 1.0);
    assertFalse(m.ttfc().isPresent());
    assertTrue(m.value("mean_ttfc_ms").isEmpty());
  }

  private static RequestRecord failed() {
    return RequestRecord.builder("r").startNanos(0).endNanos(10 * MS).promptTokens(10)
        .httpStatus(500).error("HTTP 500").requestId("id").build();
  }
}
