package dev.gatlingllm.internal.selfcheck;

import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A timer task on one event loop that measures how late it runs against its planned due
 * time: the time any event arriving at that moment (a chunk's bytes, a paced send) would
 * have waited for the loop.
 *
 * <p>Due times lie on a fixed grid ({@code first + k * period}) and the task re-arms itself
 * for the next grid point, never "period after it actually ran", so one late run does not
 * push every later one back. When a stall swallows several grid points, the task does not
 * run once per missed point (as a fixed-rate timer would, in a burst that delays real work
 * further): it runs once, records the stall's full length, and re-arms on the next grid
 * point still ahead. The missed points are still counted, each with the lag it would have
 * seen (the stall's remainder at that point), because a grid point is a sample of "how long
 * would an event arriving now wait": dropping the ones inside a stall would let a loop that
 * is stalled a quarter of the time report the same p99 as an idle one (coordinated
 * omission). So the samples are uniform in time and the percentiles are shares of time.
 *
 * <p>What a sample includes besides the loop being busy: the timer's own wake-up, tens of
 * µs on epoll and io_uring (Gatling's default on Linux), and up to 0.5 ms more on NIO loops,
 * whose timers Netty rounds to whole milliseconds. Sub-millisecond figures are therefore
 * upper bounds of the loop's own delay.
 *
 * <p>State is only touched on the loop's thread except {@link #stop()}.
 */
final class LoopLagProbe implements Runnable {

  private final EventExecutor loop;
  private final long periodNanos;
  private final LatencyHistogram pooled;
  private final LagCauses causes;

  /** This loop thread's scheduler figures; opened by the first run, on the loop. */
  private ThreadSchedStat sched;
  private boolean schedTried;
  private final long[] schedNow = new long[2];
  private long ranBefore = -1;
  private long waitedBefore;

  /** The grid point this task is armed for; only read and written on the loop. */
  private long dueNanos;
  /** Written only on the loop, read by the report. */
  private volatile long maxLagNanos;
  private volatile ScheduledFuture<?> armed;
  private volatile boolean stopped;

  private LoopLagProbe(EventExecutor loop, long periodNanos, LatencyHistogram pooled,
      LagCauses causes) {
    this.loop = loop;
    this.periodNanos = periodNanos;
    this.pooled = pooled;
    this.causes = causes;
  }

  /**
   * Arms a probe on {@code loop} whose samples go to {@code pooled} and whose late runs are
   * split into {@code causes}; null when the loop no longer accepts tasks (it is shutting
   * down, so there is nothing left to measure).
   */
  static LoopLagProbe start(EventExecutor loop, long periodNanos, LatencyHistogram pooled,
      LagCauses causes) {
    LoopLagProbe probe = new LoopLagProbe(loop, periodNanos, pooled, causes);
    probe.dueNanos = System.nanoTime() + periodNanos;
    try {
      probe.armed = loop.schedule(probe, periodNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException shuttingDown) {
      return null;
    }
    return probe;
  }

  @Override
  public void run() {
    if (stopped) {
      closeSched();
      return;
    }
    long now = System.nanoTime();
    long lag = now - dueNanos;
    pooled.record(lag);
    split(lag);
    if (lag > maxLagNanos) {
      maxLagNanos = lag;
    }
    long next = dueNanos + periodNanos;
    // The grid points a stall swallowed, each with the lag it would have had (see above).
    for (; next - now <= 0; next += periodNanos) {
      pooled.record(now - next);
    }
    dueNanos = next;
    if (loop.isShuttingDown()) {
      return;
    }
    try {
      // Delay measured right before arming, so the timer's deadline is the grid point itself.
      armed = loop.schedule(this, next - System.nanoTime(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException shuttingDown) {
      // The loop is going away between the check and the call; nothing left to measure.
    }
  }

  /**
   * What this thread did since the last run, from its scheduler figures, for a late run's
   * share of {@link LagCauses}. One {@code pread} per run (about 2 µs); nothing where the
   * platform has no such figures.
   */
  private void split(long lag) {
    if (sched == null) {
      if (schedTried) {
        return;
      }
      schedTried = true;
      sched = ThreadSchedStat.ofCurrentThread();
      if (sched == null) {
        return;
      }
      causes.measurable();
    }
    if (!sched.read(schedNow)) {
      sched = null;
      return;
    }
    if (ranBefore >= 0) {
      causes.record(lag, schedNow[0] - ranBefore, schedNow[1] - waitedBefore);
    }
    ranBefore = schedNow[0];
    waitedBefore = schedNow[1];
  }

  private void closeSched() {
    ThreadSchedStat open = sched;
    sched = null;
    if (open != null) {
      open.close();
    }
  }

  /**
   * Stops re-arming, cancels the pending timer and closes the scheduler figures' file (from a
   * task on the loop). Idempotent and safe from any thread; a run already under way may still
   * record its sample.
   */
  void stop() {
    stopped = true;
    ScheduledFuture<?> pending = armed;
    if (pending != null) {
      try {
        pending.cancel(false);
      } catch (RejectedExecutionException loopGone) {
        // Cancelling from outside the loop submits a removal task; a terminated loop has no
        // timers left to remove.
      }
    }
    try {
      loop.execute(this::closeSched); // its file is the loop's to touch
    } catch (RejectedExecutionException loopGone) {
      // a loop that is gone has no runs left; the file closes with the JVM's cleaner
    }
  }

  /** The largest lag seen on this loop so far, in nanoseconds. */
  long maxLagNanos() {
    return maxLagNanos;
  }
}
