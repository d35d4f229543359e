package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * vLLM's peak figures (1-second buckets from the first successful start) where the numbers
 * get awkward: an origin the caller passes that is not the first start, nanoTime values so
 * large that seconds relative to zero lose microseconds, and the first bucket on its own.
 */
class PeakBucketsTest {

  private static final long S = 1_000_000_000L;

  /** A successful request; chunk offsets in microseconds after its start. */
  private static RequestRecord request(long startNanos, long ttftNanos, long latencyNanos,
      int... chunkMicros) {
    return RequestRecord.builder("r").startNanos(startNanos).ttftNanos(ttftNanos)
        .latencyNanos(latencyNanos).endNanos(startNanos + latencyNanos).chunkMicros(chunkMicros)
        .promptTokens(1).outputTokens(chunkMicros.length).httpStatus(200).success(true)
        .generatedText("").build();
  }

  /** Request A runs 0-2.5 s with chunks at 0.2, 0.4, 0.6 and 2.5 s; B runs 1.2-1.3 s. */
  private static List<RequestRecord> twoRequests(long base) {
    return List.of(
        request(base, S / 5, 5 * S / 2, 200_000, 400_000, 600_000, 2_500_000),
        request(base + 6 * S / 5, S / 20, S / 10, 50_000, 100_000));
  }

  @Test
  void peaksCountFromTheFirstStartWhateverOriginIsPassed() {
    // Bucket 0: A's three early chunks; bucket 1: B's two; bucket 2: A's last one.
    // Concurrency: A spans buckets 0-2, B bucket 1 only: at most 2 at once.
    long base = 100 * S;
    for (long origin : new long[] {base, base - 7 * S, base + 3 * S / 2, base + 10 * S}) {
      BenchmarkMetrics m = MetricsCalculator.builder().build()
          .compute(RecordSource.of(twoRequests(base)), 3.0, origin);
      assertEquals(3.0, m.maxOutputTokensPerS(), "origin " + (origin - base));
      assertEquals(2, m.maxConcurrentRequests(), "origin " + (origin - base));
    }
  }

  @Test
  void hugeNanoTimeValuesDoNotShiftAChunkIntoTheNextBucket() {
    // nanoTime may be anywhere in the long range. At 9e18 ns (9e9 s) a double has steps of
    // about 2 µs, so a chunk 0.9999995 s after the first start would round into bucket 1
    // if times were taken as seconds since zero instead of since the first start.
    long base = 9_000_000_000_000_000_000L;
    RequestRecord r = request(base, 999_999_500L, 1_500_000_000L, 999_999, 999_999, 1_500_000);
    BenchmarkMetrics m = MetricsCalculator.builder().build().compute(List.of(r), 1.5);
    // Bucket 0 holds the first two chunks, bucket 1 the last.
    assertEquals(2.0, m.maxOutputTokensPerS());
  }

  @Test
  void aSingleShortRequestPeaksInTheFirstBucket() {
    RequestRecord r = request(5 * S, S / 10, S / 2, 100_000, 300_000, 500_000);
    BenchmarkMetrics m = MetricsCalculator.builder().build().compute(List.of(r), 0.5);
    assertEquals(3.0, m.maxOutputTokensPerS());
    assertEquals(1, m.maxConcurrentRequests());
  }

  @Test
  void aRequestEndingExactlyOnABucketEdgeCountsInTheNextBucketToo() {
    // Starts at 0, ends at exactly 1.0 s: int(1.0) = 1, so it is active in buckets 0 and 1;
    // the second request lives in bucket 1 only, which therefore has 2 active.
    RequestRecord edge = request(0, S / 10, S, 100_000, 1_000_000);
    RequestRecord later = request(S + S / 2, S / 10, S / 5, 100_000, 200_000);
    BenchmarkMetrics m = MetricsCalculator.builder().build().compute(List.of(edge, later), 1.7);
    assertEquals(2, m.maxConcurrentRequests());
  }
}
