package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.MetricsCalculator;
import dev.gatlingllm.internal.metrics.OverSaturation;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.SteadyStateOptions;
import dev.gatlingllm.report.Recover;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The analysis as the result JSON and the console show it. The run: a closed loop of 2, four
 * requests of 4 s each started at 0, 0, 4, 4 with one content chunk a second (one token each,
 * prompts of 10): both slots are full from 0 to 4 and 4 to 8, so the window is [0, 8) and
 * all four requests started in it; the two that end at 4 completed in it (the two at 8, the
 * window's end, did not): 2 / 8 = 0.25 req/s. Tokens: 4 chunks each at 1, 2, 3, 4 s after
 * their start, all inside but the last two at 8: 14 of 16, 1.75 tok/s; prompts 40 / 8 = 5.
 */
class RunAnalysisTest {

  private static RequestRecord ok(double start) {
    long s = Math.round(start * 1e9);
    return RequestRecord.builder("r").scheduledNanos(s).startNanos(s).ttftNanos(1_000_000_000L)
        .latencyNanos(4_000_000_000L).endNanos(s + 4_000_000_000L)
        .chunkMicros(new int[] {1_000_000, 2_000_000, 3_000_000, 4_000_000}).promptTokens(10)
        .usagePromptTokens(-1).outputTokens(4).httpStatus(200).success(true).build();
  }

  private static RunAnalysis analysis() {
    List<RequestRecord> r = new ArrayList<>(List.of(ok(0), ok(0), ok(4), ok(4)));
    RecordSource src = RecordSource.of(r);
    BenchmarkMetrics m = MetricsCalculator.builder().build().compute(src, 8.0, 0L);
    RunInfo run = RunInfo.builder("m").requestRate(Double.POSITIVE_INFINITY).maxConcurrency(2)
        .build();
    return RunAnalysis.of(run, src, m, 0L, new double[] {99}, SteadyStateOptions.DEFAULTS,
        OverSaturation.Options.DEFAULTS);
  }

  @Test
  @SuppressWarnings("unchecked")
  void jsonHasVllmBenchsKeysThenOurs() {
    Map<String, Object> doc = new LinkedHashMap<>();
    analysis().putInto(doc);
    assertEquals(RunAnalysis.KEYS, List.copyOf(doc.keySet()));
    Map<String, Object> ss = (Map<String, Object>) doc.get("steady_state");
    assertEquals(List.of("window", "request_throughput", "input_throughput", "output_throughput",
        "total_token_throughput", "mean_ttft_ms", "median_ttft_ms", "percentiles_ttft_ms",
        "mean_tpot_ms", "median_tpot_ms", "p90_tpot_ms", "p99_tpot_ms", "std_ttft_ms",
        "p99_ttft_ms", "std_tpot_ms", "mean_itl_ms", "median_itl_ms", "std_itl_ms",
        "p99_itl_ms", "mean_e2el_ms", "median_e2el_ms", "std_e2el_ms", "p99_e2el_ms"),
        List.copyOf(ss.keySet()));
    Map<String, Object> w = (Map<String, Object>) ss.get("window");
    assertEquals("closed_loop", w.get("mode"));
    assertEquals(0.0, w.get("start_s"));
    assertEquals(8.0, w.get("end_s"));
    assertEquals(2, w.get("threshold_abs"));
    assertEquals(4, w.get("requests_started_in_window"));
    assertEquals(2, w.get("requests_completed_in_window"));
    assertEquals(0.25, (double) ss.get("request_throughput"), 1e-12);
    assertEquals(1.75, (double) ss.get("output_throughput"), 1e-12);
    assertEquals(5.0, (double) ss.get("input_throughput"), 1e-12);
    assertEquals(List.of(List.of(99.0, 1000.0)), ss.get("percentiles_ttft_ms"));
    // 4 requests are fewer than a window of 32: not tested
    Map<String, Object> o = (Map<String, Object>) doc.get("over_saturation");
    assertEquals(false, o.get("detected"));
    assertNull(o.get("since_s"));
    assertEquals(0, o.get("windows_tested"));
  }

  @Test
  void consoleBlockFollowsVllmsColumns() {
    String text = ConsoleSummary.analysis(analysis(), List.of(Metric.TTFT, Metric.E2EL));
    assertTrue(text.startsWith("============== Steady-State Metrics ==============\n"
        + "Window:                                  in flight >= 2 of 2\n"
        + "Window start (s):                        0.00      \n"
        + "Window end (s):                          8.00      \n"
        + "Requests started in window:              4         \n"
        + "Requests completed in window:            2         \n"
        + "Request throughput (req/s):              0.25      \n"), text);
    assertTrue(text.contains("Mean TTFT (ms):                          1000.00   \n"), text);
    assertTrue(text.contains("P99 E2EL (ms):                           4000.00   \n"), text);
    assertTrue(!text.contains("TPOT"), "only the selected metrics: " + text);
    assertTrue(text.contains("Warning: steady-state window is 8.0 s (100.0 % of the run), "
        + "shorter than 10.0 s"), text);
    assertTrue(text.endsWith("=".repeat(50) + "\n"), text);
    assertEquals("", ConsoleSummary.analysis(new RunAnalysis(null, null), List.of(Metric.TTFT)));
  }

  /**
   * Arrivals every 0.1 s, completions every 0.2 s, TTFT 0.05 + 0.1k s (the run of {@code
   * OverSaturationTest}): over-saturated since 0.9 s, in flight +5 /s, TTFT +1000 ms/s, one
   * completion in each half of the window of 5.
   */
  @Test
  void overSaturationIsOneLineAfterVllmsBlock() {
    List<RequestRecord> r = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      long s = k * 100_000_000L;
      long e = 250_000_000L + k * 200_000_000L;
      long ttft = 50_000_000L + k * 100_000_000L;
      r.add(RequestRecord.builder("r").scheduledNanos(s).startNanos(s).ttftNanos(ttft)
          .latencyNanos(e - s).endNanos(e)
          .chunkMicros(new int[] {(int) (ttft / 1000), (int) ((e - s) / 1000)}).promptTokens(8)
          .usagePromptTokens(-1).outputTokens(2).httpStatus(200).success(true).build());
    }
    OverSaturation.Result o = OverSaturation.detect(RecordSource.of(r),
        dev.gatlingllm.internal.metrics.TaskType.GENERATION, 0L,
        new OverSaturation.Options(5, 0.95, 0.2, 0.25, 1));
    assertEquals("Over-saturated since 0.90 s: in flight +5.0/s, TTFT +1000 ms/s, completions "
        + "flat (1 then 1 per half-window of 5 requests)\n",
        ConsoleSummary.analysis(new RunAnalysis(null, o), List.of(Metric.TTFT)));
  }

  /**
   * A run the live check stopped although its finished requests alone do not pass the test
   * (the requests in flight at the stop tipped it): over_saturation says detected by the live
   * check, with its window, and the stop; the summary says when and why in one line.
   */
  @Test
  @SuppressWarnings("unchecked")
  void aLiveStopIsTheVerdictWhenTheFinishedRequestsAloneDoNotPass() {
    Map<String, Object> evidence = Map.of("window_end_s", 0.38);
    Map<String, Object> stop = stop(1.06, 0.38, "over-saturated: in flight +95.4/s", 44, 102,
        99, evidence);
    OverSaturation.Result notPassed = new OverSaturation.Result(false, null, 32, 17, null,
        OverSaturation.Options.DEFAULTS);
    Map<String, Object> doc = new java.util.LinkedHashMap<>();
    new RunAnalysis(null, notPassed, stop).putInto(doc);
    Map<String, Object> o = (Map<String, Object>) doc.get("over_saturation");
    assertEquals(true, o.get("detected"));
    assertEquals("live_check", o.get("detected_by"));
    assertEquals(0.38, o.get("since_s"));
    assertEquals(evidence, o.get("evidence"));
    assertEquals(true, o.get("stopped_early"));
    assertEquals(stop, o.get("stop"));
    assertEquals("Stopped early at 1.06 s (--stop-on-over-saturation): over-saturated: in "
        + "flight +95.4/s; 99 requests never finished\n",
        ConsoleSummary.analysis(new RunAnalysis(null, notPassed, stop), List.of(Metric.TTFT)));
    Map<String, Object> plain = new java.util.LinkedHashMap<>();
    new RunAnalysis(null, notPassed).putInto(plain);
    o = (Map<String, Object>) plain.get("over_saturation");
    assertEquals(false, o.get("detected"));
    assertNull(o.get("detected_by"));
    assertEquals(false, o.get("stopped_early"));
    assertTrue(o.containsKey("stop") && o.get("stop") == null);
  }

  /**
   * The stop's account travels as a run extra through the record log's end marker, so that
   * Recover reports the stop as the run did: read back, it is the analysis's stop again, and
   * the run without it has no top-level key left.
   */
  @Test
  void theStopSurvivesTheRecordLogsEndMarker() {
    Map<String, Object> stop = stop(2.05, 1.23, "over-saturated: in flight +147.7/s", 48, 263,
        259, Map.of("window_end_s", 1.23));
    RunSettings settings = new RunSettings(RunInfo.builder("m")
        .extra(OverSaturation.STOP_EXTRA, stop).build(),
        dev.gatlingllm.options.ResultOptions.builder().stopOnOverSaturation(true).build(),
        java.util.OptionalLong.of(0), java.time.LocalDateTime.of(2026, 11, 27, 3, 20));
    RunInfo back = RunSettingsJson.read(RunSettingsJson.parse(RunSettingsJson.write(settings,
        Map.of()))).run();
    RunAnalysis analysis = RunAnalysis.of(back, RecordSource.of(List.of()),
        MetricsCalculator.builder().build().compute(RecordSource.of(List.of()), 0, 0L), 0L,
        new double[] {99}, SteadyStateOptions.DEFAULTS, OverSaturation.Options.DEFAULTS);
    assertEquals(stop, analysis.stop());
    assertTrue(back.extras().containsKey(OverSaturation.STOP_EXTRA));
    assertTrue(!RunAnalysis.withoutStop(back).extras().containsKey(OverSaturation.STOP_EXTRA));
  }

  /** A live stop's account, its keys in the order the result JSON writes them. */
  private static Map<String, Object> stop(double atS, double sinceS, String reason,
      int finished, int inFlight, int unfinished, Map<String, Object> evidence) {
    Map<String, Object> stop = new LinkedHashMap<>();
    stop.put("at_s", atS);
    stop.put("since_s", sinceS);
    stop.put("reason", reason);
    stop.put("requests_finished", finished);
    stop.put("requests_in_flight", inFlight);
    stop.put("requests_unfinished", unfinished);
    stop.put("evidence", evidence);
    return stop;
  }
}
