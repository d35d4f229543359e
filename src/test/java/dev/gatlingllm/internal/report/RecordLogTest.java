package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.arrival.RampUpStrategy;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The record log's file format: what goes in comes out, and what a crash cuts is dropped. */
public class RecordLogTest {

  @TempDir
  Path dir;

  static final LocalDateTime STARTED = LocalDateTime.of(2026, 3, 1, 12, 30, 15);

  public static RunSettings settings() {
    Map<String, Object> selfCheck = new LinkedHashMap<>();
    selfCheck.put("window_ms", 1234.567);
    selfCheck.put("event_loops", 2);
    selfCheck.put("cpu_percent_of_one_core", null);
    selfCheck.put("max_loop_lag_ms_per_loop", List.of(0.25, 3.0));
    selfCheck.put("big", 1L << 40);
    return new RunSettings(
        RunInfo.builder("org/model-7b").backend("vllm").endpointType("openai-chat")
            .tokenizerId("org/tok").numPrompts(40).requestRate(12.5).burstiness(0.7)
            .maxConcurrency(8).seed(42).extra("client_self_check", selfCheck).build(),
        ResultOptions.builder().label("nightly").detailed(true).metadataPairs("tp=2", "v=0.9")
            .percentileMetrics("ttft,e2el").metricPercentiles("50,99.9")
            .goodput("ttft:500 e2el:2000").pytorch(true).resultFilename("r.json").build(),
        OptionalLong.of(123_456_789_012L), STARTED);
  }

  /** Records covering every field: success, failure, absent values, reasoning, odd texts. */
  static List<RequestRecord> records() {
    long t = 9_000_000_000_000L;
    return List.of(
        RequestRecord.builder("gen").scheduledNanos(t - 5_000).startNanos(t).ttftNanos(50_123_456)
            .latencyNanos(1_210_000_789).endNanos(t + 1_300_000_000L - t)
            .chunkMicros(new int[] {50_123, 60_200, 70_000, 1_210_000}).promptTokens(64)
            .usagePromptTokens(65).outputTokens(4).httpStatus(200).success(true)
            .generatedText("héllo, wörld 🙂").requestId("benchmark-serving0").ttfcNanos(40_000_000)
            .reasoningChunks(1).build(),
        RequestRecord.builder("gen").startNanos(t + 10).endNanos(t + 900_000)
            .error("connect failed: connection refused").build(),
        RequestRecord.builder("chat turn 2").scheduledNanos(t + 7).startNanos(t + 20).ttftNanos(5)
            .latencyNanos(5).endNanos(t + 30).chunkMicros(new int[] {0}).promptTokens(3)
            .outputTokens(0).httpStatus(500).error("HTTP 500: {\"error\": \"boom\"}\n")
            .generatedText("").requestId("id-\u0000-x").build());
  }

  private Path writeLog(List<RequestRecord> records, boolean finish) throws Exception {
    RecordLog log = RecordLog.create(dir, RecordLogTest::settings);
    records.forEach(log::append);
    if (finish) {
      log.finish(settings());
    } else {
      log.close();
    }
    return log.file();
  }

  static void assertSameRecord(RequestRecord want, RequestRecord got) {
    assertEquals(want.withGeneratedText(null).toString().replaceAll("\\[I@\\w+", ""),
        got.withGeneratedText(null).toString().replaceAll("\\[I@\\w+", ""));
    assertArrayEquals(want.chunkMicros(), got.chunkMicros());
    assertEquals(want.generatedText(), got.generatedText());
  }

