package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Expected values from scipy.stats.t.ppf and numpy (std with ddof=1). */
class StatsTest {

  @Test
  void studentTQuantilesMatchScipy() {
    assertEquals(12.706204736174694, Stats.tQuantile(0.975, 1), 1e-9);
    assertEquals(4.302652729749462, Stats.tQuantile(0.975, 2), 1e-9);
    assertEquals(2.7764451051977934, Stats.tQuantile(0.975, 4), 1e-9);
    assertEquals(2.262157162798205, Stats.tQuantile(0.975, 9), 1e-9);
    assertEquals(2.0422724563012378, Stats.tQuantile(0.975, 30), 1e-9);
    assertEquals(1.9623390808264083, Stats.tQuantile(0.975, 1000), 1e-9);
  }

  @Test
  void meanSampleStdAndConfidenceInterval() {
    Stats s = Stats.of(new double[] {1, 2, 3, 4}, 0.95);
    assertEquals(4, s.n());
    assertEquals(2.5, s.mean(), 1e-12);
    assertEquals(1.2909944487358056, s.std(), 1e-12);
    assertEquals(0.4457397432394794, s.ciLow(), 1e-9);
    assertEquals(4.554260256760521, s.ciHigh(), 1e-9);
    Stats three = Stats.of(new double[] {10.5, 11.25, 9.75}, 0.95);
    assertEquals(0.75, three.std(), 1e-12);
    assertEquals(8.636896716187252, three.ciLow(), 1e-9);
    assertEquals(12.363103283812748, three.ciHigh(), 1e-9);
    assertTrue(three.hasInterval());
  }

  @Test
  void threeRunsWorkedByHand() {
    // 10, 12, 14: mean 12; deviations -2, 0, 2, squares 8, / (3 - 1) = 4, std 2;
    // CV 2 / 12 = 1/6; half width t(0.975, 2) * 2 / sqrt(3) = 4.302652729749462 * 1.1547005
    // = 4.968275423500661
    Stats s = Stats.of(new double[] {14, 10, 12}, 0.95);
    assertEquals(12, s.mean(), 1e-12);
    assertEquals(2, s.std(), 1e-12);
    assertEquals(10, s.min());
    assertEquals(14, s.max());
    assertEquals(1.0 / 6, s.cv(), 1e-12);
    assertEquals(12 - 4.968275423500661, s.ciLow(), 1e-9);
    assertEquals(12 + 4.968275423500661, s.ciHigh(), 1e-9);
  }

  @Test
  void theVariationOfOneRunOrOfAZeroMeanIsUndefined() {
    assertTrue(Double.isNaN(Stats.of(new double[] {5}, 0.95).cv()));
    assertTrue(Double.isNaN(Stats.of(new double[] {-1, 1}, 0.95).cv()));
    // a negative mean still gives a positive spread ratio: |mean|
    assertEquals(Math.sqrt(2) / 2, Stats.of(new double[] {-1, -3}, 0.95).cv(), 1e-12);
    Stats one = Stats.of(new double[] {5}, 0.95);
    assertEquals(5, one.min());
    assertEquals(5, one.max());
  }

  @Test
  void oneRunHasAMeanButNoInterval() {
    Stats s = Stats.of(new double[] {7}, 0.95);
    assertEquals(7, s.mean());
    assertFalse(s.hasInterval());
    assertTrue(Double.isNaN(s.std()) && Double.isNaN(s.ciLow()));
    assertTrue(Double.isNaN(Stats.of(new double[0], 0.95).mean()));
  }

  @Test
  void quantileOutsideItsDomainIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> Stats.tQuantile(0.4, 3));
    assertThrows(IllegalArgumentException.class, () -> Stats.tQuantile(0.975, 0));
  }
}
