package dev.gatlingllm.internal.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Whether runs were run alike, so that their differences say something about the servers,
 * versions or settings under test rather than about the load: a run of 40 prompts against one
 * of 100, or at another rate, model or prompt length, differs for that reason alone. Read
 * from the result JSON's settings and, as the JSON keeps no dataset settings, the prompt and
 * output tokens per request.
 */
public final class Comparability {

  /** The result JSON's settings that make a load, with the flag that sets each. */
  private static final Map<String, String> SETTINGS = new LinkedHashMap<>();

  static {
    SETTINGS.put("model_id", "--model");
    SETTINGS.put("backend", "--backend");
    SETTINGS.put("endpoint_type", "endpoint type");
    SETTINGS.put("tokenizer_id", "--tokenizer");
    SETTINGS.put("num_prompts", "--num-prompts");
    SETTINGS.put("request_rate", "--request-rate");
    SETTINGS.put("burstiness", "--burstiness");
    SETTINGS.put("max_concurrency", "--max-concurrency");
  }

  /**
   * Tokens per request may differ this much before the workloads count as different: a
   * random dataset with a range ratio draws other lengths from other seeds.
   */
  static final double LENGTH_TOLERANCE = 0.10;

  private Comparability() {}

  /**
   * One phrase per way run {@code i} (from 1) differs from the first, e.g. {@code "--num-prompts
   * 100 vs 40"}; empty when they were run alike.
   */
  static List<String> differences(List<? extends Map<?, ?>> results) {
    List<String> out = new ArrayList<>();
    Map<?, ?> base = results.get(0);
    for (int i = 1; i < results.size(); i++) {
      Map<?, ?> r = results.get(i);
      String which = results.size() > 2 ? "run " + (i + 1) + ": " : "";
      for (Map.Entry<String, String> s : SETTINGS.entrySet()) {
        Object a = base.get(s.getKey());
        Object b = r.get(s.getKey());
        if (!same(a, b)) {
          out.add(which + s.getValue() + " " + text(a) + " vs " + text(b));
        }
      }
      for (String[] len : new String[][] {{"total_input_tokens", "prompt tokens per request"},
          {"total_output_tokens", "output tokens per request"}}) {
        Double a = perRequest(base, len[0]);
        Double b = perRequest(r, len[0]);
        if (a != null && b != null && Math.abs(a - b) > LENGTH_TOLERANCE * Math.max(a, b)) {
          out.add(which + len[1] + " " + String.format(Locale.ROOT, "%.0f vs %.0f", a, b));
        }
      }
    }
    return out;
  }

  /** The console's and the page's sentence; null when the runs were run alike. */
  public static String warning(List<? extends Map<?, ?>> results) {
    List<String> d = differences(results);
    return d.isEmpty() ? null : "the runs were not run alike (" + String.join("; ", d)
        + "): their differences come partly from that, not only from what you changed";
  }

  private static boolean same(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return x.doubleValue() == y.doubleValue();
    }
    return Objects.equals(a, b);
  }

  private static String text(Object v) {
    if (v == null) {
      return "none";
    }
    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
        && !Double.isInfinite(n.doubleValue())) {
      return Long.toString(n.longValue());
    }
    return String.valueOf(v);
  }

  private static Double perRequest(Map<?, ?> r, String key) {
    return r.get(key) instanceof Number t && r.get("completed") instanceof Number n
        && n.doubleValue() > 0 ? t.doubleValue() / n.doubleValue() : null;
  }
}
