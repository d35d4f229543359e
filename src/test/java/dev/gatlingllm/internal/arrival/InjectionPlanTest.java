package dev.gatlingllm.internal.arrival;

import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.arrival.ArrivalTrace;
import dev.gatlingllm.arrival.GatlingInjectionTimes;
import dev.gatlingllm.arrival.RampUpStrategy;
import io.gatling.core.controller.inject.open.AtOnceOpenInjection;
import io.gatling.core.controller.inject.open.NothingForOpenInjection;
import io.gatling.core.controller.inject.open.RampOpenInjection;
import io.gatling.javaapi.core.OpenInjectionStep;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import scala.concurrent.duration.FiniteDuration;

/**
 * The plan's Gatling steps, expanded by Gatling's own injection iterators, start exactly one
 * user per slot, each between {@code lead} and {@code lead + 2 * bucket} ahead of its slot,
 * with few steps: a user after {@code k} steps with a duration costs Gatling's injector
 * {@code k} iterator layers, every second of the run.
 */
class InjectionPlanTest {

  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000_000_000L;

  @Test
  void aSteadyRateIsOneLongRamp() {
    // 20,000 Poisson arrivals at 1,000 req/s: the k-th arrival is within about sqrt(k) ms of
    // k ms (140 ms at the end), well inside a bucket, so the first 20 one-second cells merge
    // into one even ramp. The last arrival, just past 20 s, opens a 21st cell; a ramp over
    // 21 s would run 5 % slow and end a second behind, so it is a ramp of its own. Every
    // user costs the injector one or two layers.
    ArrivalSchedule schedule =
        ArrivalSchedule.compute(ArrivalProfile.builder()
            .numPrompts(20_000).requestRate(1000).seed(4).build());
    InjectionPlan plan = InjectionPlan.of(schedule);
    List<OpenInjectionStep> steps = plan.steps();
    assertEquals(Duration.ofSeconds(1), plan.bucket());
    assertEquals(20_000, schedule.lastOffsetNanos() / MS, "fixture: the last arrival's ms");
    assertEquals(List.of(new RampOpenInjection(19_999, seconds(20)),
        new RampOpenInjection(1, seconds(1))), scala(steps));
    assertEveryUserAhead(plan, 500 * MS, 2_500 * MS);
  }

  @Test
  void burstyAndRampingSchedulesStayWithinTheirBounds() {
    List<ArrivalProfile> profiles = List.of(
        ArrivalProfile.builder().numPrompts(6_000).requestRate(300).burstiness(0.05).seed(3)
            .build(),
        ArrivalProfile.builder().numPrompts(3_000).rampUp(RampUpStrategy.LINEAR, 1, 200)
            .seed(8).build(),
        ArrivalProfile.builder().numPrompts(3_000).rampUp(RampUpStrategy.EXPONENTIAL, 2, 400)
            .seed(9).build());
    for (ArrivalProfile profile : profiles) {
      InjectionPlan plan = InjectionPlan.of(ArrivalSchedule.compute(profile));
      long cells = ArrivalSchedule.compute(profile).lastOffsetNanos() / SECOND + 1;
      List<OpenInjectionStep> steps = plan.steps();
      assertTrue(steps.size() <= 2 * cells, profile + ": " + steps.size() + " steps");
      assertEveryUserAhead(plan, 500 * MS, 2_500 * MS);
    }
  }

  @Test
  void sparseArrivalsKeepTheirDistanceFromTheStart() {
    // At 0.1 req/s the first arrival is seconds after the start: the plan waits for it.
    ArrivalSchedule schedule =
        ArrivalSchedule.compute(ArrivalProfile.builder()
            .numPrompts(20).requestRate(0.1).seed(2).build());
    long first = schedule.offsetNanos(0);
    assertTrue(first > SECOND, "fixture: the first arrival should be late");
    InjectionPlan plan = InjectionPlan.of(schedule);
    assertEquals(new NothingForOpenInjection(seconds(first / SECOND)),
        plan.steps().get(0).asScala());
    assertEquals(20, GatlingInjectionTimes.totalUsers(plan.steps()));
    assertEveryUserAhead(plan, 500 * MS, 2_500 * MS);
  }

