package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.arrival.RampUpStrategy;
import dev.gatlingllm.internal.metrics.MetricFixtures;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.report.ReportOutcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunReporterTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private static List<String> keys(JsonNode doc) {
    List<String> out = new ArrayList<>();
    doc.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void detailedModeAddsPerRequestArraysInStartOrder() throws Exception {
    ReportOutcome out = Goldens.report("mixed",
        Goldens.options("mixed").toBuilder().detailed(true).build(), dir);
    assertTrue(out.ok(), out.error());
    JsonNode doc = JSON.readTree(out.resultFile().toFile());
    List<String> keys = keys(doc);
    int at = keys.indexOf("total_token_throughput");
    assertEquals(List.of("input_lens", "output_lens", "ttfts", "itls", "latencies",
        "start_times", "generated_texts", "errors", "max_output_tokens_per_s"),
        keys.subList(at + 1, at + 10));

    List<RequestRecord> byStart = new ArrayList<>(MetricFixtures.records("mixed"));
    byStart.sort(Comparator.comparingLong(RequestRecord::startNanos));
    double previous = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < byStart.size(); i++) {
      RequestRecord r = byStart.get(i);
      assertEquals(r.generatedText(), doc.get("generated_texts").get(i).textValue());
      assertEquals(r.success() ? "" : r.error(), doc.get("errors").get(i).textValue());
      assertEquals(r.itlCount(), doc.get("itls").get(i).size());
      double start = doc.get("start_times").get(i).doubleValue();
      assertTrue(start >= previous);
      previous = start;
      if (!r.success()) {
        assertEquals(0, doc.get("output_lens").get(i).intValue());
      }
    }
    // the request with 4 chunks and no usage counts its 7 words
    int usageless = byStart.stream().map(RequestRecord::name).toList().indexOf("req-4");
    assertEquals(7, doc.get("output_lens").get(usageless).intValue());
    // third by start (120 ms): the single-token request; the failed one before it has ttft 0
    assertEquals(0.0, doc.get("ttfts").get(1).doubleValue(), 0.0);
    assertEquals(0.095000123, doc.get("ttfts").get(2).doubleValue(), 0.0);
  }

  @Test
  void appendModeAddsOneJsonObjectPerLine() throws Exception {
    ResultOptions opts = Goldens.options("mixed").toBuilder()
        .append(true).resultFilename("runs.json").build();
    ReportOutcome first = Goldens.report("mixed", opts, dir);
    String once = Files.readString(first.resultFile());
    ReportOutcome second = Goldens.report("mixed", opts, dir);
    assertEquals(first.resultFile(), second.resultFile());
    String twice = Files.readString(second.resultFile());
    assertEquals(once + "\n" + once, twice);
    for (String line : twice.split("\n")) {
      assertEquals(6, JSON.readTree(line).get("completed").intValue());
    }
  }

  @Test
  void withoutAppendTheFileIsReplaced() throws Exception {
    ResultOptions opts = Goldens.options("mixed").toBuilder().resultFilename("r.json").build();
    Goldens.report("mixed", opts, dir);
    ReportOutcome again = Goldens.report("mixed", opts, dir);
    assertEquals(1, Files.readAllLines(again.resultFile()).size());
  }

  @Test
  void resultDirAndFileNameAreHonoured() {
    Path elsewhere = dir.resolve("nested/results");
    ReportOutcome out = Goldens.report("mixed", Goldens.options("mixed").toBuilder()
        .resultDir(elsewhere).resultFilename("mine.json").build(), dir.resolve("run"));
    assertEquals(elsewhere.resolve("mine.json"), out.resultFile());
    assertTrue(Files.exists(out.resultFile()));
    assertEquals(elsewhere.resolve("mine.pytorch.json"), out.pytorchFile());
  }

  @Test
  void defaultLocationIsTheRunFolder() {
    ReportOutcome out = Goldens.report("mixed", Goldens.options("mixed"), dir);
    assertEquals(dir.resolve("openai-10.0qps-concurrency8-Llama-3.1-8B-Instruct-20250102-030405.json"),
        out.resultFile());
  }

  @Test
  void saveResultOffWritesTheReportButNoResult() throws Exception {
    ReportOutcome out = Goldens.report("mixed",
        Goldens.options("mixed").toBuilder().saveResult(false).build(), dir);
    assertTrue(out.ok());
    assertNull(out.resultFile());
    assertNotNull(out.summary());
    // every run with a folder gets its report (issue 30), the result JSON only when asked
    assertEquals(dir.resolve(LlmReport.FILE_NAME), out.htmlReport());
    try (var files = Files.list(dir)) {
      assertEquals(List.of(LlmReport.FILE_NAME),
          files.map(f -> f.getFileName().toString()).toList());
    }
  }

  @Test
  void rampUpWritesVllmsRampKeysAndFileName() throws Exception {
    ArrivalSchedule ramp = ArrivalSchedule.compute(ArrivalProfile.builder().numPrompts(20)
        .rampUp(RampUpStrategy.LINEAR, 1, 10).build());
    RunInfo run = RunInfo.builder("org/model-x").rampUp("linear", 1, 10)
        .rpsChangeEvents(ramp.rpsChangeEventsJson(Instant.parse("2025-01-02T03:04:05.000001Z"),
            ZoneOffset.UTC))
        .build();
    ReportOutcome out = RunReporter.report(run, RecordSource.of(MetricFixtures.records("mixed")),
        ResultOptions.builder().printSummary(false).build(), dir, MetricFixtures.WORDS,
        OptionalLong.empty(), Goldens.CLOCK, System.out);
    assertTrue(out.ok(), out.error());
    assertEquals("openai-ramp-up-linear-1qps-10qps-model-x-20250102-030405.json",
        out.resultFile().getFileName().toString());
    JsonNode doc = JSON.readTree(out.resultFile().toFile());
    List<String> keys = keys(doc);
    assertEquals(List.of("max_concurrency", "ramp_up_strategy", "ramp_up_start_rps",
        "ramp_up_end_rps", "duration"), keys.subList(keys.indexOf("max_concurrency"),
        keys.indexOf("duration") + 1));
    assertTrue(doc.get("ramp_up_start_rps").isInt());
    assertEquals("inf", doc.get("request_rate").textValue());
    assertEquals(keys.indexOf("max_concurrent_requests") + 1, keys.indexOf("rps_change_events"));
    assertEquals("{\"rps\":1,\"timestamp\":\"2025-01-02T03:04:05.000001\"}",
        doc.get("rps_change_events").get(0).toString());
    assertEquals(2, doc.get("rps_change_events").get(1).get("rps").intValue());
    // no benchmark start given: from the first scheduled arrival (0) to the last end: the
    // bucket-spanning request, 0.9 s + 2.300000456 s latency + 50 us to its end
    assertEquals(3.200050456, doc.get("duration").doubleValue(), 1e-12);
  }

  @Test
  void summaryIsPrintedWhenAsked() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ReportOutcome out = RunReporter.report(Goldens.run("mixed"),
        RecordSource.of(MetricFixtures.records("mixed")),
        ResultOptions.builder().saveResult(false).build(), dir, MetricFixtures.WORDS,
        OptionalLong.empty(), Goldens.CLOCK, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    // the summary, then where the report is (written although the result JSON is not)
    assertEquals(out.summary() + "LLM report: " + out.htmlReport().toAbsolutePath().toUri()
        + System.lineSeparator(), bytes.toString(StandardCharsets.UTF_8));
    assertTrue(out.summary().contains("============ Serving Benchmark Result ============\n"));
  }

  @Test
  void neverThrowsWhenTheResultCannotBeWritten() throws Exception {
    Path notADir = Files.writeString(dir.resolve("occupied"), "x");
    ReportOutcome out = Goldens.report("mixed",
        Goldens.options("mixed").toBuilder().resultDir(notADir).build(), dir);
    assertFalse(out.ok());
    assertTrue(out.error().startsWith("Could not write the benchmark result to "), out.error());
    assertNotNull(ReportAccess.metrics(out));
    assertNotNull(out.summary());
    assertNull(out.resultFile());
  }

  @Test
  void neverThrowsWhenTheTokenCounterDoes() {
    ReportOutcome out = RunReporter.report(Goldens.run("mixed"),
        RecordSource.of(MetricFixtures.records("mixed")), Goldens.options("mixed"), dir,
        text -> {
          throw new IllegalStateException("tokenizer exploded");
        }, OptionalLong.of(0), Goldens.CLOCK, System.out);
    assertFalse(out.ok());
    assertTrue(out.error().contains("Could not compute the benchmark metrics")
        && out.error().contains("tokenizer exploded"), out.error());
    assertNull(ReportAccess.metrics(out));
  }

  @Test
  void neverThrowsOnAClosedStore() {
    RecordStore store = new RecordStore(0, dir);
    store.add(MetricFixtures.records("mixed").get(0));
    store.close();
    ReportOutcome out = RunReporter.report(Goldens.run("mixed"), store, Goldens.options("mixed"),
        dir, MetricFixtures.WORDS, 0L);
    assertFalse(out.ok());
    assertTrue(out.error().startsWith("Could not read the recorded requests"), out.error());
  }

  @Test
  void reportsFromARecordStoreWithSpilledTexts() throws Exception {
    try (RecordStore store = new RecordStore(0, dir.resolve("spill"))) {
      for (RequestRecord r : MetricFixtures.records("mixed")) {
        store.add(r);
      }
      List<RequestRecord> records = MetricFixtures.records("mixed");
      long start = records.stream().mapToLong(RequestRecord::endNanos).max().getAsLong()
          - 3_500_000_000L;
      ReportOutcome out = RunReporter.report(Goldens.run("mixed"), store,
          Goldens.options("mixed").toBuilder().detailed(true).printSummary(false).build(), dir,
          MetricFixtures.WORDS, start);
      assertTrue(out.ok(), out.error());
      // the usage-less request's length came from its spilled text
      assertEquals(MetricFixtures.expected("mixed").get("total_output_tokens").asLong(),
          ReportAccess.metrics(out).totalOutput());
      JsonNode doc = JSON.readTree(out.resultFile().toFile());
      assertTrue(doc.get("generated_texts").toString().contains("a b c d e f g"));
      assertEquals(Goldens.resource("summary-mixed.txt"), out.summary());
    }
  }

  @Test
  void emptyRunReportsZerosWithoutFailing() throws Exception {
    ReportOutcome out = RunReporter.report(Goldens.run("mixed"), RecordSource.of(List.of()),
        ResultOptions.builder().printSummary(false).detailed(true).build(), dir, null,
        OptionalLong.empty(), Goldens.CLOCK, System.out);
    assertTrue(out.ok(), out.error());
    JsonNode doc = JSON.readTree(out.resultFile().toFile());
    assertEquals(0.0, doc.get("duration").doubleValue());
    assertEquals(0, doc.get("input_lens").size());
    assertEquals(0.0, doc.get("p99_ttft_ms").doubleValue());
  }
}
