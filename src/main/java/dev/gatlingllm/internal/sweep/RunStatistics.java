package dev.gatlingllm.internal.sweep;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The spread of one benchmark repeated: for each headline figure of the result JSONs (the
 * throughputs, goodput, TTFT / TPOT / ITL / E2EL mean and P99), its mean, sample standard
 * deviation, minimum, maximum, coefficient of variation and 95 % Student-t interval over the
 * runs. Written as {@value #FILE_NAME} beside the runs and printed as a table.
 */
public final class RunStatistics {

  public static final String FILE_NAME = "aggregate.json";
  static final double CONFIDENCE = 0.95;

  /** The headline keys in print order, with the label the console gives them. */
  static final Map<String, String> HEADLINE = headline();

  private final List<String> runs;
  private final Map<String, double[]> values;

  private RunStatistics(List<String> runs, Map<String, double[]> values) {
    this.runs = runs;
    this.values = values;
  }

  /** The energy efficiency of a run scraped with {@code --gpu-metrics-url}. */
  static final String ENERGY_KEY = "gpu_energy.output_tokens_per_joule";

  private static Map<String, String> headline() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("request_throughput", "Request throughput (req/s)");
    m.put("request_goodput", "Request goodput (req/s)");
    m.put("output_throughput", "Output token throughput (tok/s)");
    m.put("total_token_throughput", "Total token throughput (tok/s)");
    for (String metric : List.of("ttft", "tpot", "itl", "e2el")) {
      String name = metric.toUpperCase(Locale.ROOT);
      m.put("mean_" + metric + "_ms", "Mean " + name + " (ms)");
      m.put("p99_" + metric + "_ms", "P99 " + name + " (ms)");
    }
    // --gpu-metrics-url: the energy figures inside gpu_energy, kept when every run has them
    m.put(ENERGY_KEY, "Output tokens per joule (tok/J)");
    m.put("gpu_energy.joules_per_output_token", "Energy per output token (J/tok)");
    // --cancel-fraction: the users who left, a count the run's arrivals make vary
    m.put("cancelled", "Cancelled requests");
    return m;
  }

  /**
   * The statistics of {@code records}, the result JSONs of one benchmark's runs. A headline
   * key is kept when every run has it as a number (goodput is null without SLOs, TPOT absent
   * when not selected): a figure some runs lack would be a mean over other runs.
   */
  static RunStatistics of(List<Map<String, Object>> records) {
    List<String> runs = new ArrayList<>();
    for (Map<String, Object> r : records) {
      Object run = r.get(SweepData.RUN_KEY);
      runs.add(run == null ? "run=" + r.get("run_number") : String.valueOf(run));
    }
    Map<String, double[]> values = new LinkedHashMap<>();
    for (String key : HEADLINE.keySet()) {
      double[] v = records.stream().mapToDouble(r -> SweepData.number(r, key)).toArray();
      if (v.length > 0 && Arrays.stream(v).allMatch(Double::isFinite)) {
        values.put(key, v);
      }
    }
    return new RunStatistics(runs, values);
  }

  Stats stats(String key) {
    return Stats.of(values.get(key), CONFIDENCE);
  }

  List<String> keys() {
    return List.copyOf(values.keySet());
  }

  /**
   * The JSON: {@code num_runs}, {@code confidence}, {@code runs} (their folders), then per
   * key {@code mean}, {@code std} (n − 1), {@code min}, {@code max}, {@code cv},
   * {@code ci95_low}, {@code ci95_high} and the runs' {@code values}; null where one run
   * gives no spread.
   */
  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("num_runs", runs.size());
    json.put("confidence", CONFIDENCE);
    json.put("runs", runs);
    Map<String, Object> metrics = new LinkedHashMap<>();
    values.forEach((key, v) -> {
      Stats s = stats(key);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("mean", s.mean());
      m.put("std", finite(s.std()));
      m.put("min", s.min());
      m.put("max", s.max());
      m.put("cv", finite(s.cv()));
      m.put("ci95_low", finite(s.ciLow()));
      m.put("ci95_high", finite(s.ciHigh()));
      List<Double> list = new ArrayList<>();
      for (double d : v) {
        list.add(d);
      }
      m.put("values", list);
      metrics.put(key, m);
    });
    json.put("metrics", metrics);
    return json;
  }

  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }

  /** The console table, in the style of vLLM's summary: a centred title, one row a figure. */
  String consoleText() {
    StringBuilder s = new StringBuilder();
    String title = " Repeated runs: " + runs.size() + ", 95 % interval (Student t) ";
    int width = 112;
    int left = (width - title.length()) / 2;
    s.append("=".repeat(left)).append(title).append("=".repeat(width - left - title.length()))
        .append('\n');
    s.append(String.format(Locale.ROOT, "%-32s %10s %10s %10s %10s %7s  %s%n", "Figure", "Mean",
        "Std", "Min", "Max", "CV", "95 % interval"));
    for (String key : values.keySet()) {
      Stats st = stats(key);
      s.append(String.format(Locale.ROOT, "%-32s %10s %10s %10s %10s %7s  %s%n",
          HEADLINE.get(key), fmt(st.mean()), fmt(st.std()), fmt(st.min()), fmt(st.max()),
          Double.isFinite(st.cv()) ? String.format(Locale.ROOT, "%.2f%%", 100 * st.cv()) : "-",
          st.hasInterval() ? "[" + fmt(st.ciLow()) + ", " + fmt(st.ciHigh()) + "]" : "-"));
    }
    s.append("=".repeat(width)).append('\n');
    return s.toString();
  }

  private static String fmt(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f", v) : "-";
  }
}
