package dev.gatlingllm.internal.servermetrics;

import java.util.HashMap;
import java.util.Map;

/**
 * Reads the Prometheus text exposition format (version 0.0.4) as far as the report needs it:
 * the value of every sample, summed over its label sets. Comments, timestamps and malformed
 * lines are skipped; label values may hold spaces, braces and escaped quotes.
 */
final class PrometheusText {

  private PrometheusText() {}

  /** Sample name (without labels) to the sum of its values and the number of label sets. */
  public record Value(double sum, int series) {

    public double mean() {
      return sum / series;
    }
  }

  public static Map<String, Value> parse(String text) {
    Map<String, Value> out = new HashMap<>();
    int pos = 0;
    int n = text.length();
    while (pos < n) {
      int end = text.indexOf('\n', pos);
      if (end < 0) {
        end = n;
      }
      line(text, pos, end, out);
      pos = end + 1;
    }
    return out;
  }

  /**
   * The samples named {@code name}, summed by the value of their label {@code label} (vLLM's
   * {@code position} of {@code vllm:spec_decode_num_accepted_tokens_per_pos_total}); a
   * sample without that label is left out.
   */
  public static Map<String, Double> byLabel(String text, String name, String label) {
    Map<String, Double> out = new HashMap<>();
    String key = label + "=\"";
    for (String line : text.split("\n")) {
      String l = line.strip();
      if (!l.startsWith(name + "{")) {
        continue;
      }
      int close = afterLabels(l, name.length() + 1, l.length());
      if (close < 0) {
        continue;
      }
      String labels = l.substring(name.length() + 1, close - 1);
      int at = labels.startsWith(key) ? 0 : labels.indexOf("," + key) + 1;
      if (at <= 0 && !labels.startsWith(key)) {
        continue;
      }
      int from = at + key.length();
      int end = labels.indexOf('"', from);
      String[] rest = l.substring(close).strip().split("[ \t]+");
      if (end < 0 || rest.length == 0) {
        continue;
      }
      try {
        out.merge(labels.substring(from, end), number(rest[0]), Double::sum);
      } catch (NumberFormatException e) {
        // a malformed sample is skipped, as parse does
      }
    }
    return out;
  }

  private static void line(String text, int from, int to, Map<String, Value> out) {
    int i = from;
    while (i < to && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    if (i >= to || text.charAt(i) == '#') {
      return;
    }
    int nameStart = i;
    while (i < to && text.charAt(i) != '{' && text.charAt(i) != ' ' && text.charAt(i) != '\t') {
      i++;
    }
    String name = text.substring(nameStart, i);
    if (i < to && text.charAt(i) == '{') {
      i = afterLabels(text, i + 1, to);
      if (i < 0) {
        return;
      }
    }
    while (i < to && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    int valueStart = i;
    while (i < to && text.charAt(i) != ' ' && text.charAt(i) != '\t' && text.charAt(i) != '\r') {
      i++;
    }
    double value;
    try {
      value = number(text.substring(valueStart, i));
    } catch (NumberFormatException e) {
      return;
    }
    if (name.isEmpty()) {
      return;
    }
    out.merge(name, new Value(value, 1), (a, b) -> new Value(a.sum + b.sum, a.series + b.series));
  }

  /** The index after the closing brace of a label set, or -1 when it is not closed. */
  private static int afterLabels(String text, int i, int to) {
    boolean quoted = false;
    for (; i < to; i++) {
      char c = text.charAt(i);
      if (quoted) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          quoted = false;
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == '}') {
        return i + 1;
      }
    }
    return -1;
  }

  private static double number(String s) {
    switch (s) {
      case "+Inf", "Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      case "NaN":
        return Double.NaN;
      default:
        return Double.parseDouble(s);
    }
  }
}
