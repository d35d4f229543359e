package dev.gatlingllm.internal.servermetrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The energy arithmetic on values worked out by hand in the comments. */
class EnergyMathsTest {

  private static final double NaN = Double.NaN;

  @Test
  void aCounterGrowsByItsRisesAndCountsFromZeroAfterAReset() {
    // 1000 -> 1500 (+500) -> 2100 (+600) -> reset to 300 (+300, counted from 0) -> 700 (+400)
    EnergyMaths.Increase i = EnergyMaths.increase(new double[] {1000, 1500, 2100, 300, 700});
    assertEquals(1800, i.rise(), 1e-9);
    assertEquals(1, i.resets());
    assertEquals(5, i.readings());
  }

  @Test
  void aMissingReadingIsSkippedNotReadAsZero() {
    // 5000, (missing), 5600, (missing), 6000: +600 +400; read as 0 it would be two resets
    EnergyMaths.Increase i = EnergyMaths.increase(new double[] {5000, NaN, 5600, NaN, 6000});
    assertEquals(1000, i.rise(), 1e-9);
    assertEquals(0, i.resets());
    assertEquals(3, i.readings());
  }

  @Test
  void fewerThanTwoReadingsGiveNoIncrease() {
    assertTrue(Double.isNaN(EnergyMaths.increase(new double[] {NaN, 42, NaN}).rise()));
    assertTrue(Double.isNaN(EnergyMaths.increase(new double[] {}).rise()));
  }

  @Test
  void powerIntegratesByTrapezoidsOverTheSampleTimes() {
    // 0-1 s: (100+200)/2 = 150 J; 1-3 s: (200+100)/2 * 2 = 300 J; the NaN at 2 s is skipped
    double joules = EnergyMaths.integrate(new double[] {0, 1, 2, 3},
        new double[] {100, 200, NaN, 100});
    assertEquals(450, joules, 1e-9);
    assertTrue(Double.isNaN(EnergyMaths.integrate(new double[] {0}, new double[] {100})));
  }

  @Test
  void meanAndPeakSkipMissingSamples() {
    // (300 + 450 + 150) / 3 = 300; the peak is 450
    double[] watts = {300, NaN, 450, 150};
    assertEquals(300, EnergyMaths.mean(watts), 1e-9);
    assertEquals(450, EnergyMaths.peak(watts), 1e-9);
    assertTrue(Double.isNaN(EnergyMaths.mean(new double[] {NaN})));
    assertTrue(Double.isNaN(EnergyMaths.peak(new double[] {})));
  }
}
