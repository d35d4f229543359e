package dev.gatlingllm.sweep;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** What an SLA search or a workload scan varies: a benchmark flag, estimated from a run. */
public enum SlaVariable {
  /** {@code --request-rate}; a run's estimate is its request throughput. */
  REQUEST_RATE,
  /** {@code --max-concurrency}; a run's estimate is throughput × mean E2EL (Little's law). */
  MAX_CONCURRENCY;

  /**
   * The parameter key and result key ({@code request_rate}, {@code max_concurrency}): the
   * constant's name, lower case.
   */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code request_rate} or {@code max_concurrency} (dashes allowed). */
  public static SlaVariable of(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT).replace('-', '_');
    for (SlaVariable v : values()) {
      if (v.key().equals(t)) {
        return v;
      }
    }
    throw new IllegalArgumentException("--sla-variable: invalid choice: '" + text
        + "' (choose from 'request_rate', 'max_concurrency')");
  }

  /**
   * The value of this variable a finished run stood for, as vLLM estimates it: request
   * throughput for a rate; throughput × mean E2EL / 1000 (requests in flight on average)
   * for a concurrency.
   */
  public double estimate(Map<String, Object> run) {
    double throughput = number(run, "request_throughput");
    if (this == REQUEST_RATE) {
      return throughput;
    }
    return throughput * number(run, "mean_e2el_ms") / 1000;
  }

  /**
   * Refuses a benchmark combination that sets this variable: the search or scan ({@code mode})
   * sets it itself.
   */
  public void refuseIn(List<Map<String, Object>> benchParams, String mode) {
    for (Map<String, Object> bench : benchParams) {
      for (String k : bench.keySet()) {
        if (k.replace('-', '_').equals(key())) {
          throw new IllegalArgumentException("You should not override `" + key()
              + "` in `bench_params` in " + mode + ", since it is supposed to be determined "
              + "automatically.");
        }
      }
    }
  }

  /** The mean of {@link #estimate} over the runs of one load. */
  public double meanEstimate(List<Map<String, Object>> runs) {
    return mean(runs, this::estimate);
  }

  /** The mean of a result key over the runs of one load. */
  public static double meanOf(List<Map<String, Object>> runs, String key) {
    return mean(runs, run -> number(run, key));
  }

  private static double mean(List<Map<String, Object>> runs,
      ToDoubleFunction<Map<String, Object>> value) {
    double sum = 0;
    for (Map<String, Object> run : runs) {
      sum += value.applyAsDouble(run);
    }
    return sum / runs.size();
  }

  static double number(Map<String, Object> run, String key) {
    Object v = run.get(key);
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    if (v instanceof String s) {
      try {
        return s.equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(s);
      } catch (NumberFormatException e) {
        // falls through to the error below
      }
    }
    throw new IllegalArgumentException("the run result has no number under '" + key + "'"
        + (v == null ? "" : " (found " + v + ")") + ": check the key, or add its metric to "
        + "--percentile-metrics and its percentile to --metric-percentiles in --bench-args; "
        + "result keys: " + run.keySet());
  }
}
