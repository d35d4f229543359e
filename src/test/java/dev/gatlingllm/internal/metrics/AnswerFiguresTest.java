package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reasoning tokens, tool calls and schema checks summed over hand-built records. */
class AnswerFiguresTest {

  private static final long MS = 1_000_000;

  private static RequestRecord.Builder ok(long start) {
    return RequestRecord.builder("r").startNanos(start).ttftNanos(50 * MS).latencyNanos(90 * MS)
        .endNanos(start + 95 * MS).chunkMicros(new int[] {50_000, 90_000}).promptTokens(10)
        .outputTokens(2).httpStatus(200).success(true).generatedText("a");
  }

  @Test
  void reasoningTokensComeFromTheServerElseFromTheChunks() {
    List<RequestRecord> records = List.of(
        ok(0).reasoningChunks(4).reasoningTokens(9).build(),
        ok(MS).reasoningChunks(3).build(), // no count from the server: its 3 chunks
        ok(2 * MS).build(),
        RequestRecord.builder("r").startNanos(3 * MS).reasoningTokens(50).build()); // failed
    BenchmarkMetrics m = MetricsCalculator.builder().build().compute(records, 1.0);
    AnswerFigures a = m.answers();
    assertEquals(2, a.reasoningRequests());
    assertEquals(12, a.reasoningTokens());
    assertFalse(a.reasoningFromServer());
    assertEquals(12.0, m.value("total_reasoning_tokens").getAsDouble());
  }

  @Test
  void toolCallsAreCountedTimedAndTheirArgumentsShared() {
    List<RequestRecord> records = List.of(
        ok(0).toolCalls(2).toolCallsParsed(2).toolCallNanos(40 * MS).build(),
        ok(MS).toolCalls(1).toolCallsParsed(0).toolCallNanos(60 * MS).build(),
        ok(2 * MS).build());
    BenchmarkMetrics m = MetricsCalculator.builder().percentiles(50).build().compute(records, 1.0);
    AnswerFigures a = m.answers();
    assertEquals(2, a.toolCallRequests());
    assertEquals(3, a.toolCalls());
    assertEquals(2, a.toolCallsParsed());
    assertEquals(2.0 / 3, a.toolCallParseRate(), 1e-12);
    // samples 40 and 60 ms: mean and median 50
    assertEquals(50.0, a.toolCallTime().mean(), 1e-9);
    assertEquals(50.0, m.value("p50_ttftc_ms").getAsDouble(), 1e-9);
  }

  @Test
  void theValidShareIsOverTheAnswersChecked() {
    List<RequestRecord> records = List.of(
        ok(0).schemaCheck(RequestRecord.SCHEMA_VALID).build(),
        ok(MS).schemaCheck(RequestRecord.SCHEMA_VALID).build(),
        ok(2 * MS).schemaCheck(RequestRecord.SCHEMA_INVALID).build(),
        ok(3 * MS).schemaCheck(RequestRecord.SCHEMA_VALID).build(),
        ok(4 * MS).build());
    AnswerFigures a = MetricsCalculator.builder().build().compute(records, 1.0).answers();
    assertEquals(4, a.schemaChecked());
    assertEquals(3, a.schemaValid());
    assertEquals(0.75, a.schemaValidRate(), 1e-12);
  }

  @Test
  void aPlainRunHasNoneOfThem() {
    BenchmarkMetrics m = MetricsCalculator.builder().build().compute(List.of(ok(0).build()), 1.0);
    assertEquals(0, m.answers().reasoningRequests());
    assertEquals(0, m.answers().toolCallRequests());
    assertEquals(0, m.answers().schemaChecked());
    assertTrue(m.value("total_reasoning_tokens").isEmpty());
    assertTrue(m.value("structured_output_valid_rate").isEmpty());
  }
}
