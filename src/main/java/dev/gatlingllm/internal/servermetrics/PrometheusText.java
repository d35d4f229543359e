package dev.gatlingllm.internal.servermetrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the Prometheus text exposition format (version 0.0.4) as far as the report needs it:
 * the value of every sample, summed over its label sets. Comments, timestamps and malformed
 * lines are skipped; label values may hold spaces, braces and escaped quotes. A sample with a
 * {@value #REASON} label also counts under {@link #byReason}'s key, which is how vLLM tells
 * requests that finished from those aborted when their client left.
 */
final class PrometheusText {

  private PrometheusText() {}

  /** The one label read apart: vLLM's reason a request finished. */
  static final String REASON = "finished_reason";

  /** The key of {@code name}'s samples whose {@value #REASON} is {@code reason}. */
  static String byReason(String name, String reason) {
    return name + "{" + REASON + "=\"" + reason + "\"}";
  }

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
    String reason = null;
    if (i < to && text.charAt(i) == '{') {
      int labels = i + 1;
      i = afterLabels(text, labels, to);
      if (i < 0) {
        return;
      }
      reason = reason(text.substring(labels, i - 1));
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
    if (reason != null) {
      out.merge(byReason(name, reason), new Value(value, 1),
          (a, b) -> new Value(a.sum + b.sum, a.series + b.series));
    }
  }

  /** The value of the {@value #REASON} label in a label set, or null. */
  private static String reason(String labels) {
    String key = REASON + "=\"";
    int at = labels.indexOf(key);
    if (at < 0 || (at > 0 && labels.charAt(at - 1) != ',' && labels.charAt(at - 1) != ' ')) {
      return null;
    }
    int from = at + key.length();
    int end = labels.indexOf('"', from);
    return end < 0 ? null : labels.substring(from, end);
  }

  /**
   * One sample of a family with its labels, for exporters whose label sets are the point
   * (a GPU per label set in DCGM's exposition, where a sum over GPUs would hide which one).
   */
  public record Series(String name, Map<String, String> labels, double value) {}

  /**
   * Every sample of the families in {@code names}, label by label, in the order of the text.
   * Lines of other families are skipped before their labels are read.
   */
  public static List<Series> series(String text, Set<String> names) {
    List<Series> out = new ArrayList<>();
    int pos = 0;
    int n = text.length();
    while (pos < n) {
      int end = text.indexOf('\n', pos);
      if (end < 0) {
        end = n;
      }
      Series s = seriesLine(text, pos, end, names);
      if (s != null) {
        out.add(s);
      }
      pos = end + 1;
    }
    return out;
  }

  private static Series seriesLine(String text, int from, int to, Set<String> names) {
    int i = from;
    while (i < to && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    if (i >= to || text.charAt(i) == '#') {
      return null;
    }
    int nameStart = i;
    while (i < to && text.charAt(i) != '{' && text.charAt(i) != ' ' && text.charAt(i) != '\t') {
      i++;
    }
    String name = text.substring(nameStart, i);
    if (!names.contains(name)) {
      return null;
    }
    Map<String, String> labels = new LinkedHashMap<>();
    if (i < to && text.charAt(i) == '{') {
      i = readLabels(text, i + 1, to, labels);
      if (i < 0) {
        return null;
      }
    }
    while (i < to && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    int valueStart = i;
    while (i < to && text.charAt(i) != ' ' && text.charAt(i) != '\t' && text.charAt(i) != '\r') {
      i++;
    }
    try {
      return new Series(name, Map.copyOf(labels), number(text.substring(valueStart, i)));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * Reads {@code key="value"} pairs (comma-separated, spaces allowed around them, escapes
   * {@code \\}, {@code \"} and {@code \n} undone) into {@code labels}; the index after the
   * closing brace, or -1 when the set is malformed.
   */
  private static int readLabels(String text, int i, int to, Map<String, String> labels) {
    while (i < to) {
      char c = text.charAt(i);
      if (c == '}') {
        return i + 1;
      }
      if (c == ' ' || c == '\t' || c == ',') {
        i++;
        continue;
      }
      int keyStart = i;
      while (i < to && text.charAt(i) != '=' && text.charAt(i) != '}') {
        i++;
      }
      if (i >= to || text.charAt(i) != '=') {
        return -1;
      }
      String key = text.substring(keyStart, i).trim();
      i++;
      while (i < to && text.charAt(i) == ' ') {
        i++;
      }
      if (i >= to || text.charAt(i) != '"') {
        return -1;
      }
      StringBuilder value = new StringBuilder();
      for (i++; i < to && text.charAt(i) != '"'; i++) {
        char v = text.charAt(i);
        if (v == '\\' && i + 1 < to) {
          char e = text.charAt(++i);
          value.append(e == 'n' ? '\n' : e);
        } else {
          value.append(v);
        }
      }
      if (i >= to) {
        return -1;
      }
      labels.put(key, value.toString());
      i++;
    }
    return -1;
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
