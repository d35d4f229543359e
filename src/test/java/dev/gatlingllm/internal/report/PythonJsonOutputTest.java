package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Our JSON writer against Python's {@code json.dumps} byte for byte (the expected strings are
 * what CPython 3.11 printed for the same values): every control character, DEL, non-ASCII
 * and astral characters escaped as Python escapes them, and non-finite floats.
 */
class PythonJsonOutputTest {

  private static String write(Object value, boolean infAsString) throws IOException {
    StringWriter out = new StringWriter();
    PyJson.write(out, value, infAsString);
    return out.toString();
  }

  @Test
  void escapesLikeEnsureAscii() throws IOException {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("a", "x\u0001y\u007fz\u00e9\uD83D\uDE00\b\t\n\f\r\"\\/");
    doc.put("n", Arrays.asList(1, 2.5, null, true, false, 1e-05, 10.0));
    doc.put("e", Map.of());
    doc.put("l", List.of());
    // python3 -c 'import json; print(json.dumps({...}))'
    assertEquals("{\"a\": \"x\\u0001y\\u007fz\\u00e9\\ud83d\\ude00\\b\\t\\n\\f\\r\\\"\\\\/\", "
        + "\"n\": [1, 2.5, null, true, false, 1e-05, 10.0], \"e\": {}, \"l\": []}",
        write(doc, false));
  }

  @Test
  void everyControlCharacterAndTheAsciiEdges() throws IOException {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x20; c++) {
      all.append(c);
    }
    all.append(" ~\u007f\u0080");
    // json.dumps(''.join(map(chr, range(32))) + ' ~\x7f\x80')
    assertEquals("\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r"
        + "\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019"
        + "\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f ~\\u007f\\u0080\"", write(all.toString(), false));
  }

  @Test
  void nonFiniteFloatsAsPythonWritesThem() throws IOException {
    List<Object> values = new ArrayList<>(List.of(Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, 0.5f));
    assertEquals("[NaN, Infinity, -Infinity, 0.5]", write(values, false));
    // vLLM's InfEncoder for the pytorch file turns infinities into strings
    assertEquals("[NaN, \"inf\", \"-inf\", 0.5]", write(values, true));
  }

  @Test
  void shortAndLongIntegers() throws IOException {
    assertEquals("[7, 9007199254740993, -3]",
        write(List.of((short) 7, 9_007_199_254_740_993L, -3), false));
  }

  @Test
  void anUnknownTypeIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> write(new StringBuilder("x"), false));
    assertEquals("Cannot write java.lang.StringBuilder as JSON", e.getMessage());
  }
}
