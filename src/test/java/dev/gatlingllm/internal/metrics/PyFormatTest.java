package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** Python's own repr / "{:.2f}" output for awkward doubles (pyformat_cases.json). */
class PyFormatTest {

  @Test
  void reprAndFixedMatchPython() throws Exception {
    JsonNode cases;
    try (InputStream in = getClass().getResourceAsStream("/metrics/pyformat_cases.json")) {
      cases = new ObjectMapper().readTree(in);
    }
    int checked = 0;
    for (JsonNode c : cases) {
      String hex = c.get("hex").asText();
      double v = hex.endsWith("inf") ? (hex.startsWith("-") ? Double.NEGATIVE_INFINITY
          : Double.POSITIVE_INFINITY) : Double.parseDouble(hex);
      assertEquals(c.get("repr").asText(), PyFormat.repr(v), "repr of " + hex);
      assertEquals(c.get("fixed2").asText(), PyFormat.fixed(v, 2), "{:.2f} of " + hex);
      checked++;
    }
    assertEquals(35, checked);
  }

  @Test
  void percentileWordsAsVllmNamesKeys() {
    assertEquals("99", PyFormat.percentileWord(99));
    assertEquals("99.9", PyFormat.percentileWord(99.9));
    assertEquals("0", PyFormat.percentileWord(0));
    assertEquals("100", PyFormat.percentileWord(100));
    assertEquals("12.5", PyFormat.percentileWord(12.5));
    assertEquals("0.0001", PyFormat.percentileWord(0.0001));
    assertEquals("1e-05", PyFormat.percentileWord(0.00001));
  }

  @Test
  void paddingAndCenteringAsStrFormat() {
    assertEquals("ab   ", PyFormat.left("ab", 5));
    assertEquals("abcdef", PyFormat.left("abcdef", 3));
    // "{s:{c}^{n}}": odd padding goes to the right
    assertEquals("=ab==", PyFormat.center("ab", 5, '='));
    assertEquals("============ Serving Benchmark Result ============",
        PyFormat.center(" Serving Benchmark Result ", 50, '='));
  }
}
