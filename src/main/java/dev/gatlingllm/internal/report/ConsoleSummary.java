package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.metrics.Distribution;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.PercentileValue;
import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions;
import java.util.List;

/**
 * The end-of-run summary, line for line as {@code vllm bench serve} prints it: same titles,
 * labels, order, {@code {:<40} {:<10}} columns (trailing spaces included) and Python's
 * two-decimal rounding.
 */
final class ConsoleSummary {

  /** vLLM lists at most this many errors of failed requests. */
  static final int MAX_ERRORS = 10;

  private ConsoleSummary() {}

  static String render(RunInfo run, ResultOptions opts, BenchmarkMetrics m, List<String> errors) {
    return render(run, opts, m, errors, -1);
  }

  /**
   * The summary, with a {@code Cancelled requests:} line after the failed ones when the run
   * cancelled requests on purpose ({@code cancelled} >= 0; -1 for a run that did not).
   */
  static String render(RunInfo run, ResultOptions opts, BenchmarkMetrics m, List<String> errors,
      int cancelled) {
    StringBuilder out = new StringBuilder(2048);
    if (!errors.isEmpty()) {
      out.append("Failed requests during benchmark run detected (capping to 10):\n");
      for (int i = 0; i < Math.min(errors.size(), MAX_ERRORS); i++) {
        out.append("Error ").append(i).append(": ").append(errors.get(i)).append('\n');
      }
    }
    boolean generation = m.taskType() == TaskType.GENERATION;
    out.append(PyFormat.center(" Serving Benchmark Result ", 50, '=')).append('\n');
    line(out, "Successful requests:", m.completed());
    line(out, "Failed requests:", m.failed());
    if (cancelled >= 0) {
      line(out, "Cancelled requests:", cancelled);
    }
    if (run.maxConcurrency() != null) {
      line(out, "Maximum request concurrency:", run.maxConcurrency());
    }
    if (run.requestRate() != Double.POSITIVE_INFINITY) {
      line(out, "Request rate configured (RPS):", run.requestRate());
    }
    line(out, "Benchmark duration (s):", m.durationSeconds());
    line(out, "Total input tokens:", m.totalInput());
    if (generation && opts.reportCachedTokens()) {
      line(out, "Total cached tokens:", m.totalCached());
    }
    if (generation) {
      line(out, "Total generated tokens:", m.totalOutput());
    }
    line(out, "Request throughput (req/s):", m.requestThroughput());
    if (generation && !ResultOptionsAccess.goodput(opts).isEmpty()) {
      line(out, "Request goodput (req/s):", m.requestGoodput());
    }
    if (generation) {
      line(out, "Output token throughput (tok/s):", m.outputThroughput());
      line(out, "Peak output token throughput (tok/s):", m.maxOutputTokensPerS());
      // vLLM prints this integer with the float format too: "5.00"
      line(out, "Peak concurrent requests:", (double) m.maxConcurrentRequests());
      if (m.rtfx() > 0) {
        line(out, "RTFx (Inverse Real-Time Factor):", m.rtfx());
      }
    }
    line(out, "Total Token throughput (tok/s):", m.totalTokenThroughput());
    List<Metric> selected = ResultOptionsAccess.percentileMetrics(opts, m.taskType());
    for (Metric metric : Metric.values()) {
      if (!selected.contains(metric) || (!generation && metric != Metric.E2EL)) {
        continue;
      }
      out.append(PyFormat.center(metric.header(), 50, '-')).append('\n');
      distribution(out, metric.label(), m.distribution(metric));
    }
    // Reasoning runs only (not in vLLM's summary): when the answer itself began.
    m.ttfc().ifPresent(d -> {
      out.append(PyFormat.center("Time to First Content Token (TTFO)", 50, '-')).append('\n');
      distribution(out, "TTFC", d);
    });
    answers(out, m.answers());
    out.append("=".repeat(50)).append('\n');
    return out.toString();
  }

