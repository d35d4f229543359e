package dev.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.gatlingllm.metrics.RecordSource;
import dev.gatlingllm.metrics.RequestRecord;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.scale.ClockOffset;
import dev.gatlingllm.scale.InjectorFacts;
import dev.gatlingllm.scale.InjectorShare;
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
import java.util.Random;
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

  @Test
  void mergedFiguresAreExactlyThoseOfTheConcatenatedRequests() throws Exception {
    // 30 requests on the reference timeline (ns after E), dealt i mod 3 to three injectors
    // whose nanoTime origins and clock offsets all differ
    Random random = new Random(11);
    List<RequestRecord> truth = new ArrayList<>();
    long t = 0;
    for (int i = 0; i < 30; i++) {
      t += (long) (random.nextDouble() * 200 * MS);
      truth.add(request("r" + i, t, (long) ((20 + random.nextDouble() * 80) * MS),
          (long) ((300 + random.nextDouble() * 900) * MS), 2 + random.nextInt(30)));
    }
    long[] offset = {0, 3_217 * MS + 123, -41 * S - 7};
    long[] anchorNano = {5 * S, 123_456_789_012L, -9 * S};
    long[] anchorEpoch = {E + 2 * S, E - 3 * S, E + 100 * S};
    List<Path> logs = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      InjectorFacts f = facts(k, 3, "same", offset[k], anchorNano[k], anchorEpoch[k]);
      long toLocal = -f.toReferenceEpoch() + E; // reference ns after E -> this injector's nanoTime
      List<RequestRecord> mine = new ArrayList<>();
      for (int i = k; i < truth.size(); i += 3) {
        mine.add(Merge.shifted(truth.get(i), toLocal));
      }
      logs.add(log("inj" + k, settings(f, toLocal), mine, true));
    }
    Merge.Merged merged = Merge.merge(List.of(dir), dir.resolve("out"), false, t2 -> 1, out);

    // the reference: one run holding all 30 requests, reported the ordinary way
    RunSettings single = new RunSettings(RunInfo.builder("org/m").numPrompts(30).requestRate(10)
        .seed(3).build(), settings(facts(0, 1, "x", 0, 0, 0), 0).options().toBuilder()
        .resultDir(dir.resolve("single")).resultFilename(
            merged.outcome().resultFile().getFileName().toString()).printSummary(false).build(),
        OptionalLong.of(0), WHEN);
    Files.createDirectories(dir.resolve("single"));
    ReportOutcome one = RunReporter.report(single, RecordSource.of(truth), dir.resolve("single"),
        t2 -> 1, out);

    Map<String, Object> got = json(merged.outcome().resultFile());
    Map<String, Object> want = json(one.resultFile());
    assertEquals(3, ((List<?>) got.remove("injectors")).size());
    assertEquals(want, got);
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
