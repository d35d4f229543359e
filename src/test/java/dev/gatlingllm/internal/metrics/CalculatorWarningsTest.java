package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The warnings a user sees under the summary when figures are degraded: a zero duration
 * (every throughput is 0) and responses without usage and no token counter (counted as one
 * token each) — said once, not per request, and not when nothing is degraded.
 */
class CalculatorWarningsTest {

  private static final String NO_COUNTER = "The server sent no usage and no token counter is set";
  private static final String ZERO_DURATION = "The benchmark duration is 0 s";

  private static RequestRecord ok(int outputTokens) {
    return RequestRecord.builder("r").startNanos(0).ttftNanos(1_000_000).latencyNanos(2_000_000)
        .endNanos(2_000_000).chunkMicros(new int[] {1_000, 2_000}).promptTokens(3)
        .outputTokens(outputTokens).httpStatus(200).success(true).generatedText("two words")
        .build();
  }

  private static List<String> warnings(Supplier<BenchmarkMetrics> run) {
    Logger logger = (Logger) LoggerFactory.getLogger(MetricsCalculator.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      run.get();
    } finally {
      logger.detachAppender(appender);
    }
    return appender.list.stream().filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage).toList();
  }

  private static long count(List<String> messages, String prefix) {
    return messages.stream().filter(m -> m.startsWith(prefix)).count();
  }

  @Test
  void usagelessResponsesWithoutCounterWarnOnceForTheWholeRun() {
    List<String> w = warnings(() -> MetricsCalculator.builder().build()
        .compute(List.of(ok(-1), ok(0), ok(-1)), 1.0));
    assertEquals(1, count(w, NO_COUNTER), w.toString());
  }

  @Test
  void aZeroTokenUsageWithoutCounterWarnsToo() {
    // usage.completion_tokens = 0 is "missing" for vLLM as well: the text is counted instead.
    List<String> w = warnings(() -> MetricsCalculator.builder().build()
        .compute(List.of(ok(0)), 1.0));
    assertEquals(1, count(w, NO_COUNTER), w.toString());
  }

  @Test
  void usageOrACounterMeansNoWarning() {
    List<String> withUsage = warnings(() -> MetricsCalculator.builder().build()
        .compute(List.of(ok(5), ok(1)), 1.0));
    assertEquals(List.of(), withUsage);
    List<String> withCounter = warnings(() -> MetricsCalculator.builder()
        .tokenCounter(MetricFixtures.WORDS).build().compute(List.of(ok(-1)), 1.0));
    assertEquals(List.of(), withCounter);
  }

  @Test
  void zeroDurationWarnsThatThroughputsAreZero() {
    List<String> w = warnings(() -> {
      BenchmarkMetrics m = MetricsCalculator.builder().build().compute(List.of(ok(2)), 0.0);
      assertEquals(0.0, m.requestThroughput());
      return m;
    });
    assertEquals(List.of("The benchmark duration is 0 s: throughputs are reported as 0"), w);
  }

  @Test
  void aPositiveDurationDoesNotWarn() {
    assertEquals(0, count(warnings(() -> MetricsCalculator.builder().build()
        .compute(List.of(ok(2)), 0.5)), ZERO_DURATION));
  }
}
