package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The steady-state window and its figures on hand-built records, every value worked out by
 * hand below. The run (seconds after the origin, which is 0):
 * <pre>
 *   request  start  chunks at (after start)   latency  output  prompt
 *   r0       0      1, 2, 3, 4                4        4       10
 *   r1       1      1, 2, 3, 4                4        4       20
 *   r2       4      0.5, 1, 1.5, 2            2        8       30   (2 tokens a chunk)
 *   r3       5      1, 2, 3                   3        3       40
 *   f        2      (failed)
 * </pre>
 * In flight (successes only, an end before a start at the same time): 1 at 0, 2 at 1, then
 * 1-2 at 4 (r0 ends, r2 starts), 1-2 at 5, 1 at 6, 0 at 8. With max concurrency 2 and
 * threshold 1 (or 0.95: ceil(1.9) = 2) the window opens at 1 and closes at 6, the last time
 * the count falls below 2: [1, 6), 5 s.
 */
class SteadyStateTest {

  private static final double EPS = 1e-9;

  private static RequestRecord ok(double start, double[] chunks, int output, int prompt) {
    long s = Math.round(start * 1e9);
    int[] micros = new int[chunks.length];
    for (int i = 0; i < chunks.length; i++) {
      micros[i] = (int) Math.round(chunks[i] * 1e6);
    }
    long latency = Math.round(chunks[chunks.length - 1] * 1e9);
    return RequestRecord.builder("r").scheduledNanos(s).startNanos(s)
        .ttftNanos(Math.round(chunks[0] * 1e9)).latencyNanos(latency).endNanos(s + latency)
        .chunkMicros(micros).promptTokens(prompt).usagePromptTokens(-1).outputTokens(output)
        .httpStatus(200).success(true).build();
  }

  private static RecordSource run() {
    List<RequestRecord> r = new ArrayList<>();
    r.add(ok(0, new double[] {1, 2, 3, 4}, 4, 10));
    r.add(ok(1, new double[] {1, 2, 3, 4}, 4, 20));
    r.add(RequestRecord.builder("r").scheduledNanos(2_000_000_000L).startNanos(2_000_000_000L)
        .ttftNanos(-1).latencyNanos(-1).endNanos(2_500_000_000L).chunkMicros(new int[0])
        .promptTokens(50).usagePromptTokens(-1).outputTokens(-1).httpStatus(500).success(false)
        .error("HTTP 500").build());
    r.add(ok(4, new double[] {0.5, 1, 1.5, 2}, 8, 30));
    r.add(ok(5, new double[] {1, 2, 3}, 3, 40));
    return RecordSource.of(r);
  }

  private static SteadyState compute(Integer maxConcurrency, double rate,
      SteadyStateOptions options) {
    RecordSource src = run();
    BenchmarkMetrics m = MetricsCalculator.builder().build().compute(src, 8.0, 0L);
    return SteadyState.compute(src, m, 0L, maxConcurrency, rate, options, new double[] {50, 99});
  }

  @Test
  void closedLoopWindowRunsFromTheFirstRiseToTheLastFall() {
    SteadyState s = compute(2, Double.POSITIVE_INFINITY, SteadyStateOptions.DEFAULTS);
    assertNotNull(s);
    assertEquals(SteadyState.CLOSED_LOOP, s.mode());
    assertEquals(1.0, s.startSeconds(), EPS);
    assertEquals(6.0, s.endSeconds(), EPS);
    assertEquals(2, s.thresholdAbs());
    assertEquals(2, s.observedPeak());
    assertEquals(4, s.requestsTotal());
    // r1, r2, r3 started in [1, 6); r0 (0) did not
    assertEquals(3, s.startedInWindow());
    // r0 (4) and r1 (5) ended in it; r2 ends at 6, excluded
    assertEquals(2, s.completedInWindow());
    assertEquals(2 / 5.0, s.requestThroughput(), EPS);
  }

  @Test
  void throughputsCountWhatHappenedInsideTheWindow() {
    SteadyState s = compute(2, Double.POSITIVE_INFINITY, SteadyStateOptions.DEFAULTS);
    // prompts of r1, r2, r3: 20 + 30 + 40 = 90 over 5 s
    assertEquals(18.0, s.inputThroughput(), EPS);
    // chunks in [1, 6): r0 all 4 (1..4), r1 all 4 (2..5), r2 3 of 4 (4.5, 5, 5.5; not 6) of 8
    // tokens = 6, r3 none (6, 7, 8): 14 tokens over 5 s
    assertEquals(2.8, s.outputThroughput(), EPS);
    assertEquals(20.8, s.totalTokenThroughput(), EPS);
  }

