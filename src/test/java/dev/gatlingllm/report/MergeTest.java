package dev.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RunInfo;
import dev.gatlingllm.internal.report.RunReporter;
import dev.gatlingllm.internal.report.RunSettings;
import dev.gatlingllm.internal.scale.ClockOffset;
import dev.gatlingllm.internal.scale.InjectorFacts;
import dev.gatlingllm.internal.scale.InjectorShare;
import dev.gatlingllm.options.ResultOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Merging the record logs of a benchmark's injectors: exact maths, refusals, dead injectors. */
class MergeTest {

  private static final JsonMapper JSON = new JsonMapper();
  /** 2027-01-15T08:00:00Z, a reference-clock time in epoch ns. */
  private static final long E = 1_800_000_000_000_000_000L;
  private static final long S = 1_000_000_000L;
  private static final long MS = 1_000_000L;
  private static final LocalDateTime WHEN = LocalDateTime.of(2027, 1, 15, 9, 0, 0);

  @TempDir
  Path dir;

  private final ByteArrayOutputStream console = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);

  /** An injector whose nanoTime reads {@code anchorNano} when its clock reads {@code anchorEpoch}. */
  private static InjectorFacts facts(int k, int n, String hash, long offset, long anchorNano,
      long anchorEpoch) {
    return new InjectorFacts(new InjectorShare(k, n), hash, null,
        new ClockOffset("given", offset, 0, 0), anchorNano, anchorEpoch);
  }

  private static RunSettings settings(InjectorFacts facts, long startLocal) {
    return new RunSettings(RunInfo.builder("org/m").numPrompts(30).requestRate(10).seed(3)
            .extra("injector", facts.toJson()).build(),
        ResultOptions.builder().label("merge").detailed(true)
            .percentileMetrics("ttft,tpot,itl,e2el").metricPercentiles("50,90,99").build(),
        OptionalLong.of(startLocal), WHEN);
  }

  /** A successful request: {@code chunks} content chunks from TTFT to latency, evenly. */
  private static RequestRecord request(String id, long start, long ttft, long latency,
      int chunks) {
    int[] micros = new int[chunks];
    for (int i = 0; i < chunks; i++) {
      micros[i] = (int) ((ttft + (latency - ttft) * i / Math.max(1, chunks - 1)) / 1_000);
    }
    return RequestRecord.builder("gen").startNanos(start).ttftNanos(ttft).latencyNanos(latency)
        .endNanos(start + latency).chunkMicros(micros).promptTokens(16).usagePromptTokens(16)
        .outputTokens(chunks).httpStatus(200).success(true).generatedText("x".repeat(chunks))
        .requestId(id).build();
  }

  private Path log(String name, RunSettings settings, List<RequestRecord> records,
      boolean finish) throws Exception {
    RecordLog log = RecordLog.create(dir.resolve(name), () -> settings);
    records.forEach(log::append);
    if (finish) {
      log.finish(settings);
    } else {
      log.close();
    }
    return log.file();
  }

  private Map<String, Object> json(Path file) throws Exception {
    @SuppressWarnings("unchecked")
    Map<String, Object> doc = JSON.readValue(file.toFile(), LinkedHashMap.class);
    return doc;
  }

  @Test
  void placesEachInjectorOnTheReferenceClockBeforeComputing() throws Exception {
    // injector 0 trusts its clock; injector 1's clock is 5 s behind the reference, and its
    // nanoTime counts from another origin. On the reference clock request A runs 0..1 s and
    // request B 0.5..1.5 s after the common start.
    InjectorFacts f0 = facts(0, 2, "h", 0, 1_000 * S, E);
    InjectorFacts f1 = facts(1, 2, "h", 5 * S, 7 * S, E - 5 * S);
    Path a = log("i0", settings(f0, 1_000 * S),
        List.of(request("r0", 1_000 * S, 100 * MS, 1_000 * MS, 10)), true);
    Path b = log("i1", settings(f1, 7 * S),
        List.of(request("r1", 7 * S + 500 * MS, 300 * MS, 1_000 * MS, 10)), true);

    Merge.Merged merged = Merge.merge(List.of(a, b), dir.resolve("out"), false, t -> 1, out);

    assertTrue(merged.outcome().ok(), merged.outcome().error());
    Map<String, Object> doc = json(merged.outcome().resultFile());
    assertEquals(1.5, ((Number) doc.get("duration")).doubleValue(), 1e-12);
    assertEquals(2, doc.get("completed"));
    assertEquals(2 / 1.5, ((Number) doc.get("request_throughput")).doubleValue(), 1e-12);
    assertEquals(20 / 1.5, ((Number) doc.get("output_throughput")).doubleValue(), 1e-12);
    // both requests cover the seconds 0 and 1 of the merged timeline
    assertEquals(2.0, ((Number) doc.get("max_concurrent_requests")).doubleValue());
    assertEquals(200.0, ((Number) doc.get("mean_ttft_ms")).doubleValue(), 1e-9);
    assertEquals(200.0, ((Number) doc.get("median_ttft_ms")).doubleValue(), 1e-9);
    // numpy: 100 + 0.99 * (300 - 100)
    assertEquals(298.0, ((Number) doc.get("p99_ttft_ms")).doubleValue(), 1e-9);
    assertEquals(List.of(0.0, 0.5), doc.get("start_times"));
    assertFalse(doc.containsKey("injector"));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> injectors = (List<Map<String, Object>>) doc.get("injectors");
    assertEquals(List.of(0, 1), injectors.stream().map(m -> m.get("index")).toList());
    assertFalse(merged.partial());
    assertNotNull(merged.outcome().htmlReport(), "the LLM report");
    assertTrue(Files.size(merged.outcome().htmlReport()) > 1000);
  }

  /**
   * A successful request whose content chunks arrive {@code chunkMs} after its start (the
   * first is the TTFT, the last the latency), one output token each, 10 prompt tokens.
   */
  private static RequestRecord chunks(String id, long start, int... chunkMs) {
    int[] micros = new int[chunkMs.length];
    for (int i = 0; i < chunkMs.length; i++) {
      micros[i] = chunkMs[i] * 1_000;
    }
    long latency = chunkMs[chunkMs.length - 1] * MS;
    return new RequestRecord("gen", start, start, chunkMs[0] * MS, latency, start + latency,
        micros, 10, 10, chunkMs.length, 200, true, null, "x".repeat(chunkMs.length), id, -1, 0, 0, 0, null,
        -1, 0, -1, -1, 0, 0, RequestRecord.SCHEMA_NOT_ASKED, false, -1, -1, -1, -1, -1, false, 0);
  }

  @Test
  void mergedFiguresAreThoseWorkedOutByHandOnTheReferenceClock() throws Exception {
    // Three injectors whose nanoTime origins and clock offsets all differ. Reference-clock
    // times below are ms after the common start (the merged timeline's 0); each injector's
    // nanoTime for it was worked out by hand: reference epoch = nanoTime + anchorEpoch -
    // anchorNano + offset.
    //   injector 0: offset 0,     anchor 5 s <-> E + 2 s:    nanoTime = ref + 3 s
    //   injector 1: offset +3 s,  anchor 100 s <-> E - 3 s:  nanoTime = ref + 100 s
    //   injector 2: offset -41 s, anchor -9 s <-> E + 100 s: nanoTime = ref - 68 s
    // Injector 1 started at ref 0, injector 0 at 50 ms, injector 2 at 100 ms: the timeline
    // starts at the earliest start, before any request.
    // request  injector  start (ref)  chunks at (ms after its start)
    //   a        0         100         50, 60, 80
    //   b        1          10         30, 40
    //   c        2         200         70, 100, 140, 160
    //   d        0        1100         20
    //   e        1        1500         40, 90
    //   f        2        2400         60, 80, 100
    Path a = log("inj0", settings(facts(0, 3, "same", 0, 5 * S, E + 2 * S), 3_050 * MS), List.of(
        chunks("a", 3_100 * MS, 50, 60, 80), chunks("d", 4_100 * MS, 20)), true);
    Path b = log("inj1", settings(facts(1, 3, "same", 3 * S, 100 * S, E - 3 * S), 100 * S),
        List.of(chunks("b", 100_010 * MS, 30, 40), chunks("e", 101_500 * MS, 40, 90)), true);
    Path c = log("inj2", settings(facts(2, 3, "same", -41 * S, -9 * S, E + 100 * S),
        -67_900 * MS), List.of(chunks("c", -67_800 * MS, 70, 100, 140, 160),
        chunks("f", -65_600 * MS, 60, 80, 100)), true);

    Merge.Merged merged = Merge.merge(List.of(c, a, b), dir.resolve("out"), false, t -> 1, out);

    assertTrue(merged.outcome().ok(), merged.outcome().error());
    Map<String, Object> doc = json(merged.outcome().resultFile());
    // from 0 (injector 1's start) to the end of f, 2400 + 100 ms
    assertEquals(2.5, number(doc, "duration"));
    assertEquals(6, doc.get("completed"));
    assertEquals(60, doc.get("total_input_tokens"));
    assertEquals(15, doc.get("total_output_tokens"));
    assertEquals(6 / 2.5, number(doc, "request_throughput"), 1e-12);
    assertEquals(15 / 2.5, number(doc, "output_throughput"), 1e-12);
    assertEquals(75 / 2.5, number(doc, "total_token_throughput"), 1e-12);
    // a, b and c all run in second 0 (with 9 chunks between them), d and e in second 1
    assertEquals(3.0, number(doc, "max_concurrent_requests"));
    assertEquals(9.0, number(doc, "max_output_tokens_per_s"));
    // TTFT 20 30 40 50 60 70; numpy's linear percentiles: p90 at rank 4.5, p99 at 4.95
    assertMs(doc, "ttft", 45, 45, 65, 69.5);
    // TPOT (latency - ttft) / (tokens - 1) of the five with more than one token: a 15, b 10,
    // c 30, e 50, f 20; sorted 10 15 20 30 50: p90 at rank 3.6, p99 at 3.96
    assertMs(doc, "tpot", 25, 20, 42, 49.2);
    // ITL 10 20 | 10 | 30 40 20 | 50 | 20 20; sorted 10 10 20 20 20 20 30 40 50
    assertMs(doc, "itl", 220.0 / 9, 20, 42, 49.2);
    // E2EL 80 40 160 20 90 100; sorted 20 40 80 90 100 160
    assertMs(doc, "e2el", 490.0 / 6, 85, 130, 157);
    // request order (by start: b a c d e f), seconds after the common start
    assertEquals(List.of(0.01, 0.1, 0.2, 1.1, 1.5, 2.4), doc.get("start_times"));
    assertEquals(List.of(0.03, 0.05, 0.07, 0.02, 0.04, 0.06), doc.get("ttfts"));
    assertEquals(List.of(0, 1, 2), merged.injectors().stream()
        .map(Merge.Injector::index).toList());
    assertEquals(List.of(2, 2, 2), merged.injectors().stream().map(Merge.Injector::records)
        .toList());
    assertFalse(merged.partial());

    // every other key (stds, medians, the rest of the detail) is that of one ordinary run of
    // the same six requests, stamped on the reference timeline from the table above
    List<RequestRecord> oneRun = List.of(chunks("a", 100 * MS, 50, 60, 80),
        chunks("d", 1_100 * MS, 20), chunks("b", 10 * MS, 30, 40), chunks("e", 1_500 * MS, 40, 90),
        chunks("c", 200 * MS, 70, 100, 140, 160), chunks("f", 2_400 * MS, 60, 80, 100));
    Path single = Files.createDirectories(dir.resolve("single"));
    RunSettings plain = new RunSettings(RunInfo.builder("org/m").numPrompts(30).requestRate(10)
        .seed(3).build(), settings(facts(0, 1, "x", 0, 0, 0), 0).options().toBuilder()
        .resultDir(single).resultFilename(merged.outcome().resultFile().getFileName()
            .toString()).printSummary(false).build(), OptionalLong.of(0), WHEN);
    Map<String, Object> want = json(RunReporter.report(plain, RecordSource.of(oneRun), single,
        t -> 1, out).resultFile());
    assertEquals(3, ((List<?>) doc.remove("injectors")).size());
    assertEquals(want, doc);
  }

  private static double number(Map<String, Object> doc, String key) {
    return ((Number) doc.get(key)).doubleValue();
  }

  /** Mean, median, p90 and p99 of one metric, in ms. */
  private static void assertMs(Map<String, Object> doc, String metric, double mean,
      double median, double p90, double p99) {
    assertEquals(mean, number(doc, "mean_" + metric + "_ms"), 1e-9, "mean " + metric);
    assertEquals(median, number(doc, "median_" + metric + "_ms"), 1e-9, "median " + metric);
    assertEquals(p90, number(doc, "p90_" + metric + "_ms"), 1e-9, "p90 " + metric);
    assertEquals(p99, number(doc, "p99_" + metric + "_ms"), 1e-9, "p99 " + metric);
  }

  @Test
  void refusesLogsOfDifferentBenchmarks() throws Exception {
    Path a = log("a", settings(facts(0, 2, "aaaaaaaaaaaaaaaa", 0, 0, E), 0),
        List.of(request("r0", 0, MS, 2 * MS, 2)), true);
    Path b = log("b", settings(facts(1, 2, "bbbbbbbbbbbbbbbb", 0, 0, E), 0),
        List.of(request("r1", 0, MS, 2 * MS, 2)), true);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Merge.merge(List.of(a, b), dir.resolve("out"), false, t -> 1, out));
    assertTrue(e.getMessage().contains("different benchmarks"), e.getMessage());
    assertTrue(e.getMessage().contains("aaaaaaaaaaaa") && e.getMessage().contains("bbbbbbbbbbbb"),
        e.getMessage());
    assertFalse(Files.exists(dir.resolve("out")));
  }

  @Test
  void refusesAnotherInjectorCountTwoLogsOfOneInjectorAndAMissingOne() throws Exception {
    Path a = log("a", settings(facts(0, 3, "h", 0, 0, E), 0), List.of(), true);
    Path b = log("b", settings(facts(1, 2, "h", 0, 0, E), 0), List.of(), true);
    Path c = log("c", settings(facts(0, 3, "h", 0, 0, E), 0), List.of(), true);
    Path d = log("d", settings(facts(2, 3, "h", 0, 0, E), 0), List.of(), true);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Merge.merge(List.of(a, b),
        dir.resolve("o1"), false, t -> 1, out)).getMessage().contains("injector counts differ"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Merge.merge(List.of(a, c),
        dir.resolve("o2"), false, t -> 1, out)).getMessage().contains("two record logs of "
        + "injector 0/3"));
    String missing = assertThrows(IllegalArgumentException.class, () -> Merge.merge(
        List.of(a, d), dir.resolve("o3"), false, t -> 1, out)).getMessage();
    assertTrue(missing.contains("no record log of injector 1/3"), missing);
    assertTrue(missing.contains("--allow-missing"), missing);
  }

  @Test
  void refusesALogOfAnOrdinaryRun() throws Exception {
    RunSettings plain = new RunSettings(RunInfo.builder("org/m").build(),
        ResultOptions.builder().build(), OptionalLong.empty(), WHEN);
    Path a = log("plain", plain, List.of(), true);
    String message = assertThrows(IllegalArgumentException.class,
        () -> Merge.merge(List.of(a), dir.resolve("out"), false, t -> 1, out)).getMessage();
    assertTrue(message.contains("not written by an injector"), message);
  }

  @Test
  void aDeadInjectorIsReportedAndItsFinishedRequestsKept() throws Exception {
    Path a = log("a", settings(facts(0, 2, "h", 0, 0, E), 0),
        List.of(request("r0", 0, 10 * MS, 100 * MS, 5), request("r2", 50 * MS, 10 * MS,
            100 * MS, 5)), true);
    // injector 1 was killed: its log has no end marker
    Path b = log("b", settings(facts(1, 2, "h", 0, 0, E), 0),
        List.of(request("r1", 20 * MS, 12 * MS, 90 * MS, 5)), false);

    Merge.Merged merged = Merge.merge(List.of(a, b), dir.resolve("out"), false, t -> 1, out);

    assertTrue(merged.partial());
    assertFalse(merged.injectors().get(1).complete());
    assertEquals(1, merged.injectors().get(1).records());
    Map<String, Object> doc = json(merged.outcome().resultFile());
    assertEquals(3, doc.get("completed"));
    assertEquals(Boolean.TRUE, doc.get(Recover.PARTIAL_KEY));
    assertEquals(3, doc.get(Recover.RECOVERED_RECORDS_KEY));
    String text = console.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("injector 1/2: DIED"), text);
    assertTrue(text.contains("its 1 finished requests are kept"), text);
    assertTrue(text.contains("PARTIAL: 3 requests merged"), text);
  }

  @Test
  void allowMissingMergesTheOthersAsAPartialResult() throws Exception {
    Path a = log("a", settings(facts(0, 2, "h", 0, 0, E), 0),
        List.of(request("r0", 0, 10 * MS, 100 * MS, 5)), true);
    Merge.Merged merged = Merge.merge(List.of(a), dir.resolve("out"), true, t -> 1, out);
    assertTrue(merged.partial());
    assertEquals(List.of(1), merged.missing());
    assertTrue(console.toString(StandardCharsets.UTF_8).contains("injector 1/2: MISSING"));
  }

  @Test
  void findsLogsInFoldersAndRefusesEmptyOnes() throws Exception {
    Path a = log("deep/er", settings(facts(0, 1, "h", 0, 0, E), 0), List.of(), true);
    assertEquals(List.of(a), Merge.findLogs(List.of(dir.resolve("deep"))));
    Files.createDirectories(dir.resolve("empty"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> Merge.findLogs(List.of(dir.resolve("empty")))).getMessage()
        .contains("no record log"));
    assertThrows(IllegalArgumentException.class,
        () -> Merge.findLogs(List.of(dir.resolve("nothing-here"))));
  }
}
