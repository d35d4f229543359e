package dev.gatlingllm.internal.metrics;

/**
 * The benchmark duration vLLM divides by: from just before the first request was
 * dispatched to the moment the last one finished.
 */
public final class RunDuration {

  private RunDuration() {}

  /** Seconds between two {@link System#nanoTime()} readings; never negative. */
  public static double between(long startNanos, long endNanos) {
    return Math.max(0, endNanos - startNanos) / 1e9;
  }

  /** Seconds from the given benchmark start to the latest {@code endNanos}; 0 without records. */
  public static double fromStart(long benchmarkStartNanos, RecordSource records) {
    if (records.size() == 0) {
      return 0.0;
    }
    return between(benchmarkStartNanos, maxEndNanos(records));
  }

  /**
   * Seconds from the earliest scheduled arrival to the latest {@code endNanos}, for when the
   * benchmark start was not captured; 0 without records.
   */
  public static double fromRecords(RecordSource records) {
    if (records.size() == 0) {
      return 0.0;
    }
    return between(firstScheduledNanos(records), maxEndNanos(records));
  }

  /** The earliest {@code scheduledNanos} (the derived benchmark start). */
  public static long firstScheduledNanos(RecordSource records) {
    if (records.size() == 0) {
      throw new IllegalArgumentException("No records: the run has no first request");
    }
    long min = Long.MAX_VALUE;
    for (int i = 0; i < records.size(); i++) {
      RequestRecord r = records.record(i);
      min = Math.min(min, Math.min(r.scheduledNanos(), r.startNanos()));
    }
    return min;
  }

  private static long maxEndNanos(RecordSource records) {
    long max = Long.MIN_VALUE;
    for (int i = 0; i < records.size(); i++) {
      max = Math.max(max, records.record(i).endNanos());
    }
    return max;
  }
}
