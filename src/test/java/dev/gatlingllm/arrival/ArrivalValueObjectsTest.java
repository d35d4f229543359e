package dev.gatlingllm.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.internal.arrival.BoundedConcurrencyLimiter;
import dev.gatlingllm.internal.arrival.ConcurrencyLimiter;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.junit.jupiter.api.Test;

/**
 * Equality, hashing and the text of the arrival module's value objects: schedules and traces
 * are compared when profiles are rebuilt and land in log lines and error messages.
 */
class ArrivalValueObjectsTest {

  @Test
  void tracesAreEqualWhenSourceAndTimesAre() {
    ArrivalTrace a = ArrivalTrace.ofSeconds(0, 0.5, 2);
    ArrivalTrace same = ArrivalTrace.ofSeconds(0, 0.5, 2);
    assertEquals(a, same);
    assertEquals(a.hashCode(), same.hashCode());
    assertNotEquals(a, ArrivalTrace.ofSeconds(0, 0.5, 3), "other times");
    assertNotEquals(a, ArrivalTrace.ofSeconds(0, 0.5), "other source (count) and times");
    assertNotEquals(a, "of 3 timestamps");
    // Same times, other source: equal offsets are not enough.
    assertNotEquals(ArrivalTrace.ofSeconds(0, 1, 2), ArrivalTrace.ofSeconds(0, 1));
  }

  @Test
  void traceHashesDifferWhenTheirTimesDo() {
    // Not a requirement of hashCode in general, but a constant one would put every trace in
    // one bucket; these two differ only in their times.
    assertNotEquals(ArrivalTrace.ofSeconds(0, 1).hashCode(),
        ArrivalTrace.ofSeconds(0, 2).hashCode());
    assertNotEquals(0, ArrivalTrace.ofSeconds(0, 1).hashCode());
  }

  @Test
  void tracesAndSchedulesDescribeThemselves() {
    assertEquals("ArrivalTrace[of 4 timestamps, 4 arrivals]",
        ArrivalTrace.ofSeconds(0, 1, 2, 3).toString());
    ArrivalSchedule schedule = ArrivalProfile.builder()
        .replay(ArrivalTrace.ofSeconds(10, 10.5, 12.5)).build().schedule();
    assertEquals("ArrivalSchedule[3 arrivals over 2.5 s]", schedule.toString());
  }

  @Test
  void schedulesWithTheSameOffsetsHashAlike() {
    ArrivalSchedule a = ArrivalProfile.builder().numPrompts(20).requestRate(5).seed(3).build()
        .schedule();
    ArrivalSchedule b = ArrivalProfile.builder().numPrompts(20).requestRate(5).seed(3).build()
        .schedule();
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a.hashCode(), ArrivalProfile.builder().numPrompts(20).requestRate(5).seed(4)
        .build().schedule().hashCode());
  }

  @Test
  void profilesNameTheirParameters() {
    String text = ArrivalProfile.builder().numPrompts(7).requestRate(2.5).burstiness(0.5)
        .maxConcurrency(3).build().toString();
    assertTrue(text.startsWith("ArrivalProfile{"), text);
    assertTrue(text.contains("request_rate=2.5") && text.contains("burstiness=0.5")
        && text.contains("max_concurrency=3") && text.endsWith(" numPrompts=7"), text);
  }

  @Test
  void limitersDescribeThemselvesAndCountPermitsInFlight() {
    assertEquals("ConcurrencyLimiter[unlimited]", ConcurrencyLimiter.unlimited().toString());
    BoundedConcurrencyLimiter bounded = ConcurrencyLimiter.bounded(2);
    assertEquals("ConcurrencyLimiter[limit=2]", bounded.toString());
    int[] admitted = {0};
    bounded.acquire(ImmediateEventExecutor.INSTANCE, () -> admitted[0]++);
    assertEquals(1, bounded.inFlight());
    bounded.acquire(ImmediateEventExecutor.INSTANCE, () -> admitted[0]++);
    assertEquals(2, bounded.inFlight());
    bounded.release();
    assertEquals(1, bounded.inFlight());
    assertEquals(2, admitted[0]);
  }
}
