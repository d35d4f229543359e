package dev.gatlingllm.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The differences between runs, each headline figure of the result JSON against the first
 * run, judged by the figure's direction: lower is better for latencies, failures and the
 * duration; higher for throughputs, goodput and completed requests; token totals and the peak
 * concurrency are facts of the workload, neither. The one place runs are compared: the
 * comparison page shows these rows, {@code --compare} prints them.
 */
public final class CompareTable {

  /** Which way a figure improves. */
  public enum Direction {
    LOWER_IS_BETTER, HIGHER_IS_BETTER, NEUTRAL
  }

  /** A figure of the other run against the baseline's. */
  public enum Verdict {
    BETTER, WORSE, SAME, NEUTRAL, MISSING;

    /** As the console and the page say it. */
    public String word() {
      return switch (this) {
        case BETTER -> "better";
        case WORSE -> "worse";
        case SAME -> "same";
        case NEUTRAL, MISSING -> "";
      };
    }
  }

  /**
   * One figure of every run.
   *
   * @param key       the result JSON key
   * @param label     as vLLM's summary names it
   * @param direction which way it improves
   * @param values    each run's value, null when the run has none
   */
  public record Row(String key, String label, Direction direction, List<Double> values) {

    /** Run {@code i}'s value less the first run's; null when either is missing. */
    public Double delta(int i) {
      Double base = values.get(0);
      Double v = values.get(i);
      return base == null || v == null ? null : v - base;
    }

    /** {@link #delta} as a percentage of the first run's value; null when that is 0. */
    public Double percent(int i) {
      Double d = delta(i);
      return d == null || values.get(0) == 0 ? null : 100 * d / Math.abs(values.get(0));
    }

    /** Run {@code i} against the first run. */
    public Verdict verdict(int i) {
      Double d = delta(i);
      if (d == null) {
        return Verdict.MISSING;
      }
      if (direction == Direction.NEUTRAL) {
        return Verdict.NEUTRAL;
      }
      if (d == 0) {
        return Verdict.SAME;
      }
      return (d < 0) == (direction == Direction.LOWER_IS_BETTER) ? Verdict.BETTER
          : Verdict.WORSE;
    }
  }

  /** The headline figures in vLLM's summary order, with its labels. */
  private static final Map<String, String> HEADLINE = new LinkedHashMap<>();

  static {
    HEADLINE.put("completed", "Successful requests");
    HEADLINE.put("failed", "Failed requests");
    HEADLINE.put("duration", "Benchmark duration (s)");
    HEADLINE.put("total_input_tokens", "Total input tokens");
    HEADLINE.put("total_output_tokens", "Total generated tokens");
    HEADLINE.put("request_throughput", "Request throughput (req/s)");
    HEADLINE.put("request_goodput", "Request goodput (req/s)");
    HEADLINE.put("output_throughput", "Output token throughput (tok/s)");
    HEADLINE.put("max_output_tokens_per_s", "Peak output token throughput (tok/s)");
    HEADLINE.put("max_concurrent_requests", "Peak concurrent requests");
    HEADLINE.put("total_token_throughput", "Total token throughput (tok/s)");
  }

  private static final Set<String> LOWER = Set.of("failed", "duration");
  private static final Set<String> NEUTRAL = Set.of("total_input_tokens",
      "total_output_tokens", "max_concurrent_requests");
  /** A latency distribution's key: {@code mean_ttft_ms}, {@code p99.9_e2el_ms}. */
  private static final Pattern LATENCY = Pattern.compile(
      "(mean|median|std|p[0-9.]+)_([a-z0-9_]+)_ms");

  private final List<Row> rows;

  private CompareTable(List<Row> rows) {
    this.rows = List.copyOf(rows);
  }

