package dev.gatlingllm.internal.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ArrivalClockTest {

  private final ArrivalSchedule schedule =
      ArrivalSchedule.compute(ArrivalProfile.builder()
          .numPrompts(5).requestRate(10).seed(1).build());

  @Test
  void slotsAreHandedOutInOrderThenExhausted() {
    ArrivalClock clock = ArrivalClock.of(schedule);
    for (int i = 0; i < 5; i++) {
      assertEquals(i, clock.claim());
    }
    assertEquals(-1, clock.claim());
    assertEquals(-1, clock.claim());
    assertEquals(5, clock.claimed());
  }

  @Test
  void theFirstClaimFixesTheStart() {
    ArrivalClock clock = ArrivalClock.of(schedule);
    assertFalse(clock.isStarted());
    long before = System.nanoTime();
    clock.claim();
    long after = System.nanoTime();
    assertTrue(clock.startNanos() >= before && clock.startNanos() <= after);
    assertEquals(clock.startNanos() + schedule.offsetNanos(3), clock.dueNanos(3));
    long wallGap = Duration.between(clock.startInstant(), Instant.now()).abs().toMillis();
    assertTrue(wallGap < 5_000, "start instant is " + wallGap + " ms from now");
  }

  @Test
  void anExplicitStartWinsAndIsFixedOnce() {
    ArrivalClock clock = ArrivalClock.of(schedule);
    assertTrue(clock.start(1_000L));
    assertFalse(clock.start(2_000L));
    clock.claim();
    assertEquals(1_000L, clock.startNanos());
    assertEquals(1_000L + schedule.offsetNanos(4), clock.dueNanos(4));
  }

  @Test
  void dueTimesNeedAStart() {
    ArrivalClock clock = ArrivalClock.of(schedule);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> clock.dueNanos(0));
    assertTrue(e.getMessage().contains("has not started"));
  }

  @Test
  void concurrentClaimsGetEverySlotExactlyOnce() throws Exception {
    int n = 50_000;
    ArrivalClock clock = ArrivalClock.of(
        ArrivalSchedule.compute(ArrivalProfile.builder().numPrompts(n).build()));
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<BitSet>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        results.add(pool.submit(() -> {
          go.await();
          BitSet mine = new BitSet(n);
          for (int slot = clock.claim(); slot >= 0; slot = clock.claim()) {
            mine.set(slot);
          }
          return mine;
        }));
      }
      go.countDown();
      BitSet all = new BitSet(n);
      int total = 0;
      for (Future<BitSet> result : results) {
        BitSet mine = result.get(30, TimeUnit.SECONDS);
        total += mine.cardinality();
        all.or(mine);
      }
      assertEquals(n, total, "no slot handed out twice");
      assertEquals(n, all.cardinality(), "every slot handed out");
    } finally {
      pool.shutdownNow();
    }
  }
}
