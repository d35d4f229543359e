package dev.gatlingllm.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** plot's axis scales: matplotlib's (as vLLM's seaborn hands them over) and sqrt. */
class AxisScaleTest {

  @Test
  void eachScalePlacesValuesAsMatplotlibDoes() {
    assertEquals(3, AxisScale.LOG.forward(1000), 1e-12);
    // symlog: linear within ±1 (× 1 / (1 − 1/10) = 1.111), one decade per unit beyond
    assertEquals(0.5 / 0.9, AxisScale.SYMLOG.forward(0.5), 1e-12);
    assertEquals(1 / 0.9 + 1, AxisScale.SYMLOG.forward(10), 1e-12);
    assertEquals(-(1 / 0.9 + 2), AxisScale.SYMLOG.forward(-100), 1e-12);
    // logit: log10(p / (1 − p)); 0.9 -> log10(9)
    assertEquals(0.954243, AxisScale.LOGIT.forward(0.9), 1e-6);
    assertEquals(0, AxisScale.LOGIT.forward(0.5), 1e-12);
    // asinh(1) = ln(1 + √2)
    assertEquals(0.881374, AxisScale.ASINH.forward(1), 1e-6);
    assertEquals(4, AxisScale.SQRT.forward(16), 1e-12);
    assertEquals(7.5, AxisScale.LINEAR.forward(7.5));
  }

  @Test
  void inverseUndoesForwardOverEachDomain() {
    double[][] samples = {{0.001, 3, 2500}, {-250, -0.3, 0, 0.7, 40}, {0.01, 0.5, 0.97},
        {-8, 0, 3.5}, {0, 2, 900}, {-3, 0, 12}};
    AxisScale[] scales = {AxisScale.LOG, AxisScale.SYMLOG, AxisScale.LOGIT, AxisScale.ASINH,
        AxisScale.SQRT, AxisScale.LINEAR};
    for (int i = 0; i < scales.length; i++) {
      for (double v : samples[i]) {
        assertEquals(v, scales[i].inverse(scales[i].forward(v)), 1e-9 * Math.max(1, Math.abs(v)),
            scales[i] + " " + v);
      }
    }
  }

  @Test
  void valuesOutsideADomainAreNotDrawn() {
    assertFalse(AxisScale.LOG.accepts(0));
    assertFalse(AxisScale.LOGIT.accepts(1));
    assertFalse(AxisScale.LOGIT.accepts(0));
    assertFalse(AxisScale.SQRT.accepts(-1));
    assertTrue(AxisScale.SYMLOG.accepts(-1e6));
    assertTrue(AxisScale.ASINH.accepts(-3));
  }

  @Test
  void theFlagTakesAnyScaleByNameAndNamesTheOthers() {
    assertEquals(AxisScale.LINEAR, AxisScale.parse("--scale-x", null));
    assertEquals(AxisScale.SYMLOG, AxisScale.parse("--scale-x", "symlog"));
    assertEquals(AxisScale.LOGIT, AxisScale.parse("--scale-y", "Logit"));
    assertEquals("--scale-y: invalid choice: 'ln' (choose from 'linear', 'log', 'symlog', "
        + "'logit', 'asinh', 'sqrt')", assertThrows(IllegalArgumentException.class,
            () -> AxisScale.parse("--scale-y", "ln")).getMessage());
  }
}
