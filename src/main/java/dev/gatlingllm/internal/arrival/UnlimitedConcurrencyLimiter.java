package dev.gatlingllm.internal.arrival;

import io.netty.util.concurrent.EventExecutor;

/** No cap: no counter, no lock, no queue. */
final class UnlimitedConcurrencyLimiter implements ConcurrencyLimiter {

  static final UnlimitedConcurrencyLimiter INSTANCE = new UnlimitedConcurrencyLimiter();

  private UnlimitedConcurrencyLimiter() {}

  @Override
  public void acquire(EventExecutor loop, Runnable onPermit) {
    if (loop.inEventLoop()) {
      onPermit.run();
    } else {
      loop.execute(onPermit);
    }
  }

  @Override
  public void release() {}

  @Override
  public boolean hasFreePermit() {
    return true;
  }

  @Override
  public String toString() {
    return "ConcurrencyLimiter[unlimited]";
  }
}
