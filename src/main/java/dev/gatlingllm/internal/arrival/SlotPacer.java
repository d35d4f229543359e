package dev.gatlingllm.internal.arrival;

import dev.gatlingllm.internal.client.UrgentWork;
import io.netty.channel.IoEventLoop;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs a callback on an event loop as close as possible to a {@link System#nanoTime()}
 * deadline without blocking the loop for long.
 *
 * <p>How: a timer wakes the loop {@code wakeEarly} before the deadline (100 µs by default),
 * then the loop spins the short rest of the way. Measured on Netty 4.2 loops on a 2-core
 * Linux VM (see {@code ArrivalLatenessBenchmark}): an epoll or io_uring timer alone fires
 * 35–90 µs late at the median and a few hundred µs late at p99 (timer slack plus the
 * wake-up); waking 100 µs early takes the median to 0 and the p99 to about 50–100 µs for
 * about 1 % of a loop's time at 1,000 req/s, and waking earlier bought nothing measurable.
 * Netty's NIO loop rounds timer delays to whole milliseconds, so NIO loops are woken instead
 * by one shared daemon thread that parks until the wake time (allowing it 150 µs of
 * oversleep) and then submits the wait to the loop, which interrupts its select. Either way,
 * when the wait starts on its own loop (the actions' waits do), the wake-up is also
 * registered as {@link UrgentWork}: a loop that is decoding a burst of
 * reads when it comes due runs it before the next connection's decoding, not after the
 * burst.
 *
 * <p>Spinning is capped per loop: each loop thread may spend at most {@code maxSpinShare} of
 * its time spinning (10 % by default, a token bucket refilled with time); past that a wait
 * falls back to a timer at the deadline itself, so a very high rate can never starve the
 * loop's I/O. Callbacks never run before their deadline. Thread-safe; one instance serves
 * every loop.
 */
public final class SlotPacer {

  private static final long DEFAULT_WAKE_EARLY_NANOS = 100_000;
  private static final double DEFAULT_MAX_SPIN_SHARE = 0.10;
  /** Unused spin time a loop may save up: enough for a short cluster of arrivals. */
  private static final long SPIN_BURST_NANOS = 2_000_000;

  /** How late the waker thread's park may end, on top of the loop's own wake-up. */
  private static final long WAKER_OVERSLEEP_NANOS = 150_000;

  private static final SlotPacer DEFAULT =
      new SlotPacer(DEFAULT_WAKE_EARLY_NANOS, DEFAULT_MAX_SPIN_SHARE);

  private final long wakeEarlyNanos;
  private final double maxSpinShare;
  private final FastThreadLocal<SpinBudget> budgets = new FastThreadLocal<>() {
    @Override
    protected SpinBudget initialValue() {
      return new SpinBudget();
    }
  };

  private SlotPacer(long wakeEarlyNanos, double maxSpinShare) {
    this.wakeEarlyNanos = wakeEarlyNanos;
    this.maxSpinShare = maxSpinShare;
  }

  /** The pacer with the measured defaults: wake 100 µs early, spin at most 10 % of a loop. */
  public static SlotPacer create() {
    return DEFAULT;
  }

  /**
   * A pacer with other settings.
   *
   * @param wakeEarly    how long before the deadline the loop is woken to spin the rest
   *                     (0 to 10 ms); 0 disables spinning on epoll and io_uring loops (NIO
   *                     loops still spin over the waker's 150 µs allowance)
   * @param maxSpinShare the largest share of a loop's time spent spinning, in [0, 1]
   */
  public static SlotPacer create(Duration wakeEarly, double maxSpinShare) {
    Objects.requireNonNull(wakeEarly, "wakeEarly");
    if (wakeEarly.isNegative() || wakeEarly.toMillis() > 10) {
      throw new IllegalArgumentException("wakeEarly must be between 0 and 10 ms, got " + wakeEarly);
    }
    if (!(maxSpinShare >= 0 && maxSpinShare <= 1)) {
      throw new IllegalArgumentException("maxSpinShare must be in [0, 1], got " + maxSpinShare);
    }
    return new SlotPacer(wakeEarly.toNanos(), maxSpinShare);
  }

  /**
   * Runs {@code then} on {@code loop} at {@code dueNanos} (a {@link System#nanoTime()} value),
   * or as soon as possible when that is already past: inline when called on {@code loop}
   * with nothing left to wait, else from the loop's task or timer queue. Never blocks the
   * caller. {@code then} must not throw.
   */
  public void awaitSlot(EventExecutor loop, long dueNanos, Runnable then) {
    long remaining = dueNanos - System.nanoTime();
    if (hasCoarseTimers(loop)) {
      if (remaining > wakeEarlyNanos + WAKER_OVERSLEEP_NANOS) {
        long wakeAt = dueNanos - wakeEarlyNanos - WAKER_OVERSLEEP_NANOS;
        Waker.INSTANCE.wakeAt(wakeAt, loop, wake(loop, wakeAt, dueNanos, then));
        return;
      }
    } else if (remaining > wakeEarlyNanos) {
      loop.schedule(wake(loop, dueNanos - wakeEarlyNanos, dueNanos, then),
          remaining - wakeEarlyNanos, TimeUnit.NANOSECONDS);
      return;
    }
    if (!loop.inEventLoop()) {
      loop.execute(() -> awaitSlot(loop, dueNanos, then));
      return;
    }
    if (remaining > 0) {
      if (!budgets.get().tryTake(remaining, maxSpinShare)) {
        loop.schedule(then, remaining, TimeUnit.NANOSECONDS);
        return;
      }
      while (System.nanoTime() - dueNanos < 0) {
        Thread.onSpinWait();
      }
    }
    then.run();
  }

  /**
   * The wake-up before a slot, for the loop's timer. On the loop itself it is also registered
   * as {@link UrgentWork}: a loop busy decoding a burst of reads when the wake-up comes due
   * runs it before the next connection's decoding, instead of after the whole burst (the
   * timer, whichever is first, then finds it done).
   */
  private Runnable wake(EventExecutor loop, long wakeAt, long dueNanos, Runnable then) {
    Runnable wake = () -> awaitSlot(loop, dueNanos, then);
    return loop.inEventLoop() ? UrgentWork.register(wakeAt, wake) : wake;
  }

  /**
   * Netty's NIO loop rounds timer delays to the nearest millisecond (a selector only takes a
   * millisecond timeout), so its timers can fire up to 0.5 ms late.
   */
  private static boolean hasCoarseTimers(EventExecutor loop) {
    return loop instanceof IoEventLoop io && io.isIoType(NioIoHandler.class);
  }

  /**
   * One daemon thread that wakes coarse-timer loops at a precise time: it parks until the
   * wake time and then submits the task, and a submission interrupts the loop's select.
   */
  private static final class Waker implements Runnable {
    static final Waker INSTANCE = new Waker();

    private final DelayQueue<Wake> queue = new DelayQueue<>();

    private Waker() {
      Thread thread = new Thread(this, "gatling-llm-arrival-waker");
      thread.setDaemon(true);
      thread.start();
    }

    void wakeAt(long atNanos, EventExecutor loop, Runnable task) {
      queue.add(new Wake(atNanos, loop, task));
    }

    @Override
    public void run() {
      while (true) {
        Wake wake;
        try {
          wake = queue.take();
        } catch (InterruptedException e) {
          return;
        }
        try {
          wake.loop.execute(wake.task);
        } catch (RejectedExecutionException loopShutDown) {
          // The run is over; nothing waits for this slot any more.
        }
      }
    }
  }

  private record Wake(long atNanos, EventExecutor loop, Runnable task) implements Delayed {
    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(atNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      return Long.compare(atNanos, ((Wake) other).atNanos);
    }
  }

  @Override
  public String toString() {
    return "SlotPacer[wakeEarly=" + wakeEarlyNanos / 1_000 + "us, maxSpinShare=" + maxSpinShare
        + "]";
  }

  /** Per-loop-thread token bucket of spin time, refilled at {@code share} ns per ns. */
  private static final class SpinBudget {
    private long tokens = SPIN_BURST_NANOS;
    private long lastRefill = System.nanoTime();

    boolean tryTake(long nanos, double share) {
      long now = System.nanoTime();
      tokens = Math.min(SPIN_BURST_NANOS, tokens + (long) ((now - lastRefill) * share));
      lastRefill = now;
      if (tokens < nanos) {
        return false;
      }
      tokens -= nanos;
      return true;
    }
  }
}
