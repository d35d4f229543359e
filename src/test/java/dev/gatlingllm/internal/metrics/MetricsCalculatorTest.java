package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/** Every figure of every fixture case against what numpy computed (make_fixtures.py). */
class MetricsCalculatorTest {

  static Stream<String> cases() {
    return MetricFixtures.names().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchesNumpyForEveryKey(String name) {
    BenchmarkMetrics m = MetricFixtures.calculator(name).compute(
        RecordSource.of(MetricFixtures.records(name)), MetricFixtures.duration(name),
        MetricFixtures.origin(name));
    JsonNode expected = MetricFixtures.expected(name);
    List<String> wrong = new ArrayList<>();
    expected.properties().forEach(e -> {
      String key = e.getKey();
      if (key.equals("output_lens") || key.equals("good_completed")) {
        return;
      }
      OptionalDouble actual = m.value(key);
      if (e.getValue().isNull()) {
        if (actual.isPresent()) {
          wrong.add(key + ": expected null, got " + actual.getAsDouble());
        }
      } else if (actual.isEmpty()) {
        wrong.add(key + ": missing");
      } else if (!MetricFixtures.close(e.getValue().asDouble(), actual.getAsDouble(), 1e-12)) {
        wrong.add(key + ": expected " + e.getValue().asDouble() + ", got " + actual.getAsDouble());
      }
    });
    if (!wrong.isEmpty()) {
      fail(name + ":\n" + String.join("\n", wrong));
    }
    if (expected.has("output_lens")) {
      for (int i = 0; i < m.requestCount(); i++) {
        assertEquals(expected.get("output_lens").get(i).asInt(), m.outputLen(i),
            name + " output_lens[" + i + "]");
      }
      assertEquals(expected.get("good_completed").asInt(), m.goodCompleted(), name + " good");
    }
  }

  @Test
  void fixturesExerciseWhatTheyClaim() {
    JsonNode mixed = MetricFixtures.expected("mixed");
    // mixed success/failure, a failure that streamed text, single-token and usage-less outputs
    assertEquals(6, mixed.get("completed").asInt());
    assertEquals(3, mixed.get("failed").asInt());
    // the 7-word text of the usage-less request (4 chunks) counts 7 tokens, not 4
    assertEquals(7, mixed.get("output_lens").get(4).asInt());
    // goodput with tpot:0 keeps only the single-token request (tpot counted as 0)
    assertEquals(1, MetricFixtures.expected("goodput-tpot-zero").get("good_completed").asInt());
    // each SLO key discriminates: some requests good, some not
    for (String c : List.of("goodput-ttft", "goodput-tpot", "goodput-e2el", "mixed")) {
      int good = MetricFixtures.expected(c).get("good_completed").asInt();
      assertTrue(good > 0 && good < 6, c + " good=" + good);
    }
  }

  @Test
  void orderOfRecordsDoesNotChangeAnyFigure() {
    List<RequestRecord> records = new ArrayList<>(MetricFixtures.records("random-200"));
    MetricsCalculator calc = MetricFixtures.calculator("random-200");
    BenchmarkMetrics a = calc.compute(RecordSource.of(records), 5.25, 0);
    Collections.reverse(records);
    BenchmarkMetrics b = calc.compute(RecordSource.of(records), 5.25, 0);
    for (String key : List.of("p99.9_itl_ms", "std_tpot_ms", "max_output_tokens_per_s",
        "max_concurrent_requests", "request_goodput", "mean_e2el_ms")) {
      assertEquals(a.value(key).getAsDouble(), b.value(key).getAsDouble(), key);
    }
  }

  @Test
  void peaksCountABucketSpanningRequestInEverySecondItTouches() {
    // one request from 0.9 s to 3.2 s: active in buckets 0, 1, 2, 3; one chunk per bucket
    // except bucket 0 (its first chunk arrives at 1.3 s)
    RequestRecord r = RequestRecord.builder("r").startNanos(900_000_000L).ttftNanos(400_000_000L)
        .latencyNanos(2_300_000_000L).endNanos(3_200_000_000L)
        .chunkMicros(new int[] {400_000, 1_300_000, 2_300_000}).promptTokens(5).outputTokens(3)
        .httpStatus(200).success(true).generatedText("a b c").build();
    RequestRecord early = RequestRecord.builder("e").startNanos(0).ttftNanos(100_000_000L)
        .latencyNanos(200_000_000L).endNanos(200_000_000L)
        .chunkMicros(new int[] {100_000, 150_000, 200_000}).promptTokens(5).outputTokens(3)
        .httpStatus(200).success(true).generatedText("x y z").build();
    BenchmarkMetrics m = MetricsCalculator.builder().build()
        .compute(List.of(r, early), 3.2);
    // bucket 0 holds early's 3 chunks; r adds one chunk to buckets 1, 2 and 3
    assertEquals(3.0, m.maxOutputTokensPerS());
    // bucket 0 has both requests active
    assertEquals(2, m.maxConcurrentRequests());
  }

  /** The warnings {@code compute} logs. */
  private static List<String> warningsOf(Runnable compute) {
    Logger logger = (Logger) LoggerFactory.getLogger(MetricsCalculator.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      compute.run();
      return appender.list.stream().filter(e -> e.getLevel() == Level.WARN)
          .map(ILoggingEvent::getFormattedMessage).toList();
    } finally {
      logger.detachAppender(appender);
    }
  }

  @Test
  void allFailedWarnsInsteadOfThrowing() {
    List<String> warnings = warningsOf(() -> {
      BenchmarkMetrics m = MetricFixtures.calculator("all-failed").compute(
          RecordSource.of(MetricFixtures.records("all-failed")), 2.0, 0);
      assertEquals(0, m.completed());
      assertEquals(0.0, m.ttft().percentile(99.9));
    });
    assertTrue(warnings.stream().anyMatch(w -> w.startsWith("All requests failed.")),
        "warnings: " + warnings);
  }

  @Test
  void aRunWithoutRequestsSaysSoRatherThanThatAllFailed() {
    List<String> warnings = warningsOf(() ->
        MetricsCalculator.builder().build().compute(RecordSource.of(List.of()), 0.0, 0));
    assertEquals(List.of("No request was recorded: did the scenario reach a completions or chat "
        + "request of this protocol?"), warnings);
  }

  @Test
  void withoutTokenCounterAUsagelessResponseCountsOneTokenAsVllmWithoutTokenizer() {
    List<RequestRecord> records = MetricFixtures.records("mixed");
    BenchmarkMetrics m = MetricsCalculator.builder().build().compute(records, 3.5);
    assertEquals(1, m.outputLen(4));
    assertEquals(1, m.outputLen(5));
  }

  @Test
  void goodputIsNullWithoutSlos() {
    BenchmarkMetrics m = MetricsCalculator.builder().build()
        .compute(MetricFixtures.records("mixed"), 3.5);
    assertNull(m.requestGoodput());
    assertFalse(m.value("request_goodput").isPresent());
  }

  @Test
  void valueKnowsEveryResultKeyAndRejectsOthers() {
    BenchmarkMetrics m = MetricFixtures.calculator("mixed")
        .compute(MetricFixtures.records("mixed"), 3.5);
    assertEquals(m.itl().percentile(99.9), m.value("p99.9_itl_ms").getAsDouble());
    assertEquals(m.tpot().std(), m.value("std_tpot_ms").getAsDouble());
    assertFalse(m.value("p12_itl_ms").isPresent());
    assertFalse(m.value("nonsense").isPresent());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> m.ttft().percentile(12));
    assertTrue(e.getMessage().contains("12.0") && e.getMessage().contains("99.9"), e.getMessage());
  }

  @Test
  void rejectsNegativeDuration() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MetricsCalculator.builder().build().compute(List.of(), -1));
    assertTrue(e.getMessage().contains("-1"), e.getMessage());
  }

  @Test
  void builderIsImmutable() {
    MetricsCalculator.Builder base = MetricsCalculator.builder();
    base.percentiles(50).goodput(GoodputSlo.parse("ttft:1"));
    BenchmarkMetrics m = base.build().compute(MetricFixtures.records("mixed"), 3.5);
    assertEquals(1, m.ttft().percentiles().size());
    assertEquals(99.0, m.ttft().percentiles().get(0).percentile());
    assertNull(m.requestGoodput());
  }
}
