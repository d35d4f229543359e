package dev.gatlingllm.internal.selfcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

  /** The stated precision: a reported percentile is at most 1/128 above the true value. */
  private static final double PRECISION = 1.0 / 128;

  @Test
  void percentilesOfOneToHundredMicroseconds() {
    LatencyHistogram h = new LatencyHistogram();
    for (int us = 1; us <= 100; us++) {
      h.record(us * 1_000L);
    }
    LatencyHistogram.Snapshot s = h.snapshot();
    assertEquals(100, s.count());
    assertEquals(100_000, s.maxNanos());
    // Nearest rank: p50 of 100 values is the 50th (50 µs), p99 the 99th. 50,000 ns lies in
    // [32,768, 65,536), split into 128 buckets of 256 ns: [49,920, 50,175], reported as 50,175.
    assertEquals(50_175, s.percentileNanos(50));
    assertWithin(99_000, s.percentileNanos(99));
    // p99.9 is rank ceil(99.9) = 100: the maximum, whose bucket edge is capped to it exactly.
    assertEquals(100_000, s.percentileNanos(99.9));
    assertEquals(100_000, s.percentileNanos(100));
    // Rank 1: 1,000 ns is in the 4 ns bucket [1000, 1003].
    assertEquals(1_003, s.percentileNanos(0.5));
  }

  @Test
  void valuesBelow256NanosAreExact() {
    LatencyHistogram h = new LatencyHistogram();
    for (int ns = 0; ns < 256; ns++) {
      h.record(ns);
    }
    LatencyHistogram.Snapshot s = h.snapshot();
    assertEquals(127, s.percentileNanos(50)); // rank 128 of 0..255
    assertEquals(253, s.percentileNanos(99)); // rank ceil(253.44) = 254, the value 253
    assertEquals(2, s.percentileNanos(1)); // rank ceil(2.56) = 3, the value 2
  }

  @Test
  void rankIsExactIntegerArithmetic() {
    // 99.9 % of 1,000 is rank 999 exactly; a floating-point ceil could make it 1,000.
    LatencyHistogram h = new LatencyHistogram();
    for (int i = 0; i < 999; i++) {
      h.record(10);
    }
    h.record(200);
    LatencyHistogram.Snapshot s = h.snapshot();
    assertEquals(10, s.percentileNanos(99.9));
    assertEquals(200, s.percentileNanos(99.91));
  }

  @Test
  void precisionHoldsFromOneMicrosecondToSixtySeconds() {
    for (long v = 1_000; v <= 60_000_000_000L; v = v * 21 / 20 + 1) {
      LatencyHistogram h = new LatencyHistogram();
      h.record(v);
      h.record(1L << 40); // a larger maximum, so the bucket edge is not capped to v
      assertWithin(v, h.snapshot().percentileNanos(50));
    }
  }

  @Test
  void bucketEdgesTileTheRange() {
    assertEquals(0, LatencyHistogram.index(0));
    for (int i = 1; i < LatencyHistogram.BUCKETS; i++) {
      long firstOfBucket = LatencyHistogram.upperEdge(i - 1) + 1;
      assertEquals(i, LatencyHistogram.index(firstOfBucket), "first value of bucket " + i);
      assertEquals(i, LatencyHistogram.index(LatencyHistogram.upperEdge(i)), "edge of " + i);
    }
    assertEquals((1L << 36) - 1, LatencyHistogram.upperEdge(LatencyHistogram.BUCKETS - 1));
  }

  @Test
  void negativeValuesCountAsZeroAndHugeOnesKeepAnExactMaximum() {
    LatencyHistogram h = new LatencyHistogram();
    h.record(-5_000);
    h.record(120_000_000_000L);
    LatencyHistogram.Snapshot s = h.snapshot();
    assertEquals(0, s.percentileNanos(50));
    assertEquals(120_000_000_000L, s.maxNanos());
    assertEquals(120_000_000_000L, s.percentileNanos(100));
  }

  @Test
  void emptyReadsAsZero() {
    LatencyHistogram.Snapshot s = new LatencyHistogram().snapshot();
    assertEquals(0, s.count());
    assertEquals(0, s.maxNanos());
    assertEquals(0, s.percentileNanos(99));
  }

  @Test
  void rejectsPercentilesOutsideTheRange() {
    LatencyHistogram.Snapshot s = new LatencyHistogram().snapshot();
    assertThrows(IllegalArgumentException.class, () -> s.percentileNanos(0));
    assertThrows(IllegalArgumentException.class, () -> s.percentileNanos(100.5));
    assertThrows(IllegalArgumentException.class, () -> s.percentileNanos(Double.NaN));
  }

  @Test
  void countsEveryValueRecordedConcurrently() {
    LatencyHistogram h = new LatencyHistogram();
    List<CompletableFuture<Void>> writers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      long offset = t;
      writers.add(CompletableFuture.runAsync(() -> {
        for (int i = 0; i < 100_000; i++) {
          h.record(1_000 + (i % 50) + offset);
        }
      }));
    }
    writers.forEach(CompletableFuture::join);
    assertEquals(400_000, h.snapshot().count());
    assertEquals(1_052, h.snapshot().maxNanos());
  }

  private static void assertWithin(long exact, long reported) {
    assertTrue(reported >= exact && reported <= exact * (1 + PRECISION),
        "reported " + reported + " for " + exact);
  }
}
