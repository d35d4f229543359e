package dev.gatlingllm.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A ramped schedule is not rescaled to N / rate afterwards (the rate changes along the run),
 * so each gap's own scale must give it a mean of 1 / rate whatever the burstiness: gamma
 * shape b with scale 1 / (rate * b) has mean 1 / rate. A flat "ramp" at 10 req/s makes the
 * expected span easy to state: 4,000 gaps of 0.1 s on average, 400 s.
 */
class RampedBurstinessScaleTest {

  private static double spanSeconds(double burstiness) {
    return ArrivalProfile.builder().rampUp(RampUpStrategy.LINEAR, 10, 10).burstiness(burstiness)
        .numPrompts(4_000).seed(11).build().schedule().lastOffsetNanos() / 1e9;
  }

  @Test
  void regularArrivalsKeepTheRampsRate() {
    // shape 4: each gap has variance 4 * (1/40)^2, the sum of 4,000 a std of about 3.2 s
    assertEquals(400, spanSeconds(4), 16);
  }

  @Test
  void burstyArrivalsKeepTheRampsRate() {
    // shape 0.25: each gap has variance 0.25 * 0.4^2 = 0.04, the sum a std of about 12.6 s
    assertEquals(400, spanSeconds(0.25), 63);
  }
}