  @Test
  void everyFieldOfEveryRecordAndTheSettingsComeBack() throws Exception {
    Path file = writeLog(records(), true);
    assertEquals(RecordLog.FILE_NAME, file.getFileName().toString());

    RecordLogReader.Contents read = RecordLogReader.read(file);

    assertTrue(read.complete());
    assertEquals(0, read.droppedBytes());
    assertEquals(records().size(), read.records().size());
    for (int i = 0; i < records().size(); i++) {
      assertSameRecord(records().get(i), read.records().get(i));
    }
    // each value as settings() gave it, typed here, not through the writer that wrote them
    RunInfo run = read.settings().run();
    assertEquals("org/model-7b", run.modelId());
    assertEquals("vllm", run.backend());
    assertEquals("openai-chat", run.endpointType());
    assertEquals("org/tok", run.tokenizerId());
    assertEquals(40, run.numPrompts());
    assertEquals(12.5, run.requestRate());
    assertEquals(0.7, run.burstiness());
    assertEquals(8, run.maxConcurrency());
    assertEquals(42, run.seed());
    assertTrue(run.seedGiven());
    Map<?, ?> selfCheck = (Map<?, ?>) run.extras().get("client_self_check");
    assertEquals(List.of("window_ms", "event_loops", "cpu_percent_of_one_core",
        "max_loop_lag_ms_per_loop", "big"), List.copyOf(selfCheck.keySet()));
    assertEquals(1234.567, ((Number) selfCheck.get("window_ms")).doubleValue());
    assertEquals(2, ((Number) selfCheck.get("event_loops")).intValue());
    assertTrue(selfCheck.containsKey("cpu_percent_of_one_core"));
    assertEquals(null, selfCheck.get("cpu_percent_of_one_core"));
    assertEquals(List.of(0.25, 3.0), selfCheck.get("max_loop_lag_ms_per_loop"));
    assertEquals(1L << 40, ((Number) selfCheck.get("big")).longValue());
    ResultOptions options = read.settings().options();
    assertEquals("nightly", options.label());
    assertTrue(options.detailed());
    assertEquals(Map.of("tp", "2", "v", "0.9"), options.metadata());
    assertEquals(List.of(Metric.TTFT, Metric.E2EL), ResultOptionsAccess.percentileMetrics(options));
    assertArrayEquals(new double[] {50, 99.9}, options.metricPercentiles());
    assertTrue(options.pytorch());
    assertEquals("r.json", options.resultFilename());
    assertEquals(OptionalLong.of(123_456_789_012L), read.settings().benchmarkStartNanos());
    assertEquals(STARTED, read.settings().reportTime());
    assertEquals(Map.of("ttft", 500.0, "e2el", 2000.0),
        ResultOptionsAccess.goodput(read.settings().options()).asMap());
  }

