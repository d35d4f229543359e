package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PercentilesAndMetricTest {

  @Test
  void parsesPercentilesKeepingOrderAndRepeats() {
    assertArrayEquals(new double[] {50, 90, 99, 99.9, 99}, Percentiles.parse("50, 90,99,99.9,99"));
  }

  @Test
  void rejectsPercentilesOutsideNumpysRange() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Percentiles.parse("50,101"));
    assertEquals("Invalid metric percentile 101.0: percentiles must be in the range [0, 100]",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Percentiles.parse("50,p99"));
    assertTrue(e.getMessage().contains("'p99'") && e.getMessage().contains("\"50,p99\""),
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Percentiles.parse(""));
    assertThrows(IllegalArgumentException.class, () -> Percentiles.validate(Double.NaN));
  }

  @Test
  void parsesPercentileMetrics() {
    assertEquals(List.of(Metric.E2EL, Metric.TTFT), Metric.parseList("e2el, TTFT"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Metric.parseList("ttft,latency"));
    assertEquals("Invalid percentile metrics \"ttft,latency\": Unknown metric 'latency': allowed "
        + "metric names are \"ttft\", \"tpot\", \"itl\", \"e2el\", \"client_queue_time\", "
        + "\"e2el_including_client_queue\"", e.getMessage());
  }

  @Test
  void metricNamesAreVllms() {
    assertEquals("Time per Output Token (excl. 1st token)", Metric.TPOT.header());
    assertEquals("E2EL", Metric.E2EL.label());
    assertEquals("itl", Metric.ITL.key());
  }
}