  @Test
  void latenciesAreThoseOfTheRequestsStartedInTheWindow() {
    SteadyState s = compute(2, Double.POSITIVE_INFINITY, SteadyStateOptions.DEFAULTS);
    // TTFT r1 1000, r2 500, r3 1000
    assertEquals(2500 / 3.0, s.latencies().ttft().mean(), 1e-6);
    assertEquals(1000, s.latencies().ttft().median(), 1e-6);
    assertEquals(1000, s.latencies().ttft().percentile(99), 1e-6);
    // TPOT r1 (4-1)/3 = 1 s, r2 (2-0.5)/7 s, r3 (3-1)/2 = 1 s
    assertEquals((2000 + 1500 / 7.0) / 3, s.latencies().tpot().mean(), 1e-6);
    assertEquals(1000, s.latencies().tpot().median(), 1e-6);
    // p90 of [214.29, 1000, 1000]: index 1.8, between 1000 and 1000
    assertEquals(1000, s.p90TpotMs(), 1e-6);
    // ITL: r1 1000 x3, r2 500 x3, r3 1000 x2
    assertEquals(6500 / 8.0, s.latencies().itl().mean(), 1e-6);
    assertEquals(1000, s.latencies().itl().median(), 1e-6);
    // E2EL r1 4000, r2 2000, r3 3000
    assertEquals(3000, s.latencies().e2el().mean(), 1e-6);
    // p50 of [2000, 3000, 4000]
    assertEquals(3000, s.latencies().e2el().percentile(50), 1e-6);
  }

  @Test
  void aWindowShorterThanTheMinimumIsReportedWithAWarning() {
    // automatic minimum: max(10, 0.1 x 8) = 10 s > 5 s
    SteadyState auto = compute(2, Double.POSITIVE_INFINITY, SteadyStateOptions.DEFAULTS);
    assertEquals(10.0, auto.minWindowSeconds(), EPS);
    assertTrue(auto.warning().startsWith("steady-state window is 5.0 s (62.5 % of the run)"),
        auto.warning());
    SteadyState five = compute(2, Double.POSITIVE_INFINITY,
        SteadyStateOptions.DEFAULTS.withMinWindowSeconds(5.0));
    assertNull(five.warning());
  }

  @Test
  void noWindowWhenTheThresholdIsNeverReachedOrTheRunIsNotAClosedLoop() {
    // 3 in flight are never reached
    assertNull(compute(3, Double.POSITIVE_INFINITY, SteadyStateOptions.DEFAULTS));
    // a paced run without a trim, and a closed loop with detection off
    assertNull(compute(2, 10.0, SteadyStateOptions.DEFAULTS));
    assertNull(compute(null, Double.POSITIVE_INFINITY, SteadyStateOptions.DEFAULTS));
    assertNull(compute(2, Double.POSITIVE_INFINITY,
        SteadyStateOptions.DEFAULTS.withClosedLoop(false)));
  }

  @Test
  void thresholdInRequestsIsTheCeilingWithoutFloatingPointSurprises() {
    assertEquals(19, SteadyState.thresholdAbs(0.95, 20));
    assertEquals(16, SteadyState.thresholdAbs(0.95, 16));
    assertEquals(1, SteadyState.thresholdAbs(0.1, 4));
    assertEquals(4, SteadyState.thresholdAbs(1.0, 4));
  }

  @Test
  void trimBySecondsCutsAfterTheFirstStartAndBeforeTheLastEnd() {
    // first start 0 + 1 = 1, last end 8 - 2 = 6: the closed-loop window again
    SteadyState s = compute(2, 10.0,
        SteadyStateOptions.DEFAULTS.withTrim(SteadyStateOptions.Trim.seconds(1, 2)));
    assertEquals(SteadyState.TRIMMED, s.mode());
    assertEquals(1.0, s.startSeconds(), EPS);
    assertEquals(6.0, s.endSeconds(), EPS);
    assertNull(s.targetConcurrency());
    assertEquals(3, s.startedInWindow());
    assertEquals(2.8, s.outputThroughput(), EPS);
  }

  @Test
  void trimByRequestsLeavesOutTheFirstAndLastStarts() {
    // successful starts 0, 1, 4, 5: drop 1 at each end -> [start of r1, start of r3) = [1, 5)
    SteadyState s = compute(2, 10.0,
        SteadyStateOptions.DEFAULTS.withTrim(SteadyStateOptions.Trim.requests(1, 1)));
    assertEquals(1.0, s.startSeconds(), EPS);
    assertEquals(5.0, s.endSeconds(), EPS);
    assertEquals(2, s.startedInWindow());
    // only r0 (ends 4) completed in [1, 5)
    assertEquals(0.25, s.requestThroughput(), EPS);
    // nothing left
    assertNull(compute(2, 10.0,
        SteadyStateOptions.DEFAULTS.withTrim(SteadyStateOptions.Trim.requests(2, 2))));
  }

  @Test
  void badOptionsAreRefusedWithTheValue() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SteadyStateOptions.DEFAULTS.withThreshold(0)).getMessage().contains("got 0.0"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SteadyStateOptions.Trim.seconds(-1, 0)).getMessage().contains(">= 0"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new SteadyStateOptions.Trim(SteadyStateOptions.TrimUnit.REQUESTS, 1.5, 0))
        .getMessage().contains("whole numbers"));
  }
}
