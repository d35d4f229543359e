package dev.gatlingllm.internal.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Who fixes an arrival clock's start, and what can be asked before it is fixed. */
class ArrivalClockStartTest {

  private static ArrivalSchedule threeArrivals() {
    return ArrivalSchedule.compute(ArrivalProfile.builder().numPrompts(3).requestRate(10).seed(1)
        .build());
  }

  @Test
  void onlyTheFirstStartCounts() {
    ArrivalClock clock = ArrivalClock.of(threeArrivals());
    assertFalse(clock.isStarted());
    assertTrue(clock.start(1_000L), "the first call fixes the start");
    assertTrue(clock.isStarted());
    assertFalse(clock.start(2_000L), "a later call changes nothing");
    assertEquals(1_000L, clock.startNanos());
    assertEquals(1_000L + clock.schedule().offsetNanos(2), clock.dueNanos(2));
  }

  @Test
  void nothingAboutTheStartCanBeReadBeforeItIsFixed() {
    ArrivalClock clock = ArrivalClock.of(threeArrivals());
    String message = "the arrival clock has not started: no slot was claimed yet";
    assertEquals(message, assertThrows(IllegalStateException.class, clock::startNanos)
        .getMessage());
    assertEquals(message, assertThrows(IllegalStateException.class, clock::startInstant)
        .getMessage());
    assertEquals(message, assertThrows(IllegalStateException.class, () -> clock.dueNanos(0))
        .getMessage());
  }

  @Test
  void theWallClockStartMatchesTheNanoTimeStart() {
    ArrivalClock clock = ArrivalClock.of(threeArrivals());
    long inOneSecond = System.nanoTime() + 1_000_000_000L;
    Instant expected = Instant.now().plusSeconds(1);
    clock.start(inOneSecond);
    // Both clocks were read within a few milliseconds of each other.
    long skewMillis = Math.abs(Duration.between(expected, clock.startInstant()).toMillis());
    assertTrue(skewMillis < 200, "wall-clock start off by " + skewMillis + " ms");
  }

  @Test
  void claimingHandsOutEverySlotOnceAndCountsThem() {
    ArrivalSchedule schedule = threeArrivals();
    ArrivalClock clock = ArrivalClock.of(schedule);
    assertEquals(3, clock.size());
    assertSame(schedule, clock.schedule());
    assertEquals(0, clock.claim());
    assertTrue(clock.isStarted(), "the first claim fixes the start");
    assertEquals(1, clock.claim());
    assertEquals(2, clock.claim());
    assertEquals(-1, clock.claim());
    assertEquals(3, clock.claimed(), "claims past the end are not counted");
  }
}
