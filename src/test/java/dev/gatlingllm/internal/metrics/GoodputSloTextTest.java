package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * SLOs written as Python floats: vLLM parses values with {@code float()}, which accepts
 * {@code inf}, and prints them back with repr, which is how they appear in logs.
 */
class GoodputSloTextTest {

  @Test
  void infinityIsAValidBoundThatEveryRequestMeets() {
    GoodputSlo slo = GoodputSlo.parse("ttft:inf e2el:Infinity");
    assertEquals(Map.of("ttft", Double.POSITIVE_INFINITY, "e2el", Double.POSITIVE_INFINITY),
        slo.asMap());
    assertTrue(slo.isGood(1e9, 1e9, 1e9));
  }

  @Test
  void negativeInfinityIsANegativeValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GoodputSlo.parse("tpot:-inf"));
    assertEquals("Invalid value found, tpot: -inf. The service level objective value should be "
        + "non-negative.", e.getMessage());
  }

  @Test
  void slosPrintAsVllmArguments() {
    assertEquals("ttft:500.0 e2el:inf", GoodputSlo.parse("ttft:500 e2el:inf").toString());
    assertEquals("none", GoodputSlo.none().toString());
  }
}