  /**
   * The table of {@code results} (result JSON objects; the first is the baseline): the
   * headline figures any run has, then each latency key any run has, in the first run's order.
   */
  public static CompareTable of(List<? extends Map<?, ?>> results) {
    List<Row> rows = new ArrayList<>();
    for (Map.Entry<String, String> h : HEADLINE.entrySet()) {
      if (results.stream().anyMatch(r -> r.containsKey(h.getKey()))) {
        rows.add(row(h.getKey(), h.getValue(), results));
      }
    }
    Set<String> latencyKeys = new LinkedHashSet<>();
    for (Map<?, ?> r : results) {
      for (Object k : r.keySet()) {
        if (LATENCY.matcher(String.valueOf(k)).matches()) {
          latencyKeys.add(String.valueOf(k));
        }
      }
    }
    for (String k : latencyKeys) {
      rows.add(row(k, label(k), results));
    }
    return new CompareTable(rows);
  }

  private static Row row(String key, String label, List<? extends Map<?, ?>> results) {
    List<Double> values = new ArrayList<>(results.size());
    for (Map<?, ?> r : results) {
      values.add(r.get(key) instanceof Number n ? n.doubleValue() : null);
    }
    return new Row(key, label, direction(key), Collections.unmodifiableList(values));
  }

  /** Which way the figure of {@code key} improves. */
  public static Direction direction(String key) {
    if (NEUTRAL.contains(key)) {
      return Direction.NEUTRAL;
    }
    return LOWER.contains(key) || LATENCY.matcher(key).matches() ? Direction.LOWER_IS_BETTER
        : Direction.HIGHER_IS_BETTER;
  }

  /** {@code p99_e2el_ms} as vLLM's summary says it: {@code P99 E2EL (ms)}. */
  static String label(String key) {
    Matcher m = LATENCY.matcher(key);
    if (!m.matches()) {
      return key;
    }
    String stat = m.group(1);
    return Character.toUpperCase(stat.charAt(0)) + stat.substring(1) + " "
        + m.group(2).toUpperCase(Locale.ROOT) + " (ms)";
  }

  public List<Row> rows() {
    return rows;
  }

  /** The rows as the comparison page reads them: values, and each other run's difference. */
  List<Map<String, Object>> toJson() {
    List<Map<String, Object>> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("key", r.key());
      m.put("label", r.label());
      m.put("direction", r.direction().name().toLowerCase(Locale.ROOT));
      m.put("values", r.values());
      List<Map<String, Object>> diffs = new ArrayList<>();
      for (int i = 1; i < r.values().size(); i++) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("delta", r.delta(i));
        d.put("percent", r.percent(i));
        d.put("verdict", r.verdict(i).name().toLowerCase(Locale.ROOT));
        diffs.add(d);
      }
      m.put("differences", diffs);
      out.add(m);
    }
    return out;
  }

  /**
   * The console table of run B (the second) against run A (the first): figure, A, B, delta,
   * percentage and the verdict.
   */
  public String console() {
    StringBuilder s = new StringBuilder(2048);
    String format = "%-38s %12s %12s %12s %9s  %s";
    s.append(String.format(Locale.ROOT, format, "Metric", "A", "B", "Delta", "%", "")
        .stripTrailing()).append('\n');
    s.append("-".repeat(92)).append('\n');
    for (Row r : rows) {
      Double pct = r.percent(1);
      Double delta = r.delta(1);
      s.append(String.format(Locale.ROOT, format, r.label(), number(r.values().get(0)),
          number(r.values().get(1)), delta == null ? "-" : signed(delta),
          pct == null ? "-" : String.format(Locale.ROOT, "%+.1f%%", pct),
          r.verdict(1).word()).stripTrailing()).append('\n');
    }
    return s.toString();
  }

  private static String number(Double v) {
    if (v == null) {
      return "-";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString(v.longValue());
    }
    // a difference below a hundredth keeps two digits, or "-0.00 better" would read as none
    return String.format(Locale.ROOT, Math.abs(v) < 0.01 ? "%.2g" : "%.2f", v);
  }

  private static String signed(double v) {
    String n = number(v);
    return v > 0 ? "+" + n : n;
  }
}