  @Test
  void rampsReplaysAndUnpacedRunsComeBackToo() {
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder().numPrompts(20)
        .rampUp(RampUpStrategy.EXPONENTIAL, 1, 30).build());
    List<RunInfo> runs = List.of(
        RunInfo.builder("m").rampUp("exponential", 1, 30)
            .rpsChangeEvents(schedule.rpsChangeEventsJson(
                java.time.Instant.ofEpochSecond(1_700_000_000), java.time.ZoneOffset.UTC))
            .build(),
        RunInfo.builder("m").replay("trace.csv", 0.5).taskType(TaskType.EMBEDDING).build(),
        RunInfo.builder("m").build());
    for (RunInfo run : runs) {
      RunSettings s = new RunSettings(run, ResultOptions.defaults(), OptionalLong.empty(), STARTED);
      byte[] json = RunSettingsJson.write(s, Map.of());
      RunSettings back = RunSettingsJson.read(RunSettingsJson.parse(json));
      // compared with the RunInfo given, field by field, never through the writer again
      assertEquals(run.rpsChangeEvents(), back.run().rpsChangeEvents(), new String(json));
      assertEquals(run.requestRate(), back.run().requestRate());
      assertEquals(run.taskType(), back.run().taskType());
      assertEquals(run.rampUpStrategy(), back.run().rampUpStrategy());
      assertEquals(run.rampUpStartRps(), back.run().rampUpStartRps());
      assertEquals(run.rampUpEndRps(), back.run().rampUpEndRps());
      assertEquals(run.arrivalReplay(), back.run().arrivalReplay());
      assertEquals(run.burstiness(), back.run().burstiness());
      assertEquals(run.maxConcurrency(), back.run().maxConcurrency());
    }
  }

  @Test
  void theSteadyStateAndOverSaturationOptionsComeBackSoRecoverChoosesTheSameWindow() {
    List<ResultOptions> all = List.of(
        ResultOptions.builder().steadyStateThreshold(0.8).steadyStateMinWindow(3.5)
            .stopOnOverSaturation(true).build(),
        ResultOptions.builder().steadyState(false).steadyStateTrimSeconds(2.5, 1).build(),
        ResultOptions.builder().steadyStateTrimRequests(10, 4).build());
    for (ResultOptions o : all) {
      RunSettings s = new RunSettings(RunInfo.builder("m").build(), o, OptionalLong.empty(),
          STARTED);
      RunSettings back = RunSettingsJson.read(RunSettingsJson.parse(
          RunSettingsJson.write(s, Map.of())));
      assertEquals(ResultOptionsAccess.steadyState(o),
          ResultOptionsAccess.steadyState(back.options()));
      assertEquals(o.stopOnOverSaturation(), back.options().stopOnOverSaturation());
    }
    assertEquals(new dev.gatlingllm.internal.metrics.SteadyStateOptions(false, 0.95, null,
        dev.gatlingllm.internal.metrics.SteadyStateOptions.Trim.requests(10, 4)),
        ResultOptionsAccess.steadyState(all.get(2)).withClosedLoop(false));
  }

  @Test
  void theTimelineOptionsComeBackSoRecoverDrawsTheSameTimeline() {
    ResultOptions o = ResultOptions.builder().plotTimeline(true).timelineItlThresholds(5, 80)
        .build();
    RunSettings back = RunSettingsJson.read(RunSettingsJson.parse(RunSettingsJson.write(
        new RunSettings(RunInfo.builder("m").build(), o, OptionalLong.empty(), STARTED),
        Map.of())));
    assertTrue(back.options().plotTimeline());
    assertArrayEquals(new double[] {5, 80}, back.options().timelineThresholdsMs());
    RunSettings plain = RunSettingsJson.read(RunSettingsJson.parse(RunSettingsJson.write(
        new RunSettings(RunInfo.builder("m").build(), ResultOptions.builder().build(),
            OptionalLong.empty(), STARTED), Map.of())));
    assertFalse(plain.options().plotTimeline());
    assertArrayEquals(ResultOptions.defaultTimelineThresholdsMs(),
        plain.options().timelineThresholdsMs());
  }

  @Test
  void aLogWrittenBeforeTheSteadyStateOptionsGetsTheDefaults() {
    RunSettings s = new RunSettings(RunInfo.builder("m").build(),
        ResultOptions.builder().steadyStateThreshold(0.5).stopOnOverSaturation(true).build(),
        OptionalLong.empty(), STARTED);
    Map<String, Object> json = RunSettingsJson.parse(RunSettingsJson.write(s, Map.of()));
    @SuppressWarnings("unchecked")
    Map<String, Object> options = (Map<String, Object>) json.get("options");
    options.remove("steady_state");
    options.remove("stop_on_over_saturation");
    ResultOptions back = RunSettingsJson.read(json).options();
    assertEquals(dev.gatlingllm.internal.metrics.SteadyStateOptions.DEFAULTS,
        ResultOptionsAccess.steadyState(back));
    assertEquals(false, back.stopOnOverSaturation());
  }

  @Test
  void aCutAtAnyByteOfTheLastRecordDropsOnlyThatRecord() throws Exception {
    byte[] whole = Files.readAllBytes(writeLog(records(), false));
    byte[] withoutLast = Files.readAllBytes(writeLogIn("fewer", records().subList(0, 2)));
    int lastStart = withoutLast.length;
    assertTrue(lastStart < whole.length);
    for (int cut = lastStart; cut < whole.length; cut++) {
      RecordLogReader.Contents read = RecordLogReader.read(Arrays.copyOf(whole, cut), "cut");
      assertEquals(2, read.records().size(), "cut at " + cut);
      assertFalse(read.complete());
      assertEquals(cut - lastStart, read.droppedBytes(), "cut at " + cut);
    }
    assertEquals(3, RecordLogReader.read(whole, "whole").records().size());
  }

  @Test
  void aCutEndMarkerMakesTheLogPartialWithEveryRecord() throws Exception {
    byte[] whole = Files.readAllBytes(writeLog(records(), true));
    byte[] unfinished = Files.readAllBytes(writeLogIn("open", records()));
    for (int cut = unfinished.length; cut < whole.length; cut++) {
      RecordLogReader.Contents read = RecordLogReader.read(Arrays.copyOf(whole, cut), "cut");
      assertFalse(read.complete(), "cut at " + cut);
      assertEquals(3, read.records().size());
    }
    assertTrue(RecordLogReader.read(whole, "whole").complete());
  }

  @Test
  void bytesThatFailTheirCrcEndTheReading() throws Exception {
    byte[] bytes = Files.readAllBytes(writeLog(records(), true));
    byte[] fewer = Files.readAllBytes(writeLogIn("fewer", records().subList(0, 1)));
    bytes[fewer.length + 7] ^= 0x10; // inside the second record
    RecordLogReader.Contents read = RecordLogReader.read(bytes, "damaged");
    assertEquals(1, read.records().size());
    assertFalse(read.complete());
    assertEquals(bytes.length - fewer.length, read.droppedBytes());
  }

  @Test
  void theLatestSettingsWinAndOnlyChangesAreWritten() throws Exception {
    AtomicReference<RunSettings> now = new AtomicReference<>(new RunSettings(
        RunInfo.builder("m").build(), ResultOptions.defaults(), OptionalLong.empty(), STARTED));
    RecordLog log = RecordLog.create(dir, now::get);
    Thread.sleep(3 * RecordLog.FLUSH_MILLIS);
    long unchanged = Files.size(log.file());
    now.set(now.get().withRun(RunInfo.builder("m").endpointType("openai-chat").build()));
    Thread.sleep(3 * RecordLog.FLUSH_MILLIS);
    log.close();

    RecordLogReader.Contents read = RecordLogReader.read(log.file());
    assertEquals("openai-chat", read.settings().run().endpointType());
    assertTrue(read.records().isEmpty());
    assertFalse(read.complete());
    RecordLogReader.Contents header =
        RecordLogReader.read(Arrays.copyOf(Files.readAllBytes(log.file()), (int) unchanged), "h");
    assertEquals("openai", header.settings().run().endpointType(),
        "nothing but the header while the settings did not change");
  }

  @Test
  void recordsReachTheFileWithinAFlushWithoutFinishing() throws Exception {
    RecordLog log = RecordLog.create(dir, RecordLogTest::settings);
    records().forEach(log::append);
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (RecordLogReader.read(log.file()).records().size() < 3 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(3, RecordLogReader.read(log.file()).records().size());
    log.close();
  }

  @Test
  void aSecondLogInTheSameFolderGetsItsOwnFile() throws Exception {
    RecordLog first = RecordLog.create(dir, RecordLogTest::settings);
    RecordLog second = RecordLog.create(dir, RecordLogTest::settings);
    assertEquals(dir.resolve("llm-records-2.bin"), second.file());
    first.close();
    second.close();
  }

  @Test
  void aLogOfAnotherVersionIsRefusedWithTheReason() throws Exception {
    byte[] bytes = Files.readAllBytes(writeLog(records(), true));
    bytes[RecordLog.MAGIC.length] = 2;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RecordLogReader.read(bytes, "old.bin"));
    assertTrue(e.getMessage().contains("old.bin is a gatling-llm record log of format version 2, "
        + "but this gatling-llm reads version 1"), e.getMessage());
  }

  @Test
  void anythingElseIsRefusedByName() throws Exception {
    Path notALog = Files.writeString(dir.resolve("simulation.log"), "RUN\tsim\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RecordLogReader.read(notALog));
    assertTrue(e.getMessage().contains("simulation.log is not a gatling-llm record log"),
        e.getMessage());
    UncheckedIOException missing = assertThrows(UncheckedIOException.class,
        () -> RecordLogReader.read(dir.resolve("nope.bin")));
    assertTrue(missing.getMessage().contains("no record log at"), missing.getMessage());
    byte[] headerOnly = Files.readAllBytes(writeLog(List.of(), false));
    IllegalArgumentException torn = assertThrows(IllegalArgumentException.class,
        () -> RecordLogReader.read(Arrays.copyOf(headerOnly, 20), "torn.bin"));
    assertTrue(torn.getMessage().contains("header is cut short"), torn.getMessage());
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
        () -> RecordLogReader.read(new byte[0], "empty.bin"));
    assertTrue(empty.getMessage().contains("empty.bin was cut before its header was written"),
        empty.getMessage());
  }

  private Path writeLogIn(String sub, List<RequestRecord> records) throws Exception {
    RecordLog log = RecordLog.create(dir.resolve(sub), RecordLogTest::settings);
    records.forEach(log::append);
    log.close();
    return log.file();
  }
}
