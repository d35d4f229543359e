package dev.gatlingllm.selfcheck;

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

  /** The grid point this task is armed for; only read and written on the loop. */
  private long dueNanos;
  /** Written only on the loop, read by the report. */
  private volatile long maxLagNanos;
  private volatile ScheduledFuture<?> armed;
  private volatile boolean stopped;

  private LoopLagProbe(EventExecutor loop, long periodNanos, LatencyHistogram pooled) {
    this.loop = loop;
    this.periodNanos = periodNanos;
    this.pooled = pooled;
  }

  /**
   * Arms a probe on {@code loop} whose samples go to {@code pooled}; null when the loop no
   * longer accepts tasks (it is shutting down, so there is nothing left to measure).
   */
  static LoopLagProbe start(EventExecutor loop, long periodNanos, LatencyHistogram pooled) {
    LoopLagProbe probe = new LoopLagProbe(loop, periodNanos, pooled);
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
      return;
    }
    long now = System.nanoTime();
    long lag = now - dueNanos;
    pooled.record(lag);
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
   * Stops re-arming and cancels the pending timer. Idempotent and safe from any thread; a
   * run already under way may still record its sample.
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
  }

  /** The largest lag seen on this loop so far, in nanoseconds. */
  long maxLagNanos() {
    return maxLagNanos;
  }
}
