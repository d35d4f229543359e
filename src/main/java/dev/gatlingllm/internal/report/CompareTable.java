package dev.gatlingllm.internal.report;

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
 * concurrency are facts of the workload, neither. A difference within noise (see {@link
 * Row#noise}) is "same", whichever way it goes. The one place runs are compared: the
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
   * A difference smaller than this share of the baseline's value is "same" whatever the
   * spread: two runs of 100 requests at 20/s with the same flags against the simulator
   * differed by 0.2 % in throughput and mean TPOT, 5 % in mean TTFT and 19 % in P99 TTFT, so
   * a smaller difference says nothing about which run is better.
   */
  static final double SAME_WITHIN = 0.01;

  /**
   * One figure of every run.
   *
   * @param key       the result JSON key
   * @param label     as vLLM's summary names it
   * @param direction which way it improves
   * @param values    each run's value, null when the run has none
   * @param errors    each run's standard error of the figure where the result JSON gives the
   *                  spread it needs (see {@code standardError}), else null
   */
  public record Row(String key, String label, Direction direction, List<Double> values,
      List<Double> errors) {

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

    /**
     * The largest difference from the baseline that is noise: {@link #SAME_WITHIN} of the
     * baseline's value, or for a latency figure whose spread the JSON gives, two standard
     * errors of the difference (about 95 % of differences between two samples of one
     * distribution are smaller), whichever is larger.
     */
    public double noise(int i) {
      double n = SAME_WITHIN * Math.abs(values.get(0));
      Double ea = errors.get(0);
      Double eb = errors.get(i);
      if (ea != null && eb != null) {
        n = Math.max(n, 2 * Math.sqrt(ea * ea + eb * eb));
      }
      return n;
    }

    /** Run {@code i} against the first run: "same" within {@link #noise}. */
    public Verdict verdict(int i) {
      Double d = delta(i);
      if (d == null) {
        return Verdict.MISSING;
      }
      if (direction == Direction.NEUTRAL) {
        return Verdict.NEUTRAL;
      }
      if (d == 0 || Math.abs(d) <= noise(i)) {
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
    List<Double> errors = new ArrayList<>(results.size());
    for (Map<?, ?> r : results) {
      values.add(r.get(key) instanceof Number n ? n.doubleValue() : null);
      errors.add(standardError(key, r));
    }
    return new Row(key, label, direction(key), Collections.unmodifiableList(values),
        Collections.unmodifiableList(errors));
  }

  /**
   * The standard error of a latency figure from its distribution's spread {@code σ} (the
   * run's {@code std_}) over {@code n} completed requests, as for a normal sample: the mean
   * {@code σ/√n}, the median {@code 1.2533 σ/√n}, the p-th percentile {@code √(p(1−p)) /
   * φ(z_p) · σ/√n} (3.7 σ/√n for p99), the std {@code σ/√(2n)}. Real latencies have heavier
   * tails, so these are lower bounds on the noise, not a test of significance. Null for a
   * figure with no spread in the JSON.
   */
  private static Double standardError(String key, Map<?, ?> r) {
    Matcher m = LATENCY.matcher(key);
    if (!m.matches() || !(r.get("std_" + m.group(2) + "_ms") instanceof Number std)
        || !(r.get("completed") instanceof Number n) || n.doubleValue() < 2) {
      return null;
    }
    double base = std.doubleValue() / Math.sqrt(n.doubleValue());
    String stat = m.group(1);
    switch (stat) {
      case "mean":
        return base;
      case "median":
        return Math.sqrt(Math.PI / 2) * base;
      case "std":
        return base / Math.sqrt(2);
      default:
        double p = Double.parseDouble(stat.substring(1)) / 100;
        if (!(p > 0 && p < 1)) {
          return null;
        }
        double z = normalQuantile(p);
        double density = Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
        return Math.sqrt(p * (1 - p)) / density * base;
    }
  }

  /** The standard normal quantile, Abramowitz and Stegun 26.2.23 (error under 4.5e-4). */
  private static double normalQuantile(double p) {
    double q = p < 0.5 ? p : 1 - p;
    double t = Math.sqrt(-2 * Math.log(q));
    double z = t - (2.515517 + 0.802853 * t + 0.010328 * t * t)
        / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
    return p < 0.5 ? -z : z;
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
  public List<Map<String, Object>> toJson() {
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
        d.put("noise", r.delta(i) == null ? null : r.noise(i));
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
