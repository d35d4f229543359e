package dev.gatlingllm.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.arrival.BoundedConcurrencyLimiter;
import dev.gatlingllm.internal.arrival.ConcurrencyLimiter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ArrivalProfileTest {

  private static final ArrivalProfile.Builder BASE = ArrivalProfile.builder();

  @Test
  void rampExcludesAnExplicitRate() {
    assertRejected(() -> BASE.requestRate(10).rampUp(RampUpStrategy.LINEAR, 1, 5).build(),
        "requestRate 10.0 cannot be combined with the linear ramp-up");
  }

  @Test
  void rampNeedsStartAndEnd() {
    assertRejected(() -> BASE.rampUpStrategy("exponential").rampUpEndRps(5).build(),
        "the exponential ramp-up needs both rampUpStartRps and rampUpEndRps, got start=null, end=5");
    assertRejected(() -> BASE.rampUpStrategy(RampUpStrategy.LINEAR).rampUpStartRps(1).build(),
        "got start=1, end=null");
  }

  @Test
  void rampRatesWithoutAStrategyAreRejected() {
    assertRejected(() -> BASE.rampUpStartRps(1).rampUpEndRps(4).build(),
        "are set without rampUpStrategy");
  }

  @Test
  void rampStartMustNotExceedEnd() {
    assertRejected(() -> BASE.rampUp(RampUpStrategy.LINEAR, 10, 5).build(),
        "rampUpStartRps (10) must be <= rampUpEndRps (5)");
  }

  @Test
  void rampRatesMustBeNonNegative() {
    assertRejected(() -> BASE.rampUp(RampUpStrategy.LINEAR, -1, 5).build(),
        "must be >= 0, got start=-1, end=5");
  }

  @Test
  void exponentialRampNeedsAPositiveStart() {
    assertRejected(() -> BASE.rampUp(RampUpStrategy.EXPONENTIAL, 0, 5).build(),
        "the exponential ramp-up needs rampUpStartRps > 0, got 0");
  }

  @Test
  void rampToZeroIsRejected() {
    assertRejected(() -> BASE.rampUp(RampUpStrategy.LINEAR, 0, 0).build(),
        "needs rampUpEndRps > 0, got 0");
  }

  @Test
  void unknownStrategyNamesTheAllowedOnes() {
    assertRejected(() -> BASE.rampUpStrategy("step"),
        "unknown ramp-up strategy 'step': allowed values are 'linear' and 'exponential'");
  }

  @Test
  void burstinessMustBePositive() {
    assertRejected(() -> BASE.burstiness(0).build(), "burstiness must be a positive finite number");
    assertRejected(() -> BASE.burstiness(-2).build(), "got -2.0");
    assertRejected(() -> BASE.burstiness(Double.NaN).build(), "got NaN");
  }

  @Test
  void rateMustBePositiveOrInfinite() {
    assertRejected(() -> BASE.requestRate(0).build(),
        "requestRate must be > 0 (requests per second) or Double.POSITIVE_INFINITY");
    assertRejected(() -> BASE.requestRate(-3).build(), "got -3.0");
    assertRejected(() -> BASE.requestRate(Double.NaN).build(), "got NaN");
  }

  @Test
  void numPromptsMustBePositive() {
    assertRejected(() -> BASE.numPrompts(0).build(), "numPrompts must be >= 1, got 0");
  }

  @Test
  void maxConcurrencyMustBePositiveWhenSet() {
    assertRejected(() -> BASE.maxConcurrency(0).build(), "maxConcurrency must be >= 1 when set, got 0");
  }

  @Test
  void replayExcludesRateRampAndBurstiness() {
    ArrivalTrace trace = ArrivalTrace.ofSeconds(0, 1);
    assertRejected(() -> BASE.replay(trace).requestRate(5).build(),
        "requestRate 5.0 cannot be combined with replay");
    assertRejected(() -> BASE.replay(trace).burstiness(0.5).build(),
        "burstiness 0.5 cannot be combined with replay");
    assertRejected(() -> BASE.replay(trace).rampUp(RampUpStrategy.LINEAR, 1, 2).build(),
        "the linear ramp-up cannot be combined with replay");
  }

  @Test
  void replayNeedsEnoughArrivalsAndAPositiveScale() {
    ArrivalTrace trace = ArrivalTrace.ofSeconds(0, 1, 2);
    assertRejected(() -> BASE.replay(trace).numPrompts(4).build(),
        "numPrompts 4 exceeds the 3 arrivals of of 3 timestamps; use at most 3");
    assertRejected(() -> BASE.replay(trace).replayTimeScale(0).build(),
        "replayTimeScale must be a positive finite factor, got 0.0");
    assertRejected(() -> BASE.replayTimeScale(2).build(), "nothing is replayed");
  }

  @Test
  void builderIsImmutable() {
    ArrivalProfile.Builder poisson = BASE.requestRate(5);
    poisson.burstiness(0.3).seed(9).maxConcurrency(4);
    ArrivalProfile built = poisson.build();
    assertEquals(1.0, built.burstiness());
    assertEquals(0, built.seed());
    assertTrue(built.maxConcurrency().isEmpty());
    assertEquals(Double.POSITIVE_INFINITY, BASE.build().requestRate());
  }

  @Test
  void resultParametersForAConstantRate() {
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("request_rate", 12.5);
    expected.put("burstiness", 0.5);
    expected.put("max_concurrency", 8);
    expected.put("seed", 3L);
    Map<String, Object> actual = BASE.requestRate(12.5).burstiness(0.5).maxConcurrency(8).seed(3)
        .build().resultParameters();
    assertEquals(expected, actual);
    assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(actual.keySet()));
  }

  @Test
  void resultParametersForAnUnboundedRate() {
    Map<String, Object> params = BASE.build().resultParameters();
    assertEquals("inf", params.get("request_rate"));
    assertEquals(1.0, params.get("burstiness"));
    assertTrue(params.containsKey("max_concurrency"));
    assertNull(params.get("max_concurrency"));
    assertEquals(0L, params.get("seed"));
  }

  @Test
  void resultParametersForARamp() {
    Map<String, Object> params =
        BASE.rampUp(RampUpStrategy.EXPONENTIAL, 2, 40).build().resultParameters();
    assertEquals(List.of("request_rate", "burstiness", "max_concurrency", "ramp_up_strategy",
        "ramp_up_start_rps", "ramp_up_end_rps", "seed"), new ArrayList<>(params.keySet()));
    assertEquals("inf", params.get("request_rate"));
    assertEquals("exponential", params.get("ramp_up_strategy"));
    assertEquals(2, params.get("ramp_up_start_rps"));
    assertEquals(40, params.get("ramp_up_end_rps"));
  }

  @Test
  void newLimiterFollowsMaxConcurrency() {
    assertTrue(BASE.build().newLimiter() == ConcurrencyLimiter.unlimited());
    ConcurrencyLimiter bounded = BASE.maxConcurrency(3).build().newLimiter();
    assertEquals(3, ((BoundedConcurrencyLimiter) bounded).limit());
  }

  private static void assertRejected(Supplier<?> build, String fragment) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::get);
    assertTrue(e.getMessage().contains(fragment),
        () -> "message '" + e.getMessage() + "' lacks '" + fragment + "'");
  }
}
