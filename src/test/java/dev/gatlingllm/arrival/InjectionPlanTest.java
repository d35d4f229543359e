package dev.gatlingllm.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.core.controller.inject.open.AtOnceOpenInjection;
import io.gatling.javaapi.core.OpenInjectionStep;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plan's Gatling steps, expanded by Gatling's own injection iterators, start exactly one
 * user per slot, each between {@code lead} and {@code bucket + lead} ahead of its slot, with
 * a step count bounded by the run's length in buckets rather than the number of requests.
 */
class InjectionPlanTest {

  private static final long SECOND = 1_000_000_000L;

  @Test
  void poissonAtOneThousandPerSecond() {
    ArrivalSchedule schedule =
        ArrivalProfile.builder().numPrompts(20_000).requestRate(1000).seed(4).build().schedule();
    InjectionPlan plan = InjectionPlan.of(schedule);
    List<OpenInjectionStep> steps = plan.steps();
    assertEquals(20_000, GatlingInjectionTimes.totalUsers(steps));
    // 20 s of arrivals need 20 s / 10 ms + 1 = 2001 buckets > 2000: widened twofold to 20 ms,
    // so about 20 users start together, every 20 ms.
    assertEquals(Duration.ofMillis(20), plan.bucket());
    assertTrue(steps.size() <= 2 * 1001, "steps: " + steps.size());
    assertEveryUserAhead(plan, 500_000_000L, 520_000_000L);
  }

  @Test
  void sparseArrivalsKeepTheirDistanceFromTheStart() {
    // At 0.1 req/s the first arrival is seconds after the start: the plan waits for it.
    ArrivalSchedule schedule =
        ArrivalProfile.builder().numPrompts(20).requestRate(0.1).seed(2).build().schedule();
    assertTrue(schedule.offsetNanos(0) > SECOND, "fixture: the first arrival should be late");
    InjectionPlan plan = InjectionPlan.of(schedule);
    assertEquals(20, GatlingInjectionTimes.totalUsers(plan.steps()));
    // 200 s of arrivals: 20,001 buckets of 10 ms, widened 11-fold to 110 ms
    assertEquals(Duration.ofMillis(110), plan.bucket());
    assertEveryUserAhead(plan, 500_000_000L, 610_000_000L);
  }

  @Test
  void unboundedRateIsOneAtOnceStep() {
    ArrivalSchedule schedule = ArrivalProfile.builder().numPrompts(777).build().schedule();
    InjectionPlan plan = InjectionPlan.of(schedule);
    List<OpenInjectionStep> steps = plan.steps();
    assertEquals(1, steps.size());
    assertEquals(new AtOnceOpenInjection(777), steps.get(0).asScala());
    assertEveryUserAhead(plan, 500_000_000L, 500_000_000L);
  }

  @Test
  void customBucketAndLead() {
    ArrivalSchedule schedule = ArrivalProfile.builder().numPrompts(3000).requestRate(200)
        .burstiness(0.3).seed(6).build().schedule();
    InjectionPlan plan =
        InjectionPlan.of(schedule).withBucket(Duration.ofMillis(250)).withLead(Duration.ofMillis(100));
    assertEquals(Duration.ofMillis(250), plan.bucket());
    assertEquals(Duration.ofMillis(100), plan.lead());
    assertTrue(plan.steps().size() <= 2 * (15 * 4 + 1), "steps: " + plan.steps().size());
    assertEveryUserAhead(plan, 100_000_000L, 350_000_000L);
  }

