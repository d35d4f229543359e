package dev.gatlingllm.internal.selfcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.selfcheck.SelfCheckReport.Connections;
import dev.gatlingllm.internal.selfcheck.SelfCheckReport.Grade;
import dev.gatlingllm.internal.selfcheck.SelfCheckReport.LagSplit;
import dev.gatlingllm.internal.selfcheck.SelfCheckReport.Latency;
import dev.gatlingllm.internal.selfcheck.SelfCheckReport.RunFigures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The self-check's grade: the client's delay against the figures it distorts, with the cause
 * it measured. Values computed by hand in each test.
 */
class GradingTest {

  private static final long MB = 1024 * 1024;
  private static final Latency WRITES = new Latency(640, 0.031, 0.118, 0.2, 0.35);
  /** The quick-start's figures: TTFT 70 ms, ITL 12 ms. */
  private static final RunFigures QUICK_START = new RunFigures(100, 70, 75, 12, 13, 800);
  /** Lag over 1 ms, mostly running (the client's own work). */
  private static final LagSplit RUNNING = new LagSplit(true, 1, 100, 70, 20, 10);
  private static final LagSplit WAITING = new LagSplit(true, 1, 100, 10, 60, 30);

  private static SelfCheckReport report(double lagP99Ms, LagSplit split, RunFigures run) {
    return new SelfCheckReport(10_000, new Latency(4_000, 0.1, lagP99Ms, lagP99Ms * 2,
        lagP99Ms * 3), List.of(lagP99Ms * 3), Latency.NONE, WRITES, 0, 0, 0, 30, 2, split,
        Connections.NONE, SelfCheckReportTest.TUNED, run);
  }

  @Test
  void theQuickStartsLagOfOneAndAHalfMillisecondsIsGood() {
    // 1.45 / 12 = 12 % of the typical gap, 1.45 / 70 = 2 % of the TTFT: under 20 %
    SelfCheckReport r = report(1.45, RUNNING, QUICK_START);
    assertEquals(Grade.GOOD, r.grade());
    assertEquals("good", r.grade().label());
    assertEquals(List.of(), r.warnings());
    assertEquals("event-loop lag p99 1.45 ms, 12 % of the run's ITL p50 (12.00 ms) and 2 % of"
        + " its TTFT p50 (70.00 ms)", r.reason());
    Map<String, Object> json = r.toJson();
    assertEquals("good", json.get("grade"));
    assertNull(json.get("cause"));
    assertEquals(List.of(), json.get("warnings"));
    assertTrue(r.consoleText().contains("Self-check grade:                        good      \n"),
        r.consoleText());
    assertTrue(!r.consoleText().contains("Warning"), r.consoleText());
  }

  @Test
  void lagComparableToTheGapIsDistortedAndNamesItsCause() {
    // 10 / 12 = 83 % of the typical gap: the ITL tail is mostly the client's
    SelfCheckReport r = report(10, RUNNING, QUICK_START);
    assertEquals(Grade.DISTORTED, r.grade());
    assertEquals("event-loop lag p99 10.00 ms, 83 % of the run's ITL p50 (12.00 ms) and 14 % of"
        + " its TTFT p50 (70.00 ms); mostly running: the client's own load", r.reason());
    assertEquals("running", r.toJson().get("cause"));
    assertEquals(1, r.warnings().size());
    assertTrue(r.warnings().get(0).startsWith("distorted: event-loop lag p99 10.00 ms, max 30.00"
        + " ms, 83 % of the run's ITL p50"), r.warnings().get(0));
    assertTrue(r.consoleText().contains("Self-check grade:                        distorted \n"),
        r.consoleText());
  }

  @Test
  void lagBetweenAFifthAndHalfTheGapIsFair() {
    // 4 / 12 = 33 %: over 20 %, under 50 %
    SelfCheckReport r = report(4, WAITING, QUICK_START);
    assertEquals(Grade.FAIR, r.grade());
    assertEquals("waiting_for_cpu", r.toJson().get("cause"));
    assertTrue(r.reason().endsWith("33 % of the run's ITL p50 (12.00 ms) and 6 % of its TTFT p50"
        + " (70.00 ms); mostly waiting for a CPU: other processes on the client's cores"),
        r.reason());
    assertTrue(r.warnings().get(0).startsWith("fair: "), r.warnings().toString());
    // just over half the gap: 6.1 / 12 = 51 %
    assertEquals(Grade.DISTORTED, report(6.1, WAITING, QUICK_START).grade());
    assertEquals(Grade.FAIR, report(5.9, WAITING, QUICK_START).grade());
  }

