package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.metrics.Latencies;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.OverSaturation;
import dev.gatlingllm.internal.metrics.PercentileValue;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.SteadyState;
import dev.gatlingllm.internal.metrics.SteadyStateOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the run says beyond vLLM's figures (issue 29): its steady state and whether the server
 * was over-saturated, as the result JSON's {@code steady_state} and {@code over_saturation}.
 *
 * @param steadyState    null when not computed (see {@link SteadyState#compute})
 * @param overSaturation null for embeddings
 * @param stop           the live stop's account when the run was stopped on over-saturation
 *                       (the run's {@link OverSaturation#STOP_EXTRA}), else null
 */
record RunAnalysis(SteadyState steadyState, OverSaturation.Result overSaturation,
    Map<String, Object> stop) {

  /** The analysis of a run that was not stopped early. */
  RunAnalysis(SteadyState steadyState, OverSaturation.Result overSaturation) {
    this(steadyState, overSaturation, null);
  }

  /** Result-JSON keys of this analysis, after vLLM's. */
  static final List<String> KEYS = List.of("steady_state", "over_saturation");

  /**
   * The analysis of a run. It comes after vLLM's figures and must never cost them: a failure
   * here is logged and the run is reported without it (both keys null).
   */
  static RunAnalysis of(RunInfo run, RecordSource requests, BenchmarkMetrics metrics,
      long origin, double[] percentiles, SteadyStateOptions steady,
      OverSaturation.Options saturation) {
    try {
      return new RunAnalysis(
          SteadyState.compute(requests, metrics, origin, run.maxConcurrency(),
              run.requestRate(), steady, percentiles),
          OverSaturation.detect(requests, metrics.taskType(), origin, saturation),
          stopOf(run));
    } catch (RuntimeException e) {
      LOG.error("Could not compute the steady state and over-saturation of the run: {}",
          e.toString(), e);
      return new RunAnalysis(null, null);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> stopOf(RunInfo run) {
    Object stop = run.extras().get(OverSaturation.STOP_EXTRA);
    return stop instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
  }

  /** The run without the stop's extra, which {@link #putInto} writes in its place. */
  static RunInfo withoutStop(RunInfo run) {
    return run.extras().containsKey(OverSaturation.STOP_EXTRA)
        ? run.toBuilder().withoutExtra(OverSaturation.STOP_EXTRA).build() : run;
  }

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(
      RunAnalysis.class);

  /** The two keys, for the result JSON. */
  void putInto(Map<String, Object> doc) {
    doc.put("steady_state", steadyState == null ? null : steadyStateJson(steadyState));
    doc.put("over_saturation", overSaturation == null ? null
        : overSaturationJson(overSaturation, stop));
  }

  /**
   * {@code vllm-bench}'s keys first ({@code window}, the four throughputs, its TTFT and TPOT
   * figures with {@code percentiles_ttft_ms} as [percentile, ms] pairs), then ours: mean,
   * median, std and the run's percentiles of TTFT, TPOT, ITL and E2EL, named as the run's.
   */
  private static Map<String, Object> steadyStateJson(SteadyState s) {
    LinkedHashMap<String, Object> window = new LinkedHashMap<>();
    window.put("mode", s.mode());
    window.put("start_s", s.startSeconds());
    window.put("end_s", s.endSeconds());
    window.put("duration_s", s.durationSeconds());
    if (s.targetConcurrency() != null) {
      window.put("target_concurrency", s.targetConcurrency());
      window.put("threshold", s.threshold());
      window.put("threshold_abs", s.thresholdAbs());
      window.put("observed_peak", s.observedPeak());
    } else {
      window.put("trim_unit", s.trim().unit().name().toLowerCase(java.util.Locale.ROOT));
      window.put("trim_start", trimValue(s.trim().start(), s.trim()));
      window.put("trim_end", trimValue(s.trim().end(), s.trim()));
    }
    window.put("requests_started_in_window", s.startedInWindow());
    window.put("requests_completed_in_window", s.completedInWindow());
    window.put("requests_total", s.requestsTotal());
    window.put("min_window_s", s.minWindowSeconds());
    window.put("warning", s.warning());
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    out.put("window", window);
    out.put("request_throughput", s.requestThroughput());
    out.put("input_throughput", s.inputThroughput());
    out.put("output_throughput", s.outputThroughput());
    out.put("total_token_throughput", s.totalTokenThroughput());
    Latencies l = s.latencies();
    out.put("mean_ttft_ms", l.ttft().mean());
    out.put("median_ttft_ms", l.ttft().median());
    List<Object> pairs = new ArrayList<>();
    for (PercentileValue p : l.ttft().percentiles()) {
      pairs.add(List.of(p.percentile(), p.valueMs()));
    }
    out.put("percentiles_ttft_ms", pairs);
    out.put("mean_tpot_ms", l.tpot().mean());
    out.put("median_tpot_ms", l.tpot().median());
    out.put("p90_tpot_ms", s.p90TpotMs());
    out.put("p99_tpot_ms", s.p99TpotMs());
    for (Metric metric : Metric.ANSWER) {
      ResultDocument.putDistribution(out, metric.key(), l.distribution(metric));
    }
    return out;
  }

  private static Object trimValue(double v, SteadyStateOptions.Trim trim) {
    return trim.unit() == SteadyStateOptions.TrimUnit.REQUESTS ? (Object) (long) v : v;
  }

  /**
   * The verdict after the run, then whether the live stop ended the run ({@code
   * stopped_early}) and its account ({@code stop}: when, since when, why, how many requests
   * had finished and were in flight, and how many never finished), null when it did not.
   */
  private static Map<String, Object> overSaturationJson(OverSaturation.Result r,
      Map<String, Object> stop) {
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    // The live test saw the requests in flight at the stop, which never finished and are in
    // no record: when only it passed, its window is the run's evidence.
    boolean live = stop != null && !r.detected();
    out.put("detected", r.detected() || stop != null);
    out.put("detected_by", live ? "live_check" : r.detected() ? "after_the_run" : null);
    out.put("since_s", live ? stop.get("since_s") : r.sinceSeconds());
    out.put("window_requests", r.windowRequests());
    out.put("windows_tested", r.windowsTested());
    OverSaturation.Evidence e = r.evidence();
    out.put("evidence", live ? stop.get("evidence") : e == null ? null : e.toJson(0));
    OverSaturation.Options o = r.options();
    LinkedHashMap<String, Object> settings = new LinkedHashMap<>();
    settings.put("confidence", o.confidence());
    settings.put("min_backlog_fraction", o.minBacklogFraction());
    settings.put("flat_tolerance", o.flatTolerance());
    settings.put("min_completions", o.minCompletions());
    out.put("settings", settings);
    out.put("stopped_early", stop != null);
    out.put("stop", stop);
    return out;
  }
}
