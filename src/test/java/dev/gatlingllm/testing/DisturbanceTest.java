package dev.gatlingllm.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DisturbanceTest {

  @Test
  void moreSpinningThreadsThanCoresAreMeasuredWaiting() throws Exception {
    assumeTrue(Disturbance.measurable(), "scheduler figures are Linux's");
    Disturbance disturbance = Disturbance.start();
    // One more spinner than cores, each spinning 200 ms of wall time: whatever else runs, at
    // least one of them is runnable and off a core for a while.
    int spinners = Runtime.getRuntime().availableProcessors() + 1;
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < spinners; i++) {
      Thread t = new Thread(() -> {
        long end = System.nanoTime() + 200_000_000;
        while (System.nanoTime() - end < 0) {
          Thread.onSpinWait();
        }
      });
      t.start();
      threads.add(t);
    }
    // read while the spinners still live: an ended thread's figures are gone
    Thread.sleep(150);
    double waited = disturbance.waitedMs();
    for (Thread t : threads) {
      t.join();
    }
    assertTrue(waited > 1, disturbance.toString());
    assertTrue(disturbance.toString().startsWith("this JVM's threads waited "));
  }

  @Test
  void anUndisturbedFailureIsThrownAtOnce() {
    AtomicInteger tries = new AtomicInteger();
    // no try can wait a day for a CPU
    AssertionError e = assertThrows(AssertionError.class,
        () -> Disturbance.retryWhenDisturbed(3, 86_400_000, () -> {
          tries.incrementAndGet();
          throw new AssertionError("late");
        }));
    assertEquals(1, tries.get());
    assertEquals("late", e.getMessage());
    assertTrue(e.getSuppressed()[0].getMessage().startsWith("try 1 of 3: this JVM's threads"),
        e.getSuppressed()[0].getMessage());
  }

  @Test
  void aDisturbedFailureIsTriedAgainABoundedNumberOfTimes() {
    AtomicInteger tries = new AtomicInteger();
    // every try counts as disturbed (more than -1 ms of waiting)
    AssertionError e = assertThrows(AssertionError.class,
        () -> Disturbance.retryWhenDisturbed(3, -1, () -> {
          tries.incrementAndGet();
          throw new AssertionError("late");
        }));
    assertEquals(3, tries.get());
    assertTrue(e.getSuppressed()[0].getMessage().startsWith("try 3 of 3: "));
  }

  @Test
  void aPassingTryEndsTheRetries() throws Exception {
    AtomicInteger tries = new AtomicInteger();
    Disturbance.retryWhenDisturbed(3, -1, () -> {
      if (tries.incrementAndGet() < 2) {
        throw new AssertionError("late");
      }
    });
    assertEquals(2, tries.get());
  }

  @Test
  void otherExceptionsAreNeverRetried() {
    AtomicInteger tries = new AtomicInteger();
    assertThrows(IllegalStateException.class,
        () -> Disturbance.retryWhenDisturbed(3, -1, () -> {
          tries.incrementAndGet();
          throw new IllegalStateException("a bug, not a late timing");
        }));
    assertEquals(1, tries.get());
  }
}
