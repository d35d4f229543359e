package dev.gatlingllm.internal.selfcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.selfcheck.SelfCheckReport.Connections;
import dev.gatlingllm.internal.selfcheck.SelfCheckReport.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a user reads: the console section, the JSON object and the warnings. */
class SelfCheckReportTest {

  private static final Latency QUIET_LAG = new Latency(4_000, 0.0612, 0.2104, 0.48, 0.9);
  private static final Latency WRITES = new Latency(640, 0.031, 0.118, 0.2, 0.35);
  private static final SelfCheckReport.LagSplit NOT_SPLIT = SelfCheckReport.LagSplit.NOT_MEASURED;
  private static final long MB = 1024 * 1024;
  /** A JVM with the settings the timings need. */
  static final JvmCheck TUNED = JvmCheck.of(new JvmReading("C1 only", "ParallelGC", 1024 * MB,
      1024 * MB, 64 * MB, false, 0.02, List.of(), 256 * MB, "disabled"));

  private static SelfCheckReport quiet() {
    return new SelfCheckReport(10_012.3456, QUIET_LAG, List.of(0.9, 0.71), Latency.NONE,
        WRITES, 2, 7, 4, 27.456, 2, NOT_SPLIT, Connections.NONE, TUNED);
  }

  @Test
  void consoleSectionReadsLikeVllmsSummary() {
    assertEquals(""
        + "---------Client self-check (gatling-llm)----------\n"
        + "Self-check window (s):                   10.01     \n"
        + "Event loops:                             2         \n"
        + "Loop lag samples:                        4000      \n"
        + "Median loop lag (ms):                    0.061     \n"
        + "P99 loop lag (ms):                       0.210     \n"
        + "P99.9 loop lag (ms):                     0.480     \n"
        + "Max loop lag (ms):                       0.900     \n"
        + "Max loop lag per loop (ms):              0.900 0.710\n"
        + "Median write time (ms):                  0.031     \n"
        + "P99 write time (ms):                     0.118     \n"
        + "Max write time (ms):                     0.350     \n"
        + "Connection retries:                      0         \n"
        + "Connection reuse:                        on        \n"
        + "GC pauses:                               2         \n"
        + "GC pause total (ms):                     7.000     \n"
        + "Max GC pause (ms):                       4.000     \n"
        + "Client CPU (% of one core):              27.46     \n"
        + "Available processors:                    2         \n"
        + "JVM settings:                            ok        \n"
        + "Self-check grade:                        good      \n"
        + "  event-loop lag p99 0.21 ms\n"
        + "==================================================\n",
        quiet().consoleText());
  }

  @Test
  void jsonHasVllmStyleKeysInOrder() {
    Map<String, Object> json = quiet().toJson();
    assertEquals(List.of("window_ms", "event_loops", "loop_lag_samples", "median_loop_lag_ms",
        "p99_loop_lag_ms", "p99.9_loop_lag_ms", "max_loop_lag_ms", "max_loop_lag_ms_per_loop",
        "loop_lag_split", "send_lateness_samples", "write_time_samples", "median_write_time_ms",
        "p99_write_time_ms", "max_write_time_ms", "connection_retries",
        "connection_reuse_stopped", "gc_pauses", "gc_pause_total_ms",
        "max_gc_pause_ms", "cpu_percent_of_one_core", "available_processors", "jvm",
        "grade", "cause", "grade_reason", "warnings"),
        new ArrayList<>(json.keySet()));
    assertEquals(10_012.346, json.get("window_ms"));
    assertEquals(2, json.get("event_loops"));
    assertEquals(4_000, json.get("loop_lag_samples"));
    assertEquals(0.061, json.get("median_loop_lag_ms"));
    assertEquals(List.of(0.9, 0.71), json.get("max_loop_lag_ms_per_loop"));
    assertNull(json.get("loop_lag_split"), "not measured: null, the key stays");
    assertEquals(0, json.get("send_lateness_samples"));
    assertEquals(27.456, json.get("cpu_percent_of_one_core"));
    assertEquals(List.of(), json.get("warnings"));
    assertEquals("good", json.get("grade"));
    assertNull(json.get("cause"), "good: nothing to blame");
    assertEquals(0L, json.get("connection_retries"));
    assertEquals(false, json.get("connection_reuse_stopped"));
  }

