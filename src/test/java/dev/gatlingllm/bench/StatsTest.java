package dev.gatlingllm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The benchmark's percentiles against numpy's, worked out by hand. */
class StatsTest {

  @Test
  void percentileInterpolatesLikeNumpy() {
    double[] v = {1, 2, 3, 4};
    assertEquals(2.5, Stats.percentile(v, 50), 1e-12);   // numpy.percentile([1,2,3,4], 50)
    assertEquals(3.97, Stats.percentile(v, 99), 1e-12);  // rank 2.97 -> 3 + 0.97
    assertEquals(Double.NaN, Stats.percentile(new double[0], 50));
  }
}
