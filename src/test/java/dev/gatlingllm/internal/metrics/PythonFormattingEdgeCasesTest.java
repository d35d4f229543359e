package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * Python's repr and "{:.Nf}" for the numbers {@link PyFormatTest} does not reach: subnormals
 * whose shortest form has one digit (9.9e-324 prints as 1e-323), every exponent around the
 * positional / scientific switch, two-digit exponents, negative zero, nan, and a few hundred
 * seeded random doubles. The answers are Python's own (make_edge_fixtures.py).
 */
class PythonFormattingEdgeCasesTest {

  @Test
  void reprMatchesPythonOnHundredsOfAwkwardDoubles() {
    int checked = 0;
    for (JsonNode c : NumericEdgeCases.ROOT.get("repr")) {
      double v = NumericEdgeCases.value(c.get("hex").asText());
      assertEquals(c.get("repr").asText(), PyFormat.repr(v), "repr of " + c.get("hex").asText());
      checked++;
    }
    assertTrue(checked > 500, "cases read: " + checked);
  }

  @Test
  void fixedMatchesPythonWithZeroAndThreeDecimals() {
    int checked = 0;
    for (JsonNode c : NumericEdgeCases.ROOT.get("repr")) {
      if (!c.has("fixed0")) {
        continue;
      }
      double v = NumericEdgeCases.value(c.get("hex").asText());
      assertEquals(c.get("fixed0").asText(), PyFormat.fixed(v, 0), "{:.0f} of " + c.get("hex"));
      assertEquals(c.get("fixed3").asText(), PyFormat.fixed(v, 3), "{:.3f} of " + c.get("hex"));
      checked++;
    }
    assertTrue(checked > 300, "cases read: " + checked);
  }

  @Test
  void signedZeroesAndNan() {
    assertEquals("-0.0", PyFormat.repr(-0.0));
    assertEquals("0.0", PyFormat.repr(0.0));
    assertEquals("nan", PyFormat.repr(Double.NaN));
    assertEquals("-0.00", PyFormat.fixed(-0.0, 2));
    assertEquals("0.00", PyFormat.fixed(0.0, 2));
    assertEquals("nan", PyFormat.fixed(Double.NaN, 2));
  }

  @Test
  void roundingCarriesIntoTheNextPowerOfTen() {
    // 2 * 4.9e-324 is 9.88e-324; its shortest repr is one digit that carries: 1e-323.
    assertEquals("1e-323", PyFormat.repr(2 * Double.MIN_VALUE));
    assertEquals("5e-324", PyFormat.repr(Double.MIN_VALUE));
    assertEquals("1.5e-323", PyFormat.repr(3 * Double.MIN_VALUE));
  }

  @Test
  void twoDigitExponentsHaveNoPadding() {
    assertEquals("1e-10", PyFormat.repr(1e-10));
    assertEquals("1e-09", PyFormat.repr(1e-9));
    assertEquals("1e+100", PyFormat.repr(1e100));
  }

  @Test
  void percentileWordsOfLargeWholeNumbersStayIntegersUpToTheSwitch() {
    assertEquals("999999999999999", PyFormat.percentileWord(999_999_999_999_999.0));
    assertEquals("1000000000000000.0", PyFormat.percentileWord(1e15));
  }

  @Test
  void centeringNeverTruncates() {
    assertEquals("abcdef", PyFormat.center("abcdef", 3, '='));
    assertEquals("abc", PyFormat.center("abc", 3, '='));
    assertEquals("=abc=", PyFormat.center("abc", 5, '='));
    assertEquals("abc ", PyFormat.left("abc", 4));
  }
}
