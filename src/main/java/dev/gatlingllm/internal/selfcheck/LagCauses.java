package dev.gatlingllm.internal.selfcheck;

import java.util.concurrent.atomic.LongAdder;

/**
 * Where the event loops' lag went, from each loop thread's scheduler figures
 * ({@link ThreadSchedStat}), summed over every probe run later than {@link #thresholdNanos}.
 *
 * <p>A late probe run's lag is split three ways with what its thread did since the run
 * before: running on a CPU (the loop's own work: decoding, a long task; also, on a virtual
 * machine that reports no steal, time the host took the core while the loop ran), runnable
 * but waiting for a CPU (other threads or processes on the loop's core: the JIT, GC, the
 * server when it shares the core), and not runnable (blocked in a call made on the loop, or
 * asleep in {@code epoll} and woken late by the OS or the hypervisor). The interval since the
 * run before is longer than the lag, so the split gives the lag as much running time as the
 * interval had, up to all of it, then as much waiting, and calls the rest not runnable: it
 * never blames the host for what may have been the client's work.
 *
 * <p>Thread-safe: each loop's probe adds its own runs.
 */
final class LagCauses {

  private final long thresholdNanos;
  private final LongAdder lag = new LongAdder();
  private final LongAdder running = new LongAdder();
  private final LongAdder waiting = new LongAdder();
  private volatile boolean measured;

  LagCauses(long thresholdNanos) {
    this.thresholdNanos = thresholdNanos;
  }

  long thresholdNanos() {
    return thresholdNanos;
  }

  /** A loop's probe can read its thread's figures: the split means something. */
  void measurable() {
    measured = true;
  }

  /**
   * A probe run {@code lagNanos} late; since the run before, its thread ran for
   * {@code runNanos} and waited for a CPU for {@code waitNanos}.
   */
  void record(long lagNanos, long runNanos, long waitNanos) {
    if (lagNanos <= thresholdNanos) {
      return;
    }
    long ran = Math.min(lagNanos, Math.max(0, runNanos));
    long waited = Math.min(lagNanos - ran, Math.max(0, waitNanos));
    lag.add(lagNanos);
    running.add(ran);
    waiting.add(waited);
  }

  /** The sums so far, in ms; {@link SelfCheckReport.LagSplit#NOT_MEASURED} when none could be. */
  SelfCheckReport.LagSplit figures() {
    if (!measured) {
      return SelfCheckReport.LagSplit.NOT_MEASURED;
    }
    long total = lag.sum();
    long ran = running.sum();
    long waited = waiting.sum();
    return new SelfCheckReport.LagSplit(true, thresholdNanos / 1e6, total / 1e6, ran / 1e6,
        waited / 1e6, (total - ran - waited) / 1e6);
  }
}
