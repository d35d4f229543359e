package dev.gatlingllm.internal.arrival;

import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * A fixed number of permits shared by all event loops, with a FIFO queue of waiting
 * callbacks. The critical sections are a few field updates under one monitor (callbacks
 * always run outside it), which keeps the invariant simple enough to trust: a request
 * waits only while all permits are taken, and a release with waiters hands its permit
 * straight to the oldest one, so no permit and no waiter is ever lost and nobody overtakes
 * the queue.
 */
public final class BoundedConcurrencyLimiter implements ConcurrencyLimiter {

  private final int limit;
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  private int inFlight;
  private int peakInFlight;

  BoundedConcurrencyLimiter(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("maxConcurrency must be >= 1, got " + limit);
    }
    this.limit = limit;
  }

  @Override
  public void acquire(EventExecutor loop, Runnable onPermit) {
    Objects.requireNonNull(loop, "loop");
    Objects.requireNonNull(onPermit, "onPermit");
    synchronized (this) {
      if (inFlight == limit) {
        waiters.addLast(new Waiter(loop, onPermit));
        return;
      }
      inFlight++;
      peakInFlight = Math.max(peakInFlight, inFlight);
    }
    if (loop.inEventLoop()) {
      onPermit.run();
    } else {
      loop.execute(onPermit);
    }
  }

  @Override
  public void release() {
    Waiter next;
    synchronized (this) {
      if (inFlight == 0) {
        throw new IllegalStateException("release() without a matching acquire()");
      }
      next = waiters.pollFirst();
      if (next == null) {
        inFlight--;
      }
    }
    if (next != null) {
      // Always through the queue of the waiter's loop, even when it is ours: the waiter's
      // request must not run inside the stack of the request that just finished.
      next.loop.execute(next.onPermit);
    }
  }

  @Override
  public synchronized boolean hasFreePermit() {
    return inFlight < limit && waiters.isEmpty();
  }

  /** The number of permits. */
  public int limit() {
    return limit;
  }

  /** Permits held right now. */
  public synchronized int inFlight() {
    return inFlight;
  }

  /** The most permits ever held at once. */
  public synchronized int peakInFlight() {
    return peakInFlight;
  }

  /** Requests waiting for a permit right now. */
  public synchronized int waiting() {
    return waiters.size();
  }

  @Override
  public String toString() {
    return "ConcurrencyLimiter[limit=" + limit + "]";
  }

  private record Waiter(EventExecutor loop, Runnable onPermit) {}
}
