package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.MetricFixtures;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.report.TimelinePlot.Segment;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.report.ReportOutcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelinePlotTest {

  private static final double[] VLLM_DEFAULT = {25, 50};

  /** Starts at {@code startMs}; content chunks at the given offsets from the start, ms. */
  private static RequestRecord request(long startMs, int... chunkMs) {
    int[] micros = new int[chunkMs.length];
    for (int i = 0; i < chunkMs.length; i++) {
      micros[i] = chunkMs[i] * 1000;
    }
    return RequestRecord.builder("r").startNanos(startMs * 1_000_000L)
        .ttftNanos(chunkMs[0] * 1_000_000L)
        .latencyNanos(chunkMs[chunkMs.length - 1] * 1_000_000L)
        .endNanos((startMs + chunkMs[chunkMs.length - 1]) * 1_000_000L)
        .chunkMicros(micros).outputTokens(chunkMs.length).success(true).build();
  }

  @Test
  void theFileIsTheResultNameWithItsExtensionReplaced() {
    assertEquals(Path.of("out/vllm-5.0qps-m-20261127-031000.timeline.html"),
        TimelinePlot.beside(Path.of("out/vllm-5.0qps-m-20261127-031000.json")));
    // Path.with_suffix replaces the last suffix only, and adds one to a bare name
    assertEquals(Path.of("a.b.timeline.html"), TimelinePlot.beside(Path.of("a.b.json")));
    assertEquals(Path.of("result.timeline.html"), TimelinePlot.beside(Path.of("result")));
  }

  @Test
  void gapsAreClassedByTheThresholdsTheyReach() {
    assertEquals(0, TimelinePlot.itlClass(24.999, VLLM_DEFAULT));
    assertEquals(1, TimelinePlot.itlClass(25, VLLM_DEFAULT));
    assertEquals(1, TimelinePlot.itlClass(49.9, VLLM_DEFAULT));
    assertEquals(2, TimelinePlot.itlClass(50, VLLM_DEFAULT));
    assertEquals(List.of("ITL < 25ms", "25ms \u2264 ITL < 50ms", "ITL \u2265 50ms"),
        TimelinePlot.classLabels(VLLM_DEFAULT));
    assertEquals(List.of("ITL < 12.5ms", "12.5ms \u2264 ITL < 40ms", "ITL \u2265 40ms"),
        TimelinePlot.classLabels(new double[] {12.5, 40}));
  }

  @Test
  void eachRequestIsItsTtftThenItsGapsMergedByClassFromTheFirstStart() {
    // request 0 starts at 1000 ms: first token at +100, gaps 10, 20 (fast), 30 (mid), 60 (slow)
    // chunk offsets: 100, 110, 130, 160, 220
    // request 1 starts at 1500 ms: first token at +40, one gap of 45 (mid)
    // request 2 failed: left out, but the next keeps its index
    // request 3 starts at 1200 ms and has one token only: a TTFT and no gap
    RequestRecord failed = RequestRecord.builder("r").startNanos(1_300_000_000L)
        .endNanos(1_310_000_000L).success(false).error("500").build();
    RecordSource rs = RecordSource.of(List.of(request(1000, 100, 110, 130, 160, 220),
        request(1500, 40, 85), failed, request(1200, 70)));
    List<Segment> s = TimelinePlot.segments(rs, VLLM_DEFAULT);
    assertEquals(7, s.size());
    // times are seconds since 1000 ms, the earliest start
    assertSegment(s.get(0), 0, 0.0, 0.100, Segment.TTFT, 0);
    assertSegment(s.get(1), 0, 0.100, 0.130, 0, 2);
    assertSegment(s.get(2), 0, 0.130, 0.160, 1, 1);
    assertSegment(s.get(3), 0, 0.160, 0.220, 2, 1);
    assertSegment(s.get(4), 1, 0.500, 0.540, Segment.TTFT, 0);
    assertSegment(s.get(5), 1, 0.540, 0.585, 1, 1);
    assertSegment(s.get(6), 3, 0.200, 0.270, Segment.TTFT, 0);
  }

  private static void assertSegment(Segment s, int request, double start, double end, int kind,
      int gaps) {
    assertEquals(request, s.request());
    assertEquals(start, s.startSec(), 1e-9);
    assertEquals(end, s.endSec(), 1e-9);
    assertEquals(kind, s.kind());
    assertEquals(gaps, s.gaps());
  }

  @Test
  void thePageIsOneSvgWithVllmsColoursAndNothingFetched() {
    RecordSource rs = RecordSource.of(List.of(request(0, 100, 110, 170)));
    String html = TimelinePlot.html(rs, VLLM_DEFAULT, "Request timeline: <x>.json");
    assertTrue(html.contains("<svg"), html);
    // the TTFT, one fast gap (10 ms), one slow gap (60 ms)
    assertTrue(html.contains("fill=\"#636EFA\"><title>Req 0"), html);
    assertTrue(html.contains("fill=\"#109618\"><title>Req 0"), html);
    assertTrue(html.contains("fill=\"#D62728\"><title>Req 0"), html);
    assertFalse(html.contains("fill=\"#FF7F0E\"><title>"), "no mid gap: " + html);
    assertTrue(html.contains("ITL \u2265 50ms (1 gap)"), html);
    assertTrue(html.contains("start 0.110 s, end 0.170 s, duration 0.060 s"), html);
    assertTrue(html.contains("&lt;x&gt;.json"), "the title is escaped");
    assertFalse(html.contains("<script"), "no script");
    assertFalse(html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "").contains("http"),
        "nothing fetched");
  }

  @Test
  void theReporterWritesItBesideTheResultFileEvenUnsavedAndSaysWhere(@TempDir Path dir)
      throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    // vLLM computes the file name whether or not the result is saved, and plots beside it
    ReportOutcome out = RunReporter.report(Goldens.run("mixed"),
        RecordSource.of(MetricFixtures.records("mixed")),
        ResultOptions.builder().saveResult(false).htmlReport(false).resultFilename("run.json")
            .plotTimeline(true).build(), dir, MetricFixtures.WORDS, OptionalLong.empty(),
        Goldens.CLOCK, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertTrue(out.ok(), out.error());
    Path file = dir.resolve("run.timeline.html");
    assertTrue(Files.exists(file));
    assertFalse(Files.exists(dir.resolve("run.json")));
    String line = "Timeline plot saved to: " + file;
    assertTrue(out.summary().endsWith(line + "\n"), out.summary());
    assertTrue(bytes.toString(StandardCharsets.UTF_8).contains(line), "printed");
    assertTrue(Files.readString(file).contains("<title>Req 0"));
  }

  @Test
  void noTimelineUnlessAsked(@TempDir Path dir) throws Exception {
    RunReporter.report(Goldens.run("mixed"), RecordSource.of(MetricFixtures.records("mixed")),
        ResultOptions.builder().printSummary(false).htmlReport(false).resultFilename("run.json")
            .build(), dir, MetricFixtures.WORDS, OptionalLong.empty(), Goldens.CLOCK,
        System.out);
    assertTrue(Files.exists(dir.resolve("run.json")));
    assertFalse(Files.exists(dir.resolve("run.timeline.html")));
  }

  @Test
  void aRunWithoutSuccessSaysSo() {
    RequestRecord failed = RequestRecord.builder("r").startNanos(0).endNanos(5).success(false)
        .build();
    String html = TimelinePlot.html(RecordSource.of(List.of(failed)), VLLM_DEFAULT, "t");
    assertTrue(html.contains("No successful request to draw."), html);
  }

  @Test
  void ticksAreOneTwoOrFiveTimesAPowerOfTen() {
    assertEquals(0.1, TimelinePlot.tickStep(0.8), 1e-12);   // raw 0.08 -> 0.1
    assertEquals(2.0, TimelinePlot.tickStep(13), 1e-12);    // raw 1.3 -> 2
    assertEquals(5.0, TimelinePlot.tickStep(41), 1e-12);    // raw 4.1 -> 5
    assertEquals(10.0, TimelinePlot.tickStep(62), 1e-12);   // raw 6.2 -> 10
  }
}
