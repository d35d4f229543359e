package dev.gatlingllm.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlaCriterionTest {

  @Test
  void everyOperatorParsesAndChecks() {
    List<Map<String, SlaCriterion>> slas = SlaCriterion.parseAll(
        "[{\"p99_e2el_ms\": \"<=500\", \"mean_ttft_ms\": \"<100\"},"
            + " {\"request_throughput\": \">=2.5\", \"output_throughput\": \">10\"}]");
    assertEquals(2, slas.size());
    SlaCriterion le = slas.get(0).get("p99_e2el_ms");
    assertEquals(new SlaCriterion("<=", 500), le);
    assertTrue(le.holds(500));
    assertFalse(le.holds(500.01));
    SlaCriterion lt = slas.get(0).get("mean_ttft_ms");
    assertFalse(lt.holds(100));
    assertTrue(lt.holds(99.9));
    SlaCriterion ge = slas.get(1).get("request_throughput");
    assertTrue(ge.holds(2.5));
    assertFalse(ge.holds(2.49));
    SlaCriterion gt = slas.get(1).get("output_throughput");
    assertFalse(gt.holds(10));
    assertTrue(gt.holds(10.5));
  }

  @Test
  void conditionsAreWrittenAsVllmWritesThem() {
    assertEquals("p99_e2el_ms<=500.00", new SlaCriterion("<=", 500).format("p99_e2el_ms"));
    assertEquals("p99_e2el_ms = 123.46<=500.00",
        new SlaCriterion("<=", 500).format("p99_e2el_ms = 123.46"));
    assertEquals("a<=1.50-b>2.00", SlaCriterion.format(SlaCriterion.parseAll(
        "[{\"a\": \"<=1.5\", \"b\": \">2\"}]").get(0)));
  }

  @Test
  void badConstraintsAreNamed() {
    IllegalArgumentException op = assertThrows(IllegalArgumentException.class,
        () -> SlaCriterion.parseAll("[{\"p99_e2el_ms\": \"=500\"}]"));
    assertEquals("Invalid operator for SLA constraint 'p99_e2el_ms==500'. Valid operators "
        + "are: {'<=', '<', '>=', '>'}", op.getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SlaCriterion.parseAll("[{\"x\": \"<=fast\"}]")).getMessage()
        .contains("'fast' is not a number"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SlaCriterion.parseAll("{\"x\": \"<=1\"}")).getMessage()
        .contains("should be a list of dictionaries, but found type: <class 'dict'>"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SlaCriterion.parseAll("[]")).getMessage().contains("empty"));
  }
}