  @Test
  void unboundedRateIsOneAtOnceStep() {
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(777).build());
    InjectionPlan plan = InjectionPlan.of(schedule);
    List<OpenInjectionStep> steps = plan.steps();
    assertEquals(1, steps.size());
    assertEquals(new AtOnceOpenInjection(777), steps.get(0).asScala());
    assertEveryUserAhead(plan, 500 * MS, 500 * MS);
  }

  @Test
  void slotsAtOneLaterInstantWaitForItThenStartTogether() {
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder()
        .replay(ArrivalTrace.ofSeconds(2.25, 2.25, 2.25)).build());
    InjectionPlan plan = InjectionPlan.of(schedule);
    if (schedule.offsetNanos(0) > 0) {
      assertEquals(List.of(new NothingForOpenInjection(millis(2_250)), new AtOnceOpenInjection(3)),
          scala(plan.steps()));
    } else {
      assertEquals(List.of(new AtOnceOpenInjection(3)), scala(plan.steps()));
    }
    assertEveryUserAhead(plan, 500 * MS, 500 * MS);
  }

  @Test
  void customBucketAndLead() {
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(3000).requestRate(200)
        .burstiness(0.3).seed(6).build());
    InjectionPlan plan =
        InjectionPlan.of(schedule).withBucket(Duration.ofSeconds(2)).withLead(Duration.ofMillis(100));
    assertEquals(Duration.ofSeconds(2), plan.bucket());
    assertEquals(Duration.ofMillis(100), plan.lead());
    assertEveryUserAhead(plan, 100 * MS, 4_100 * MS);
  }

  @Test
  void longRunsWidenBucketsSoStepsStayBounded() {
    // 30,000 arrivals over about 20,000 s (5.5 hours) at 1.5 req/s: one-second cells would
    // need 20,001 of them; widened 11-fold (ceil(20,001 / 2000)) to 11 s.
    ArrivalSchedule schedule =
        ArrivalSchedule.compute(ArrivalProfile.builder()
            .numPrompts(30_000).requestRate(1.5).seed(5).build());
    long cells = schedule.lastOffsetNanos() / SECOND + 1;
    long factor = (cells + InjectionPlan.DEFAULT_MAX_BUCKETS - 1) / InjectionPlan.DEFAULT_MAX_BUCKETS;
    assertEquals(11, factor, "fixture: the run's length");
    InjectionPlan plan = InjectionPlan.of(schedule);
    List<OpenInjectionStep> steps = plan.steps();
    assertEquals(Duration.ofSeconds(11), plan.bucket());
    assertTrue(steps.size() <= 2 * InjectionPlan.DEFAULT_MAX_BUCKETS, "steps: " + steps.size());
    assertEquals(30_000, GatlingInjectionTimes.totalUsers(steps));
    assertEveryUserAhead(plan, 500 * MS, 22_500 * MS);
  }

  @Test
  void maxBucketsIsConfigurable() {
    ArrivalSchedule schedule =
        ArrivalSchedule.compute(ArrivalProfile.builder()
            .numPrompts(5_000).requestRate(50).seed(5).build());
    InjectionPlan plan = InjectionPlan.of(schedule).withMaxBuckets(10);
    // About 100 s of arrivals: 101 one-second cells, widened 11-fold to fit in 10.
    assertEquals(101, schedule.lastOffsetNanos() / SECOND + 1, "fixture: the run's length");
    assertEquals(Duration.ofSeconds(11), plan.bucket());
    assertTrue(plan.steps().size() <= 20, "steps: " + plan.steps().size());
    assertEveryUserAhead(plan, 500 * MS, 22_500 * MS);
  }

  @Test
  void replayedTraceIsInjectedAroundItsGaps() {
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder()
        .replay(ArrivalTrace.ofSeconds(0, 0.2, 0.2, 5.5, 5.9, 60)).build());
    InjectionPlan plan = InjectionPlan.of(schedule);
    // Worked by hand from Gatling's even split: the three users of 0-0.2 s ramp over 2 s (at
    // 0, 0.5 and 1 s; over 3 s the third would come at 2 s, 1.8 s before its slot's cell
    // allows), the two of 5.5 and 5.9 s over 3 s (at 5 and 6 s), then 52 s of nothing and
    // the last user.
    assertEquals(List.of(new RampOpenInjection(3, seconds(2)), new NothingForOpenInjection(seconds(3)),
        new RampOpenInjection(2, seconds(3)), new NothingForOpenInjection(seconds(52)),
        new RampOpenInjection(1, seconds(1))), scala(plan.steps()));
    assertEveryUserAhead(plan, 500 * MS, 2_500 * MS);
  }

  @Test
  void whereGatlingPutsARampsUsersIsWhatThePlanAssumes() {
    // The plan's copy of Gatling's even split, against Gatling's own iterator, on ramps of
    // every shape from 1 user in 9 s to 4,000 in 3 s.
    SplittableRandom random = new SplittableRandom(11);
    for (int trial = 0; trial < 300; trial++) {
      int users = 1 + random.nextInt(trial < 150 ? 30 : 4_000);
      int seconds = 1 + random.nextInt(9);
      long[] gatling = GatlingInjectionTimes.userStartNanos(
          List.of(rampUsers(users).during(Duration.ofSeconds(seconds))));
      assertEquals(users, gatling.length);
      int user = 0;
      for (int s = 0; s < seconds; s++) {
        long inSecond = InjectionPlan.evenShare(users, seconds, s);
        for (long k = 0; k < inSecond; k++, user++) {
          long predicted = s * SECOND + InjectionPlan.millisecondOf(k, inSecond) * MS;
          assertEquals(gatling[user], predicted,
              "user " + user + " of rampUsers(" + users + ").during(" + seconds + " s)");
        }
      }
      assertEquals(users, user);
    }
  }

  @Test
  void invalidSettingsAreRejected() {
    InjectionPlan plan = InjectionPlan.of(ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(1).build()));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> plan.withLead(Duration.ofMillis(-1))).getMessage()
        .contains("lead must be whole milliseconds and at least 0 ms, got PT-0.001S"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> plan.withBucket(Duration.ofMillis(500))).getMessage().contains("at least 1 s"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> plan.withBucket(Duration.ofMillis(1_500))).getMessage()
        .contains("whole seconds"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> plan.withMaxBuckets(0))
        .getMessage().contains("maxBuckets must be >= 1, got 0"));
  }

  private static FiniteDuration seconds(long s) {
    return FiniteDuration.apply(s, java.util.concurrent.TimeUnit.SECONDS);
  }

  private static FiniteDuration millis(long ms) {
    return FiniteDuration.apply(ms, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  private static List<Object> scala(List<OpenInjectionStep> steps) {
    return steps.stream().map(s -> (Object) s.asScala()).toList();
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
