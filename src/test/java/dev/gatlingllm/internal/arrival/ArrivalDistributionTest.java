package dev.gatlingllm.internal.arrival;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.arrival.RampUpStrategy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Gaps of long schedules follow Gamma(burstiness, 1 / (rate * burstiness)): a one-sample
 * Kolmogorov-Smirnov test at significance 0.001 with fixed seeds, plus a control showing the
 * same test rejects the wrong burstiness (so it has the power to fail).
 */
class ArrivalDistributionTest {

  private static final int N = 20_000;
  private static final double RATE = 40.0;
  private static final double ALPHA = 0.001;

  @ParameterizedTest
  @ValueSource(doubles = {0.25, 1.0, 4.0})
  void scheduleGapsPassKsAgainstGamma(double burstiness) {
    double[] gaps = gapsSeconds(ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(N).requestRate(RATE)
        .burstiness(burstiness).seed(20240601L).build()));
    double d = GammaCdf.ksStatistic(gaps, GammaCdf.of(burstiness, 1 / (RATE * burstiness)));
    double critical = GammaCdf.ksCritical(ALPHA, N);
    assertTrue(d < critical, "KS D=" + d + " >= critical " + critical + " for burstiness " + burstiness);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.25, 1.0, 4.0})
  void ksRejectsTheWrongBurstiness(double burstiness) {
    double[] gaps = gapsSeconds(ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(N).requestRate(RATE)
        .burstiness(burstiness).seed(20240601L).build()));
    double wrong = burstiness == 1.0 ? 2.0 : 1.0;
    double d = GammaCdf.ksStatistic(gaps, GammaCdf.of(wrong, 1 / (RATE * wrong)));
    assertTrue(d > 3 * GammaCdf.ksCritical(ALPHA, N),
        "KS should reject Gamma(" + wrong + ") for burstiness " + burstiness + ", D=" + d);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.1, 0.5, 1.0, 2.5, 9.0})
  void rawSamplerPassesKs(double shape) {
    GammaSampler sampler = new GammaSampler(99);
    double[] draws = new double[N];
    for (int i = 0; i < N; i++) {
      draws[i] = sampler.next(shape, 3.0);
    }
    double d = GammaCdf.ksStatistic(draws, GammaCdf.of(shape, 3.0));
    assertTrue(d < GammaCdf.ksCritical(ALPHA, N), "shape " + shape + ": D=" + d);
  }

  @ParameterizedTest
  @ValueSource(strings = {"linear", "exponential"})
  void rampGapsScaledByTheirRateAreGamma(String strategy) {
    double burstiness = 0.5;
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder().numPrompts(N)
        .rampUp(RampUpStrategy.fromCliName(strategy), 5, 80).burstiness(burstiness).seed(3)
        .build());
    double[] gaps = gapsSeconds(schedule);
    // Each gap i ~ Gamma(b, 1 / (r_i b)), so gap_i * r_i ~ Gamma(b, 1 / b) for all i.
    for (int i = 0; i < N; i++) {
      gaps[i] *= schedule.rate(i);
    }
    double d = GammaCdf.ksStatistic(gaps, GammaCdf.of(burstiness, 1 / burstiness));
    assertTrue(d < GammaCdf.ksCritical(ALPHA, N), strategy + ": D=" + d);
  }

  /** All N gaps: the first arrival's distance from the start, then the distances between arrivals. */
  static double[] gapsSeconds(ArrivalSchedule schedule) {
    double[] gaps = new double[schedule.size()];
    long previous = 0;
    for (int i = 0; i < gaps.length; i++) {
      gaps[i] = (schedule.offsetNanos(i) - previous) / 1e9;
      previous = schedule.offsetNanos(i);
    }
    return gaps;
  }
}
