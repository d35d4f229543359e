package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The distribution maths to the last bit, against make_edge_fixtures.py: means and standard
 * deviations of samples whose naive sum loses bits (expected values from Python's correctly
 * rounded math.fsum), and percentiles whose interpolation weight is exactly one half, where
 * numpy's lerp from the nearer end decides the last bit (expected values from numpy).
 */
class StatsPrecisionTest {

  private static final double[] P50 = {50};

  @Test
  void meanAndStdAreCorrectlyRoundedWhereANaiveSumIsNot() {
    int needCompensation = 0;
    for (JsonNode c : NumericEdgeCases.ROOT.get("stats")) {
      double[] seconds = NumericEdgeCases.doubles(c.get("seconds"));
      Distribution d = Stats.ofSeconds(seconds.clone(), seconds.length, P50);
      assertEquals(c.get("mean_ms").asDouble(), d.mean(), 0.0, "mean of " + c.get("seconds"));
      assertEquals(c.get("std_ms").asDouble(), d.std(), 0.0, "std of " + c.get("seconds"));
      if (c.get("naive_differs").asBoolean()) {
        needCompensation++;
      }
    }
    assertTrue(needCompensation >= 20, "samples that need compensation: " + needCompensation);
  }

  @Test
  void microsecondSamplesGiveTheSameFiguresAsTheirSeconds() {
    int[] micros = {1_250, 7, 400_000, 3_000_001, 12};
    double[] seconds = {0.00125, 0.000007, 0.4, 3.000001, 0.000012};
    double[] ps = {0, 25, 50, 90, 100};
    Distribution fromMicros = Stats.ofMicros(micros, micros.length, ps);
    Distribution fromSeconds = Stats.ofSeconds(seconds, seconds.length, ps);
    assertEquals(fromSeconds, fromMicros);
    // Sum 3.40127 s over 5; sorted, p90 sits at index 3.6: 0.4 + 0.6 * (3.000001 - 0.4) s.
    assertEquals(680.254, fromMicros.mean(), 1e-9);
    assertEquals(1.25, fromMicros.median(), 1e-12);
    assertEquals(1960.0006, fromMicros.percentile(90), 1e-9);
  }

  @Test
  void percentilesAtHalfWeightsMatchNumpyBitForBit() {
    int checked = 0;
    for (JsonNode c : NumericEdgeCases.ROOT.get("percentiles")) {
      double[] seconds = NumericEdgeCases.doubles(c.get("seconds"));
      double[] ps = NumericEdgeCases.doubles(c.get("percentiles"));
      double[] expected = NumericEdgeCases.doubles(c.get("values_ms"));
      List<PercentileValue> got = Stats.ofSeconds(seconds.clone(), seconds.length, ps)
          .percentiles();
      for (int i = 0; i < ps.length; i++) {
        assertEquals(expected[i], got.get(i).valueMs(), 0.0,
            "p" + ps[i] + " of " + c.get("seconds"));
        checked++;
      }
    }
    assertTrue(checked > 300, "percentiles checked: " + checked);
  }

  @Test
  void evenSampleMedianIsTheMidpoint() {
    // (0.002 + 0.004) / 2 s = 3 ms; the odd sample's middle element is 4 ms.
    assertEquals(3.0, Stats.ofSeconds(new double[] {0.004, 0.001, 0.002, 0.009}, 4, P50).median(),
        1e-12);
    assertEquals(4.0, Stats.ofSeconds(new double[] {0.004, 0.001, 0.009}, 3, P50).median(), 1e-12);
  }
}
