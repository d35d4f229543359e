package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code total_cached_tokens} and {@code rtfx} over completed requests, worked by hand. */
class UsageTotalsTest {

  private static RequestRecord done(int cached, double audioSeconds, boolean success) {
    return RequestRecord.builder("r").startNanos(0).ttftNanos(1_000_000)
        .latencyNanos(2_000_000).chunkMicros(new int[] {1_000, 2_000}).promptTokens(10)
        .outputTokens(2).httpStatus(success ? 200 : 500).success(success)
        .error(success ? null : "HTTP 500").cachedTokens(cached)
        .inputAudioSeconds(audioSeconds).build();
  }

  @Test
  void onlyCompletedRequestsCount() {
    // completed: 64 + 0 cached (one server without details: -1, counts nothing); the failed
    // request's 128 are left out. Audio: 2.5 + 1.5 s over a 2 s run = 2.0; the failed 4 s out
    List<RequestRecord> records = List.of(done(64, 2.5, true), done(0, 1.5, true),
        done(-1, 0, true), done(128, 4, false));
    BenchmarkMetrics m = MetricsCalculator.builder().build()
        .compute(RecordSource.of(records), 2.0, 0);
    assertEquals(64, m.totalCached());
    assertEquals(2.0, m.rtfx());
  }

  @Test
  void noAudioNoRtfxAndAZeroLengthRunDividesByNothing() {
    BenchmarkMetrics m = MetricsCalculator.builder().build()
        .compute(RecordSource.of(List.of(done(-1, 0, true))), 1.0, 0);
    assertEquals(0.0, m.rtfx());
    assertEquals(0, m.totalCached());
    BenchmarkMetrics zero = MetricsCalculator.builder().build()
        .compute(RecordSource.of(List.of(done(5, 3, true))), 0.0, 0);
    assertEquals(0.0, zero.rtfx());
  }
}