  @Test
  void staleConnectionsSentAgainAndAStoppedReuseAreShownNotWarnedAbout() {
    SelfCheckReport report = new SelfCheckReport(1_000, QUIET_LAG, List.of(0.9), Latency.NONE,
        WRITES, 0, 0, 0, 10, 2, NOT_SPLIT, new Connections(3, true), TUNED);
    assertEquals(3L, report.toJson().get("connection_retries"));
    assertEquals(true, report.toJson().get("connection_reuse_stopped"));
    assertTrue(report.consoleText().contains(""
        + "Connection retries:                      3         \n"
        + "Connection reuse:                        stopped   \n"), report.consoleText());
    // Neither distorts a timing: a retried request's clock restarts with its new connection.
    assertEquals(List.of(), report.warnings());
  }

  @Test
  void sendLatenessAppearsWhenTheRunWasPaced() {
    SelfCheckReport paced = new SelfCheckReport(1_000, QUIET_LAG, List.of(0.9),
        new Latency(100, 0.08, 0.8, 1.1, 4.6), WRITES, 0, 0, 0, 10, 2, NOT_SPLIT,
        Connections.NONE, TUNED);
    Map<String, Object> json = paced.toJson();
    assertEquals(100, json.get("send_lateness_samples"));
    assertEquals(0.08, json.get("median_send_lateness_ms"));
    assertEquals(0.8, json.get("p99_send_lateness_ms"));
    assertEquals(4.6, json.get("max_send_lateness_ms"));
    assertFalse(json.containsKey("p99.9_send_lateness_ms"));
    assertTrue(paced.consoleText().contains("P99 send lateness (ms):                  0.800     \n"));
  }

  @Test
  void aQuietClientRaisesNoWarning() {
    assertEquals(List.of(), quiet().warnings());
    assertFalse(quiet().consoleText().contains("Warning"));
  }

  @Test
  void loopLagWithoutTheRunsFiguresIsFairNeverDistorted() {
    Latency lag = new Latency(4_000, 0.2, 4.604, 30, 51.2);
    SelfCheckReport lagging = new SelfCheckReport(10_000, lag, List.of(51.2, 3.0), Latency.NONE,
        WRITES, 0, 0, 0, 60, 2, NOT_SPLIT, Connections.NONE, TUNED);
    String expected = "fair: event-loop lag p99 4.60 ms, max 51.20"
        + " ms; these latencies include up to 4.60 ms of client delay (p99)";
    assertEquals(SelfCheckReport.Grade.FAIR, lagging.grade());
    assertEquals(List.of(expected), lagging.warnings());
    assertTrue(lagging.consoleText().contains("\nWarning: " + expected + "\n"));
    assertEquals(List.of(expected), lagging.toJson().get("warnings"));
  }

  @Test
  void theLagsSplitIsPrintedWrittenAndNamedInTheWarning() {
    Latency lag = new Latency(4_000, 0.2, 4.604, 30, 51.2);
    SelfCheckReport.LagSplit split = new SelfCheckReport.LagSplit(true, 1, 200.004, 20.0004,
        10, 170.0036);
    SelfCheckReport lagging = new SelfCheckReport(10_000, lag, List.of(51.2, 3.0), Latency.NONE,
        Latency.NONE, 0, 0, 0, 12.5, 2, split, Connections.NONE, TUNED);

    assertTrue(lagging.consoleText().contains(""
        + "Max loop lag per loop (ms):              51.200 3.000\n"
        + "Lag over 1 ms (ms):                      200.004   \n"
        + "Lag over 1 ms, running (ms):             20.000    \n"
        + "Lag over 1 ms, waiting for CPU (ms):     10.000    \n"
        + "Lag over 1 ms, not runnable (ms):        170.004   \n"), lagging.consoleText());
    assertEquals(Map.of("over_ms", 1.0, "lag_ms", 200.004, "running_ms", 20.0,
        "waiting_for_cpu_ms", 10.0, "not_runnable_ms", 170.004),
        lagging.toJson().get("loop_lag_split"));
    assertEquals(List.of("fair: event-loop lag p99 4.60 ms, max"
        + " 51.20 ms; these latencies include up to 4.60 ms of client delay (p99); of the"
        + " loops' lag over 1 ms (200.00 ms in all), 10 % was spent running, 5 % waiting for a"
        + " CPU and 85 % not runnable (blocked in a call on the loop, or asleep and woken late"
        + " by the OS or hypervisor)"), lagging.warnings());
  }

  @Test
  void aMeasuredSplitWithNoLagOverTheThresholdAddsNothingToTheWarning() {
    Latency lag = new Latency(4_000, 0.2, 1.5, 3, 4);
    SelfCheckReport.LagSplit none = new SelfCheckReport.LagSplit(true, 1, 0, 0, 0, 0);
    SelfCheckReport report = new SelfCheckReport(10_000, lag, List.of(4.0), Latency.NONE,
        Latency.NONE, 0, 0, 0, 12.5, 2, none, Connections.NONE, TUNED);
    assertTrue(report.warnings().get(0).endsWith("ms of client delay (p99)"),
        report.warnings().get(0));
  }