  @Test
  void longRunsWidenBucketsSoStepsStayBounded() {
    // 30,000 arrivals over 20,000 s (about 5.5 hours): 10 ms buckets would need 2,000,001
    // of them; widened 1001-fold (ceil(2,000,001 / 2000)) to 10.01 s.
    ArrivalSchedule schedule =
        ArrivalProfile.builder().numPrompts(30_000).requestRate(1.5).seed(5).build().schedule();
    InjectionPlan plan = InjectionPlan.of(schedule);
    List<OpenInjectionStep> steps = plan.steps();
    assertEquals(Duration.ofMillis(10_010), plan.bucket());
    assertTrue(steps.size() <= 2 * InjectionPlan.DEFAULT_MAX_BUCKETS, "steps: " + steps.size());
    assertEquals(30_000, GatlingInjectionTimes.totalUsers(steps));
    assertEveryUserAhead(plan, 500_000_000L, 10_010_000_000L + 500_000_000L);
  }

  @Test
  void maxBucketsIsConfigurable() {
    ArrivalSchedule schedule =
        ArrivalProfile.builder().numPrompts(5_000).requestRate(50).seed(5).build().schedule();
    InjectionPlan plan = InjectionPlan.of(schedule).withMaxBuckets(10);
    // 100 s of arrivals: 10,001 buckets of 10 ms, widened 1001-fold to fit in 10
    assertEquals(Duration.ofMillis(10_010), plan.bucket());
    assertTrue(plan.steps().size() <= 20, "steps: " + plan.steps().size());
    assertEveryUserAhead(plan, 500_000_000L, 10_010_000_000L + 500_000_000L);
  }

  @Test
  void replayedTraceIsInjectedAroundItsGaps() {
    ArrivalSchedule schedule = ArrivalProfile.builder()
        .replay(ArrivalTrace.ofSeconds(0, 0.2, 0.2, 5.5, 5.9, 60)).build().schedule();
    InjectionPlan plan = InjectionPlan.of(schedule);
    // 60 s need 6001 buckets of 10 ms: widened fourfold to 40 ms. Buckets 0 (one user),
    // 5 (0.2 s: two), 137 (5.5 s), 147 (5.9 s), 1500 (60 s): five atOnce steps with four
    // nothingFor gaps between them.
    assertEquals(Duration.ofMillis(40), plan.bucket());
    assertEquals(9, plan.steps().size());
    assertEveryUserAhead(plan, 500_000_000L, 540_000_000L);
  }

  @Test
  void invalidSettingsAreRejected() {
    InjectionPlan plan = InjectionPlan.of(ArrivalProfile.builder().numPrompts(1).build().schedule());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> plan.withLead(Duration.ofMillis(-1))).getMessage()
        .contains("lead must be whole milliseconds and at least 0 ms, got PT-0.001S"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> plan.withBucket(Duration.ofMillis(5))).getMessage().contains("at least 10 ms"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> plan.withBucket(Duration.ofNanos(1_500_000_001L))).getMessage()
        .contains("whole milliseconds"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> plan.withMaxBuckets(0))
        .getMessage().contains("maxBuckets must be >= 1, got 0"));
  }

  /**
   * Expands the steps with Gatling's iterators, lets the first injected user fix the clock's
   * start for real, and checks how far ahead of its slot every user is injected.
   */
  private static void assertEveryUserAhead(InjectionPlan plan, long minAhead, long maxAhead) {
    long[] userStarts = GatlingInjectionTimes.userStartNanos(plan.steps());
    ArrivalSchedule schedule = plan.schedule();
    assertEquals(schedule.size(), userStarts.length);
    ArrivalClock clock = plan.newClock();
    long before = System.nanoTime();
    assertEquals(0, clock.claim());
    long after = System.nanoTime();
    long slack = after - before;
    for (int i = 0; i < userStarts.length; i++) {
      // User i claims slot i; it is injected userStarts[i] - userStarts[0] after the first one.
      long injectedAt = before + userStarts[i] - userStarts[0];
      long ahead = clock.dueNanos(i) - injectedAt;
      assertTrue(ahead >= minAhead && ahead <= maxAhead + slack,
          "user " + i + " is injected " + ahead / 1e6 + " ms ahead of its slot");
    }
  }
}