  @Test
  void subMillisecondLagIsGoodEvenAgainstAMillisecondGap() {
    // the probes' own timer wake-up: 0.9 / 1 = 90 %, but under the 1 ms floor
    SelfCheckReport r = report(0.9, RUNNING, new RunFigures(50, 8, 9, 1, 1.2, 100));
    assertEquals(Grade.GOOD, r.grade());
  }

  @Test
  void aRunWithoutAFirstTokenIsGradedAgainstItsLatency() {
    // embeddings: no TTFT, no ITL; 3 / 20 = 15 % of the E2EL
    SelfCheckReport r = report(3, RUNNING, new RunFigures(50, 0, 0, 0, 0, 20));
    assertEquals(Grade.GOOD, r.grade());
    assertEquals("event-loop lag p99 3.00 ms, 15 % of the run's E2EL p50 (20.00 ms)", r.reason());
    assertEquals(Grade.DISTORTED, report(11, RUNNING, new RunFigures(50, 0, 0, 0, 0, 20)).grade());
  }

  @Test
  void aVeryShortRunInWhichEveryRequestFailedIsNotGraded() {
    // 0.02 s: 4 probes of two loops, none succeeded
    SelfCheckReport shortRun = new SelfCheckReport(20, new Latency(4, 0.3, 1.38, 1.38, 1.38),
        List.of(1.38, 0.4), Latency.NONE, Latency.NONE, 0, 0, 0, 80, 2, LagSplit.NOT_MEASURED,
        Connections.NONE, SelfCheckReportTest.TUNED, new RunFigures(0, 0, 0, 0, 0, 0));
    assertEquals(Grade.NOT_GRADED, shortRun.grade());
    assertEquals("not graded", shortRun.toJson().get("grade"));
    assertEquals(List.of(), shortRun.warnings());
    assertEquals("not enough to grade: 4 loop-lag samples in a 0.02 s window", shortRun.reason());
    // long enough, but nothing succeeded: no figure to compare the delay with
    SelfCheckReport allFailed = report(5, RUNNING, new RunFigures(0, 0, 0, 0, 0, 0));
    assertEquals(Grade.NOT_GRADED, allFailed.grade());
    assertEquals("not enough to grade: no successful request to compare the client's delay"
        + " with (event-loop lag p99 5.00 ms)", allFailed.reason());
  }

  @Test
  void aLongGcPauseIsFairWhenRareAndDistortedWhenItReachesThePercentile() {
    // 48 ms max, 61 ms in 10 s: 0.6 % of the window, only the maximum sees it
    SelfCheckReport rare = new SelfCheckReport(10_000, new Latency(4_000, 0.1, 0.5, 40, 48),
        List.of(48.0), Latency.NONE, WRITES, 3, 61, 48, 30, 2, RUNNING, Connections.NONE,
        SelfCheckReportTest.TUNED, QUICK_START);
    assertEquals(Grade.FAIR, rare.grade());
    assertEquals("gc_pauses", rare.toJson().get("cause"));
    assertEquals("GC pauses of up to 48.00 ms (3 pauses, 1 % of the window)", rare.reason());
    // 250 ms of pauses in 10 s (2.5 %), each up to 48 ms = 4 gaps of 12 ms: in the p99
    SelfCheckReport often = new SelfCheckReport(10_000, new Latency(4_000, 0.1, 0.5, 40, 48),
        List.of(48.0), Latency.NONE, WRITES, 8, 250, 48, 30, 2, RUNNING, Connections.NONE,
        SelfCheckReportTest.TUNED, QUICK_START);
    assertEquals(Grade.DISTORTED, often.grade());
    assertTrue(often.warnings().get(0).startsWith("distorted: the client JVM stopped for garbage"
        + " collection for up to 48.00 ms (8 pauses, 250.00 ms in total)"),
        often.warnings().toString());
  }