  @Test
  void aLongGcPauseIsWarnedAbout() {
    SelfCheckReport gc = new SelfCheckReport(10_000, QUIET_LAG, List.of(0.9), Latency.NONE,
        WRITES, 3, 61, 48, 30, 2, NOT_SPLIT, Connections.NONE, TUNED);
    assertEquals(List.of("fair: the client JVM stopped for garbage collection for up to 48.00 ms"
        + " (3 pauses, 61.00 ms in total); a latency measured across a pause includes it"),
        gc.warnings());
    SelfCheckReport one = new SelfCheckReport(10_000, QUIET_LAG, List.of(0.9), Latency.NONE,
        WRITES, 1, 96, 96, 30, 2, NOT_SPLIT, Connections.NONE, TUNED);
    assertTrue(one.warnings().get(0).contains("(1 pause, 96.00 ms in total)"));
  }

  @Test
  void cpuAboveNinetyPercentOfTheCoresIsWarnedAbout() {
    SelfCheckReport busy = new SelfCheckReport(10_000, QUIET_LAG, List.of(0.9), Latency.NONE,
        WRITES, 0, 0, 0, 185, 2, NOT_SPLIT, Connections.NONE, TUNED);
    assertEquals(List.of("fair: the client JVM used 185 % of one core, more than 90 % of its 2"
        + " available cores; its latencies include time spent waiting for a CPU"),
        busy.warnings());
    SelfCheckReport oneCoreOfTwo = new SelfCheckReport(10_000, QUIET_LAG, List.of(0.9),
        Latency.NONE, WRITES, 0, 0, 0, 99, 2, NOT_SPLIT, Connections.NONE, TUNED);
    assertEquals(List.of(), oneCoreOfTwo.warnings());
  }

  @Test
  void unknownCpuIsNullInJsonAndNotApplicableOnTheConsole() {
    SelfCheckReport noCpu = new SelfCheckReport(1_000, QUIET_LAG, List.of(0.9), Latency.NONE,
        WRITES, 0, 0, 0, Double.NaN, 2, NOT_SPLIT, Connections.NONE, TUNED);
    assertTrue(noCpu.toJson().containsKey("cpu_percent_of_one_core"));
    assertNull(noCpu.toJson().get("cpu_percent_of_one_core"));
    assertTrue(noCpu.consoleText().contains("Client CPU (% of one core):              n/a"));
    assertEquals(List.of(), noCpu.warnings());
  }

  @Test
  void aJvmThatDiffersIsOneLineOnTheConsoleAWarningAndAJsonObject() {
    // Gatling's defaults on one CPU: the serial collector, both compilers, no pre-touch.
    JvmCheck untuned = JvmCheck.of(new JvmReading("C1 and C2", "SerialGC", 16 * MB, 1024 * MB,
        5 * MB, false, 1.0, List.of(), 21 * MB, "simple"));
    SelfCheckReport report = new SelfCheckReport(1_000, QUIET_LAG, List.of(0.9), Latency.NONE,
        WRITES, 0, 0, 0, 10, 1, NOT_SPLIT, Connections.NONE, untuned);

    assertTrue(report.consoleText().contains("JVM settings:                            7 differ"
        + "  \n"), report.consoleText());
    assertEquals(1, report.warnings().size());
    assertTrue(report.warnings().get(0).startsWith("fair: the client JVM's settings differ from what"
        + " its timings need (compiler: C1 and C2, needs C1 only (-XX:TieredStopAtLevel=1); GC:"
        + " SerialGC, needs ParallelGC (-XX:+UseParallelGC); initial heap: 16 MB, needs the max heap"
        + " (fixed) (-Xms1024m); "), report.warnings().get(0));
    @SuppressWarnings("unchecked")
    Map<String, Object> jvm = (Map<String, Object>) report.toJson().get("jvm");
    assertEquals("differs", jvm.get("verdict"));
    assertEquals(untuned.differences(), jvm.get("differences"));
    assertEquals("SerialGC", jvm.get("gc"));
  }

  @Test
  void titleIsFiftyColumnsLikeVllmsSectionTitles() {
    String title = quiet().consoleText().lines().findFirst().orElseThrow();
    assertEquals(50, title.length());
    assertTrue(title.matches("-+Client self-check \\(gatling-llm\\)-+"));
  }
}
