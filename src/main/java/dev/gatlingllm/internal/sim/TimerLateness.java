package dev.gatlingllm.internal.sim;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * How late the timed writes ran against their planned instant. Exposed on
 * {@code /metrics} so a user can see whether the simulator keeps its own timing under the
 * load they put on it. Lock-free because it is updated on every chunk from every loop.
 */
public final class TimerLateness {

  private final LongAdder sumNanos = new LongAdder();
  private final LongAdder count = new LongAdder();
  private final AtomicLong maxNanos = new AtomicLong();

  void record(long lateNanos) {
    long late = Math.max(0, lateNanos);
    sumNanos.add(late);
    count.increment();
    if (late > maxNanos.get()) {
      maxNanos.accumulateAndGet(late, Math::max);
    }
  }

  long sumNanos() {
    return sumNanos.sum();
  }

  long count() {
    return count.sum();
  }

  long maxNanos() {
    return maxNanos.get();
  }

  public void reset() {
    sumNanos.reset();
    count.reset();
    maxNanos.set(0);
  }
}