  @Test
  void lagThatGcPausesExplainIsBlamedOnThem() {
    // 80 ms of pauses in 100 ms of lag over 1 ms
    SelfCheckReport r = new SelfCheckReport(10_000, new Latency(4_000, 0.1, 8, 30, 40),
        List.of(40.0), Latency.NONE, WRITES, 4, 80, 9, 30, 2, RUNNING, Connections.NONE,
        SelfCheckReportTest.TUNED, QUICK_START);
    assertEquals(Grade.DISTORTED, r.grade()); // 8 / 12 = 67 %
    assertEquals("gc_pauses", r.toJson().get("cause"));
    assertTrue(r.reason().endsWith("; mostly GC pauses of the client JVM"), r.reason());
  }

  @Test
  void aJvmWhoseSettingsDifferIsFairWhateverTheLag() {
    JvmCheck untuned = JvmCheck.of(new JvmReading("C1 and C2", "SerialGC", 16 * MB, 1024 * MB,
        5 * MB, false, 1.0, List.of(), 21 * MB, "simple"));
    SelfCheckReport r = new SelfCheckReport(10_000, new Latency(4_000, 0.1, 0.5, 0.8, 0.9),
        List.of(0.9), Latency.NONE, WRITES, 0, 0, 0, 30, 2, RUNNING, Connections.NONE, untuned,
        QUICK_START);
    assertEquals(Grade.FAIR, r.grade());
    assertEquals("jvm_settings", r.toJson().get("cause"));
    assertEquals("the client JVM's settings differ from what its timings need (JVM settings)",
        r.reason());
  }

  @Test
  void sendLatenessIsGradedAgainstTheGapBetweenArrivals() {
    // 1,000 paced sends in 10 s: a 10 ms mean gap
    assertEquals(Grade.GOOD, paced(0.8).grade()); // under the 1 ms floor
    assertEquals(Grade.GOOD, paced(2.4).grade()); // 24 %
    SelfCheckReport fair = paced(5);
    assertEquals(Grade.FAIR, fair.grade()); // 50 %
    assertEquals("send lateness p99 5.00 ms, 50 % of the mean gap between arrivals (10.00 ms);"
        + " mostly running: the client's own load", fair.reason());
    assertEquals(Grade.DISTORTED, paced(15).grade()); // 150 %: a whole gap late
  }

  private static SelfCheckReport paced(double lateP99Ms) {
    return new SelfCheckReport(10_000, new Latency(4_000, 0.1, 0.5, 0.8, 0.9), List.of(0.9),
        new Latency(1_000, 0.05, lateP99Ms, lateP99Ms, lateP99Ms), WRITES, 0, 0, 0, 30, 2,
        RUNNING, Connections.NONE, SelfCheckReportTest.TUNED, QUICK_START);
  }

  @Test
  void theRunsFiguresComeFromItsSuccessfulRequests() {
    List<RequestRecord> records = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      // TTFT 50 ms + i, chunks every 10 ms
      records.add(RequestRecord.builder("r").success(true).startNanos(0)
          .ttftNanos((50 + i) * 1_000_000L).latencyNanos(200_000_000L)
          .chunkMicros(new int[] {50_000, 60_000, 70_000, 80_000}).build());
    }
    // a failure's figures count for nothing
    records.add(RequestRecord.builder("r").success(false).ttftNanos(1)
        .chunkMicros(new int[] {0, 1}).build());
    RunFigures run = RunFigures.of(RecordSource.of(records));
    assertEquals(10, run.succeeded());
    assertEquals(54, run.ttftP50Ms(), 54 * 0.008); // nearest rank: the 5th of 50..59
    assertEquals(10, run.itlP50Ms(), 10 * 0.008);
    assertEquals(10, run.itlP99Ms(), 10 * 0.008);
    assertEquals(200, run.e2elP50Ms(), 200 * 0.008);
    assertEquals(0, RunFigures.of(RecordSource.of(List.of())).succeeded());
  }
}
