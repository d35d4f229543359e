package dev.gatlingllm.internal.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** src/test/resources/metrics/edge_cases.json, made by make_edge_fixtures.py with Python. */
final class NumericEdgeCases {

  static final JsonNode ROOT = load();

  private NumericEdgeCases() {}

  private static JsonNode load() {
    try (InputStream in = NumericEdgeCases.class.getResourceAsStream("/metrics/edge_cases.json")) {
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A double as the fixture writes it: Python's float.hex, or "nan". */
  static double value(String hex) {
    return hex.equals("nan") ? Double.NaN : Double.parseDouble(hex);
  }

  static double[] doubles(JsonNode array) {
    double[] out = new double[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asDouble();
    }
    return out;
  }
}
