package dev.gatlingllm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The benchmark's statistics against closed forms worked out by hand. */
class StatsTest {

  @Test
  void gammaCdfOfShapeOneIsTheExponential() {
    for (double x : new double[] {0.001, 0.5, 1, 3, 20}) {
      assertEquals(1 - Math.exp(-x / 2), Stats.gammaCdf(1, 2, x), 1e-12, "x=" + x);
    }
  }

  @Test
  void gammaCdfOfShapeTwoIsOneMinusExpTimesOnePlusX() {
    for (double x : new double[] {0.01, 1, 2.5, 4, 30}) {
      assertEquals(1 - Math.exp(-x) * (1 + x), Stats.gammaCdf(2, 1, x), 1e-12, "x=" + x);
    }
  }

  @Test
  void gammaCdfOfShapeOneHalfIsTheErrorFunctionOfTheRoot() {
    // P(1/2, x) = erf(sqrt(x)); erf(0.1) = 0.1124629160182849, erf(1) = 0.8427007929497149,
    // erf(2) = 0.9953222650189527 (tables).
    assertEquals(0.1124629160182849, Stats.gammaCdf(0.5, 1, 0.01), 1e-12);
    assertEquals(0.8427007929497149, Stats.gammaCdf(0.5, 1, 1), 1e-12);
    assertEquals(0.9953222650189527, Stats.gammaCdf(0.5, 1, 4), 1e-12);
  }

  @Test
  void gammaCdfIsZeroAtAndBelowZero() {
    assertEquals(0, Stats.gammaCdf(0.5, 1, 0));
    assertEquals(0, Stats.gammaCdf(0.5, 1, -1));
  }

  @Test
  void ksDistanceIsTheLargestStepGap() {
    // Uniform(0,1) CDF; sample {0.1, 0.2, 0.9}: steps at 1/3, 2/3, 1. Gaps: at 0.1 the
    // empirical CDF jumps to 1/3 (gap 0.2333), at 0.2 to 2/3 (0.4667), at 0.9 from 2/3
    // (0.9 - 0.6667 = 0.2333) to 1 (0.1). Largest: 0.4667.
    assertEquals(2.0 / 3 - 0.2, Stats.ksDistance(new double[] {0.9, 0.1, 0.2}, x -> x), 1e-12);
  }

  @Test
  void percentileInterpolatesLikeNumpy() {
    double[] v = {1, 2, 3, 4};
    assertEquals(2.5, Stats.percentile(v, 50), 1e-12);   // numpy.percentile([1,2,3,4], 50)
    assertEquals(3.97, Stats.percentile(v, 99), 1e-12);  // rank 2.97 -> 3 + 0.97
    assertEquals(Double.NaN, Stats.percentile(new double[0], 50));
  }
}
