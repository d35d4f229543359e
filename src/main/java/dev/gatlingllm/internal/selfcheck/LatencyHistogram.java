package dev.gatlingllm.internal.selfcheck;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A fixed-bucket histogram of durations in nanoseconds, recorded from any thread without
 * locks or allocation, so it can sit on the event loops' hot path.
 *
 * <p>Buckets are log-linear: values below 256 ns each have their own bucket; above that,
 * every power of two is split into 128 equal buckets, so a bucket is never wider than
 * 1/128 (0.78 %) of the values it holds. That covers 256 ns to 2<sup>36</sup> ns (68.7 s) in
 * 3,840 buckets (30 KB); larger values land in the last bucket. Negative values count as 0.
 * The maximum is kept exactly.
 *
 * <p>Percentiles are nearest-rank (the smallest recorded value with at least p % of the
 * values at or below it, not numpy's interpolation) and are reported as the upper edge of
 * that value's bucket, capped at the exact maximum: never below the true value at that
 * rank and at most 0.78 % above it (exact below 256 ns). Only above 68.7 s, where values
 * share the last bucket, can a percentile other than the maximum read low.
 */
final class LatencyHistogram {

  /** log2 of the buckets per power of two: 128 gives the 0.78 % bound stated above. */
  private static final int SUB_BITS = 7;
  private static final int SUB_COUNT = 1 << SUB_BITS;
  /** Values of 2^36 ns (68.7 s) and more share the last bucket. */
  private static final int TOP_BIT = 36;
  static final int BUCKETS = index((1L << TOP_BIT) - 1) + 1;

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
  private final AtomicLong max = new AtomicLong();

  /** Counts one value. Lock-free and allocation-free; safe from any thread. */
  void record(long nanos) {
    long value = Math.max(0, nanos);
    counts.getAndIncrement(index(Math.min(value, (1L << TOP_BIT) - 1)));
    long seen = max.get();
    // Reading first keeps the common case (not a new maximum) free of a contended CAS.
    while (value > seen && !max.compareAndSet(seen, value)) {
      seen = max.get();
    }
  }

  /**
   * A copy of the counts for read-out. Values recorded while it is taken may or may not be
   * in it; the copy itself never changes.
   */
  Snapshot snapshot() {
    long[] copy = new long[BUCKETS];
    long total = 0;
    for (int i = 0; i < BUCKETS; i++) {
      copy[i] = counts.get(i);
      total += copy[i];
    }
    return new Snapshot(copy, total, max.get());
  }

  /** The bucket of a value in [0, 2^36). */
  static int index(long value) {
    // Keep the top SUB_BITS + 1 bits: the leading 1 picks the power of two (through the
    // shift), the SUB_BITS below it the bucket within it.
    int shift = Math.max(0, 64 - Long.numberOfLeadingZeros(value) - (SUB_BITS + 1));
    return (shift << SUB_BITS) + (int) (value >>> shift);
  }

  /** The largest value that falls in bucket {@code index}. */
  static long upperEdge(int index) {
    if (index < 2 * SUB_COUNT) {
      return index;
    }
    int shift = (index >>> SUB_BITS) - 1;
    long sub = (index & (SUB_COUNT - 1)) + SUB_COUNT;
    return ((sub + 1) << shift) - 1;
  }

  /** Read-out of a {@link #snapshot()}. */
  static final class Snapshot {
    private final long[] counts;
    private final long total;
    private final long max;

    private Snapshot(long[] counts, long total, long max) {
      this.counts = counts;
      this.total = total;
      this.max = max;
    }

    long count() {
      return total;
    }

    /** The exact largest value recorded (0 when none). */
    long maxNanos() {
      return max;
    }

    /**
     * The nearest-rank percentile (see the class comment for its precision); 0 when empty.
     *
     * @param percentile in (0, 100], to two decimals (99.99 at the finest)
     */
    long percentileNanos(double percentile) {
      if (!(percentile > 0 && percentile <= 100)) {
        throw new IllegalArgumentException("percentile must be in (0, 100], got " + percentile);
      }
      if (total == 0) {
        return 0;
      }
      // In hundredths of a percent so the rank is exact integer arithmetic: 99.9 % of 1,000
      // values must be rank 999, which ceil(0.999 * 1000) in doubles is not guaranteed to be.
      long basisPoints = Math.round(percentile * 100);
      long rank = Math.max(1, (total * basisPoints + 9_999) / 10_000);
      if (rank == total) {
        return max; // the top rank is the maximum, known exactly even beyond the last bucket
      }
      long seen = 0;
      for (int i = 0; i < counts.length; i++) {
        seen += counts[i];
        if (seen >= rank) {
          return Math.min(upperEdge(i), max);
        }
      }
      return max;
    }
  }
}
