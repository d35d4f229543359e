package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.ClassFigures;
import dev.gatlingllm.internal.metrics.Distribution;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.PercentileValue;
import dev.gatlingllm.internal.metrics.PyFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-class figures of a run whose dataset tags its requests with a class
 * ({@code mixed_serving_boundary}): {@code request_class_metrics} in the result JSON and a
 * section after the console summary. As vLLM's, both cover TTFT, TPOT, ITL and E2EL with the
 * run's {@code --metric-percentiles}, whatever metrics the whole run's figures were selected
 * for: comparing the classes is the point of such a run.
 */
final class ClassReport {

  /** The result JSON's key, vLLM's. */
  static final String KEY = "request_class_metrics";

  private ClassReport() {}

  /**
   * One object per class, keyed by its name: {@code requests}, {@code completed},
   * {@code failed}, {@code total_input_tokens}, {@code total_output_tokens},
   * {@code mean_input_tokens}, {@code mean_output_tokens}, then for ttft, tpot, itl and e2el
   * {@code mean_/median_/std_<metric>_ms} and {@code <metric>_percentiles_ms} (an object
   * {@code {"p99": ...}}, as vLLM writes it).
   */
  static Map<String, Object> json(List<ClassFigures> classes) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (ClassFigures c : classes) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("requests", c.requests());
      one.put("completed", c.completed());
      one.put("failed", c.failed());
      if (c.cancelled() > 0) {
        one.put("cancelled", c.cancelled()); // only with --cancel-fraction, as the run's key
      }
      one.put("total_input_tokens", c.totalInputTokens());
      one.put("total_output_tokens", c.totalOutputTokens());
      one.put("mean_input_tokens", c.meanInputTokens());
      one.put("mean_output_tokens", c.meanOutputTokens());
      for (Metric metric : Metric.ANSWER) {
        Distribution d = c.latencies().distribution(metric);
        String key = metric.key();
        one.put("mean_" + key + "_ms", d.mean());
        one.put("median_" + key + "_ms", d.median());
        one.put("std_" + key + "_ms", d.std());
        Map<String, Object> percentiles = new LinkedHashMap<>();
        for (PercentileValue p : d.percentiles()) {
          percentiles.put("p" + p.word(), p.valueMs());
        }
        one.put(key + "_percentiles_ms", percentiles);
      }
      out.put(c.name(), one);
    }
    return out;
  }

  /**
   * The console section: a row per class with its requests and token means, then one table
   * per metric (mean, median and the selected percentiles by class). Empty without classes.
   */
  static String console(List<ClassFigures> classes) {
    if (classes.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder(1024);
    out.append(PyFormat.center(" Per-Class Results ", 50, '=')).append('\n');
    row(out, "Class", "Requests", "Failed", "In tok", "Out tok");
    for (ClassFigures c : classes) {
      row(out, c.name(), Integer.toString(c.requests()), Integer.toString(c.failed()),
          PyFormat.fixed(c.meanInputTokens(), 1), PyFormat.fixed(c.meanOutputTokens(), 1));
    }
    for (Metric metric : Metric.ANSWER) {
      out.append(PyFormat.center(metric.label() + " by class (ms)", 50, '-')).append('\n');
      List<String> header = new ArrayList<>(List.of("Class", "Mean", "Median"));
      classes.get(0).latencies().distribution(metric).percentiles()
          .forEach(p -> header.add("P" + p.word()));
      row(out, header.toArray(new String[0]));
      for (ClassFigures c : classes) {
        Distribution d = c.latencies().distribution(metric);
        List<String> cells = new ArrayList<>(List.of(c.name(), PyFormat.fixed(d.mean(), 2),
            PyFormat.fixed(d.median(), 2)));
        d.percentiles().forEach(p -> cells.add(PyFormat.fixed(p.valueMs(), 2)));
        row(out, cells.toArray(new String[0]));
      }
    }
    out.append("=".repeat(50)).append('\n');
    return out.toString();
  }

  /** A first column of 15 characters (the class names), then columns of 10, trailing spaces cut. */
  private static void row(StringBuilder out, String... cells) {
    StringBuilder line = new StringBuilder(PyFormat.left(cells[0], 15));
    for (int i = 1; i < cells.length; i++) {
      line.append(PyFormat.left(cells[i], 10));
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }
}
