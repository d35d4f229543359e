package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.metrics.Distribution;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.PercentileValue;
import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.metrics.UrlFigures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of each base URL of a run against several replicas ({@code --base-url} given
 * more than once): {@code per_url} in the result JSON, a short table after the console
 * summary, and a panel of the LLM report (which reads the JSON). A run against one server
 * has none of them, so its result keeps vLLM's keys. AIPerf, which also spreads requests
 * over several {@code --url}, reports only the totals; the name is ours.
 */
final class UrlReport {

  /** The result JSON's key: a list, one object per URL in the order given. */
  static final String KEY = "per_url";
  private UrlReport() {}

  /** The run's base URLs when it had several, else an empty list. */
  static List<String> urls(RunInfo run) {
    Object urls = run.extras().get(UrlFigures.URLS_EXTRA);
    if (!(urls instanceof List<?> list) || list.size() < 2) {
      return List.of();
    }
    return list.stream().map(String::valueOf).toList();
  }

  /**
   * One object per URL: {@code url}, {@code completed}, {@code failed}, {@code first_error}
   * (only when some failed), {@code total_input_tokens}, {@code total_output_tokens},
   * {@code request_throughput}, {@code output_throughput}, then for TTFT, TPOT, ITL and E2EL
   * (E2EL alone for pooling) the keys of the run's own: {@code mean_/median_/std_<metric>_ms}
   * and {@code p<NN>_<metric>_ms} for the run's {@code --metric-percentiles}.
   */
  static List<Map<String, Object>> json(List<UrlFigures> urls) {
    List<Map<String, Object>> out = new ArrayList<>(urls.size());
    for (UrlFigures u : urls) {
      BenchmarkMetrics m = u.metrics();
      boolean generation = m.taskType() == TaskType.GENERATION;
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("url", u.url());
      one.put("completed", m.completed());
      one.put("failed", m.failed());
      if (u.firstError() != null) {
        one.put("first_error", u.firstError());
      }
      one.put("total_input_tokens", m.totalInput());
      if (generation) {
        one.put("total_output_tokens", m.totalOutput());
      }
      one.put("request_throughput", m.requestThroughput());
      if (generation) {
        one.put("output_throughput", m.outputThroughput());
      }
      for (Metric metric : metrics(m)) {
        ResultDocument.putDistribution(one, metric.key(), m.distribution(metric));
      }
      out.add(one);
    }
    return out;
  }

  private static List<Metric> metrics(BenchmarkMetrics m) {
    return m.taskType() == TaskType.GENERATION ? Metric.ANSWER : List.of(Metric.E2EL);
  }

  /**
   * The console section: per URL its completed and failed requests and throughputs, then the
   * mean and the highest selected percentile of each latency (ms). Empty for one server.
   */
  static String console(List<UrlFigures> urls) {
    if (urls.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder(1024);
    out.append(PyFormat.center(" Per-URL Results ", 50, '=')).append('\n');
    for (int t = 0; t < urls.size(); t++) {
      out.append('[').append(t).append("] ").append(urls.get(t).url()).append('\n');
    }
    row(out, 11, "URL", "Completed", "Failed", "Req/s", "Out tok/s");
    for (int t = 0; t < urls.size(); t++) {
      BenchmarkMetrics m = urls.get(t).metrics();
      row(out, 11, "[" + t + "]", Integer.toString(m.completed()), Integer.toString(m.failed()),
          PyFormat.fixed(m.requestThroughput(), 2), PyFormat.fixed(m.outputThroughput(), 2));
    }
    List<Metric> metrics = metrics(urls.get(0).metrics());
    PercentileValue highest = top(urls.get(0).metrics().distribution(metrics.get(0)));
    String top = highest == null ? "Median" : "P" + highest.word();
    out.append(PyFormat.center("Mean / " + top + " by URL (ms)", 50, '-')).append('\n');
    List<String> header = new ArrayList<>(List.of("URL"));
    metrics.forEach(metric -> header.add(metric.key().toUpperCase(java.util.Locale.ROOT)));
    row(out, 15, header.toArray(new String[0]));
    for (int t = 0; t < urls.size(); t++) {
      BenchmarkMetrics m = urls.get(t).metrics();
      List<String> cells = new ArrayList<>(List.of("[" + t + "]"));
      for (Metric metric : metrics) {
        Distribution d = m.distribution(metric);
        double high = top(d) == null ? d.median() : top(d).valueMs();
        cells.add(PyFormat.fixed(d.mean(), 1) + " / " + PyFormat.fixed(high, 1));
      }
      row(out, 15, cells.toArray(new String[0]));
    }
    for (int t = 0; t < urls.size(); t++) {
      if (urls.get(t).firstError() != null) {
        out.append('[').append(t).append("] first error: ").append(urls.get(t).firstError())
            .append('\n');
      }
    }
    out.append("=".repeat(50)).append('\n');
    return out.toString();
  }

  /** The highest of the selected percentiles (p99 by default); null when none was selected. */
  private static PercentileValue top(Distribution d) {
    List<PercentileValue> ps = d.percentiles();
    return ps.isEmpty() ? null : ps.get(ps.size() - 1);
  }

  /** A first column of 6 characters (the URL's index), then columns of {@code width}, trailing spaces cut. */
  private static void row(StringBuilder out, int width, String... cells) {
    StringBuilder line = new StringBuilder(PyFormat.left(cells[0], 6));
    for (int i = 1; i < cells.length; i++) {
      line.append(PyFormat.left(cells[i], width)).append(' ');
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }
}
