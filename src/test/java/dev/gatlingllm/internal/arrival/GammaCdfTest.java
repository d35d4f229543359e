package dev.gatlingllm.internal.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.arrival.Fixtures;
import org.junit.jupiter.api.Test;

/** The test-side Gamma CDF and KS statistic agree with scipy (fixtures.json). */
class GammaCdfTest {

  private final JsonNode fixtures = Fixtures.json();

  @Test
  void gammaCdfMatchesScipy() {
    for (JsonNode c : fixtures.get("gamma_cdf")) {
      double shape = c.get("shape").asDouble();
      double scale = c.get("scale").asDouble();
      double x = c.get("x").asDouble();
      assertEquals(c.get("cdf").asDouble(), GammaCdf.cdf(shape, scale, x), 1e-12,
          () -> "Gamma(" + shape + ", " + scale + ").cdf(" + x + ")");
      assertEquals(c.get("p").asDouble(), GammaCdf.regularizedLowerGamma(shape, x / scale), 1e-12);
    }
  }

  @Test
  void ksStatisticMatchesScipy() {
    JsonNode ks = fixtures.get("ks");
    double[] sample = new double[ks.get("sample").size()];
    for (int i = 0; i < sample.length; i++) {
      sample[i] = ks.get("sample").get(i).asDouble();
    }
    double d = GammaCdf.ksStatistic(sample,
        GammaCdf.of(ks.get("shape").asDouble(), ks.get("scale").asDouble()));
    assertEquals(ks.get("statistic").asDouble(), d, 1e-12);
  }

  @Test
  void ksCriticalValueMatchesTheFixture() {
    assertEquals(fixtures.get("ks_critical_0001").asDouble(), GammaCdf.ksCritical(0.001, 1), 1e-12);
  }
}