  /**
   * The block printed after vLLM's (issue 29): the steady-state figures when they were
   * computed, a line when the server was over-saturated; empty otherwise, so that a plain run
   * prints exactly vLLM's summary.
   */
  static String analysis(RunAnalysis analysis, List<Metric> selected) {
    StringBuilder out = new StringBuilder(1024);
    dev.gatlingllm.internal.metrics.SteadyState s = analysis.steadyState();
    if (s != null) {
      out.append(PyFormat.center(" Steady-State Metrics ", 50, '=')).append('\n');
      out.append(PyFormat.left("Window:", 40)).append(' ').append(s.mode().equals(
          dev.gatlingllm.internal.metrics.SteadyState.CLOSED_LOOP)
              ? "in flight >= " + s.thresholdAbs() + " of " + s.targetConcurrency()
              : "trimmed").append('\n');
      line(out, "Window start (s):", s.startSeconds());
      line(out, "Window end (s):", s.endSeconds());
      line(out, "Requests started in window:", s.startedInWindow());
      line(out, "Requests completed in window:", s.completedInWindow());
      line(out, "Request throughput (req/s):", s.requestThroughput());
      line(out, "Input token throughput (tok/s):", s.inputThroughput());
      line(out, "Output token throughput (tok/s):", s.outputThroughput());
      line(out, "Total Token throughput (tok/s):", s.totalTokenThroughput());
      for (Metric metric : Metric.values()) {
        if (!selected.contains(metric)) {
          continue;
        }
        distribution(out, metric.label(), s.latencies().distribution(metric));
      }
      if (s.warning() != null) {
        out.append("Warning: ").append(s.warning()).append('\n');
      }
      out.append("=".repeat(50)).append('\n');
    }
    dev.gatlingllm.internal.metrics.OverSaturation.Result o = analysis.overSaturation();
    if (o != null && o.detected()) {
      dev.gatlingllm.internal.metrics.OverSaturation.Evidence e = o.evidence();
      out.append(String.format(java.util.Locale.ROOT, "Over-saturated since %.2f s: in flight "
          + "+%.1f/s, TTFT +%.0f ms/s, completions flat (%d then %d per half-window of %d "
          + "requests)\n", o.sinceSeconds(), e.inFlightSlope(), e.ttftSlopeMsPerS(),
          e.completionsFirstHalf(), e.completionsSecondHalf(), e.requests()));
    }
    java.util.Map<String, Object> stop = analysis.stop();
    if (stop != null) {
      out.append(String.format(java.util.Locale.ROOT, "Stopped early at %.2f s "
          + "(--stop-on-over-saturation): %s; %s requests never finished\n",
          ((Number) stop.get("at_s")).doubleValue(),
          stop.get("reason"), stop.get("requests_unfinished")));
    }
    return out.toString();
  }

  /** vLLM's lines of one distribution: mean, median, then each percentile. */
  /**
   * Reasoning tokens, tool calls and schema checks (not in vLLM's summary), each block only
   * when some answer had it. TTFC is what AIPerf calls time to first output token (TTFO).
   */
  private static void answers(StringBuilder out, dev.gatlingllm.internal.metrics.AnswerFigures a) {
    if (a.reasoningRequests() > 0) {
      out.append(PyFormat.center("Reasoning", 50, '-')).append('\n');
      line(out, "Requests that reasoned:", a.reasoningRequests());
      line(out, a.reasoningFromServer() ? "Total reasoning tokens:"
          : "Total reasoning tokens (some counted):", a.reasoningTokens());
    }
    if (a.toolCallRequests() > 0) {
      out.append(PyFormat.center("Tool Calls", 50, '-')).append('\n');
      line(out, "Requests that called a tool:", a.toolCallRequests());
      line(out, "Tool calls:", a.toolCalls());
      line(out, "Tool calls with JSON arguments (%):", 100 * a.toolCallParseRate());
      if (a.toolCallTime() != null) {
        distribution(out, "TTFTC", a.toolCallTime());
      }
    }
    if (a.schemaChecked() > 0) {
      out.append(PyFormat.center("Structured Output", 50, '-')).append('\n');
      line(out, "Answers checked against a schema:", a.schemaChecked());
      line(out, "Valid against their schema (%):", 100 * a.schemaValidRate());
    }
  }

  private static void distribution(StringBuilder out, String label, Distribution d) {
    line(out, "Mean " + label + " (ms):", d.mean());
    line(out, "Median " + label + " (ms):", d.median());
    for (PercentileValue p : d.percentiles()) {
      line(out, "P" + p.word() + " " + label + " (ms):", p.valueMs());
    }
  }

  /** {@code "{:<40} {:<10}"} for integers. */
  private static void line(StringBuilder out, String label, long value) {
    out.append(PyFormat.left(label, 40)).append(' ')
        .append(PyFormat.left(Long.toString(value), 10)).append('\n');
  }

  /** {@code "{:<40} {:<10.2f}"} for floats. */
  private static void line(StringBuilder out, String label, double value) {
    out.append(PyFormat.left(label, 40)).append(' ')
        .append(PyFormat.left(PyFormat.fixed(value, 2), 10)).append('\n');
  }
}
