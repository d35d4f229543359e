package dev.gatlingllm.internal.arrival;

import io.netty.util.concurrent.EventExecutor;

/**
 * The gate in front of sending: at most a fixed number of requests in flight, the rest wait
 * client-side in arrival order (vLLM's {@code --max-concurrency} semaphore). Nothing blocks:
 * a waiting request is a queued callback that runs on its own event loop when a permit frees.
 *
 * <p>Every {@link #acquire} whose callback ran must be paired with exactly one
 * {@link #release()} when the request is over (success, failure or timeout).
 */
public interface ConcurrencyLimiter {

  /**
   * Runs {@code onPermit} on {@code loop} once a permit is held: right away (inline when
   * called on that loop) if one is free, else when a {@link #release()} hands one over, in
   * FIFO order. {@code onPermit} must not throw.
   */
  void acquire(EventExecutor loop, Runnable onPermit);

  /** Gives a permit back, handing it straight to the oldest waiter if there is one. */
  void release();

  /**
   * Whether an {@link #acquire} now would be granted at once. Only a hint (other loops may
   * take the permit first), for callers that would do costly work only to wait.
   */
  boolean hasFreePermit();

  /** A limiter that admits everything immediately and counts nothing. */
  static ConcurrencyLimiter unlimited() {
    return UnlimitedConcurrencyLimiter.INSTANCE;
  }

  /** A limiter with {@code maxConcurrency} permits (>= 1). */
  static BoundedConcurrencyLimiter bounded(int maxConcurrency) {
    return new BoundedConcurrencyLimiter(maxConcurrency);
  }
}
