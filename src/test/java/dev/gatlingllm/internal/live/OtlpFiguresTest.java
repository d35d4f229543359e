package dev.gatlingllm.internal.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.testing.OtlpReceiver;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * The live figures as a collector receives them: records in, counters and histograms out by
 * the result's rules, headers sent and never logged, and an endpoint that is not there said
 * once. The export runs every minute here, so what the receiver holds is the last export,
 * made by {@code close}.
 */
@Timeout(60)
class OtlpFiguresTest {

  private static final LiveFigures.RunLabels LABELS =
      new LiveFigures.RunLabels("served-llm", "openai-chat", "run-1");
  private static final String SECRET = "s3cret-token";

  /** ttft 20 ms, chunks at 20, 30, 45 ms: ITLs 10 and 15 ms, latency 45 ms; usage 5 tokens. */
  private static RequestRecord withUsage() {
    return RequestRecord.builder("r").startNanos(0).ttftNanos(20_000_000)
        .latencyNanos(45_000_000).endNanos(46_000_000).chunkMicros(new int[] {20_000, 30_000,
            45_000}).promptTokens(7).outputTokens(5).httpStatus(200).success(true)
        .generatedText("a b c").build();
  }

  /** No usage: its text "x y" is counted by the given counter (2 words); ttft 100 ms. */
  private static RequestRecord withoutUsage() {
    return RequestRecord.builder("r").startNanos(0).ttftNanos(100_000_000)
        .latencyNanos(100_000_000).endNanos(101_000_000).chunkMicros(new int[] {100_000})
        .promptTokens(11).httpStatus(200).success(true).generatedText("x y").build();
  }

  private static RequestRecord failedOne() {
    return RequestRecord.builder("r").startNanos(0).endNanos(5_000_000).promptTokens(13)
        .httpStatus(500).error("HTTP 500").build();
  }

  private static int words(String text) {
    return text.isBlank() ? 0 : text.strip().split("\\s+").length;
  }

  /** The plugin's log lines while {@code body} runs. */
  private static <T> List<ILoggingEvent> logged(Supplier<T> body) {
    Logger plugin = (Logger) LoggerFactory.getLogger("dev.gatlingllm");
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    plugin.addAppender(log);
    try {
      body.get();
    } finally {
      plugin.detachAppender(log);
    }
    return List.copyOf(log.list);
  }

  @Test
  void recordsBecomeTheResultsCountersAndHistogramsWithTheRunsLabels() throws Exception {
    try (OtlpReceiver receiver = new OtlpReceiver()) {
      OtlpSettings settings = OtlpSettings.resolve(receiver.baseUrl(), Duration.ofMinutes(1),
          Map.of("OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Bearer%20" + SECRET
              + ",x-tenant=acme")::get);
      List<ILoggingEvent> log = logged(() -> {
        LiveFigures live = LiveFigures.start(settings, LABELS, OtlpFiguresTest::words);
        for (int i = 0; i < 4; i++) {
          live.sent();
        }
        live.ended();
        live.ended();
        live.ended();
        live.finished(withUsage());
        live.finished(withoutUsage());
        live.finished(failedOne());
        live.close("good");
        return null;
      });

      assertFalse(receiver.exports().isEmpty(), "the last export happens at close");
      assertEquals(4, number(receiver, "requests.started"));
      assertEquals(2, number(receiver, "requests.completed"));
      assertEquals(1, number(receiver, "requests.failed"));
      assertEquals(1, number(receiver, "requests.in_flight"), "4 sent, 3 over");
      assertEquals(5 + 2, number(receiver, "tokens.output"), "usage, then the counter");
      assertEquals(7 + 11, number(receiver, "tokens.input"), "completed requests only");

      HistogramDataPoint ttft = receiver.lastHistogram("gatling_llm.ttft").orElseThrow();
      assertEquals(2, ttft.getCount());
      assertEquals(0.020 + 0.100, ttft.getSum(), 1e-9);
      assertEquals(OtlpFigures.TTFT_BUCKETS, ttft.getExplicitBoundsList());
      HistogramDataPoint itl = receiver.lastHistogram("gatling_llm.itl").orElseThrow();
      assertEquals(2, itl.getCount(), "two gaps in the first request, none in the second");
      assertEquals(0.010 + 0.015, itl.getSum(), 1e-9);
      HistogramDataPoint e2el = receiver.lastHistogram("gatling_llm.e2el").orElseThrow();
      assertEquals(2, e2el.getCount());
      assertEquals(0.045 + 0.100, e2el.getSum(), 1e-9);
      assertEquals("s", receiver.metrics("gatling_llm.ttft").get(0).getUnit());

      assertEquals("served-llm", OtlpReceiver.attribute(ttft.getAttributesList(), "model"));
      assertEquals("openai-chat", OtlpReceiver.attribute(ttft.getAttributesList(), "backend"));
      assertEquals("run-1", OtlpReceiver.attribute(ttft.getAttributesList(), "run_id"));
      NumberDataPoint grade = receiver.lastNumber("gatling_llm.selfcheck.grade").orElseThrow();
      assertEquals(1, grade.getAsInt());
      assertEquals("good", OtlpReceiver.attribute(grade.getAttributesList(), "grade"));

      OtlpReceiver.Export last = receiver.exports().get(receiver.exports().size() - 1);
      List<String> names = last.request().getResourceMetricsList().stream()
          .flatMap(rm -> rm.getScopeMetricsList().stream())
          .flatMap(sm -> sm.getMetricsList().stream()).map(m -> m.getName()).sorted().toList();
      assertEquals(List.of("gatling_llm.e2el", "gatling_llm.itl",
          "gatling_llm.output_throughput", "gatling_llm.requests.completed",
          "gatling_llm.requests.failed", "gatling_llm.requests.in_flight",
          "gatling_llm.requests.started", "gatling_llm.selfcheck.grade", "gatling_llm.tokens.input",
          "gatling_llm.tokens.output", "gatling_llm.ttft"), names,
          "the run's figures only, not the SDK's about itself (no loop lag: no self-check here)");
      assertEquals(List.of("Bearer " + SECRET), last.headers().get("Authorization"));
      assertEquals(List.of("acme"), last.headers().get("X-tenant"));
      assertTrue(log.stream().anyMatch(e -> e.getFormattedMessage().contains(
          "exporting over OTLP to " + receiver.baseUrl() + "/v1/metrics every 60.0 s with "
              + "headers [Authorization, x-tenant]")), log.toString());
      assertTrue(log.stream().noneMatch(e -> e.getFormattedMessage().contains(SECRET)
          || e.getFormattedMessage().contains("acme")), log.toString());
      assertTrue(log.stream().noneMatch(e -> e.getLevel() == Level.WARN), log.toString());
    }
  }

  @Test
  void anEndpointThatIsNotThereIsOneWarningAndTheCloseComesBack() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    // the SDK's own log lines, had they not been silenced
    List<LogRecord> sdk = new ArrayList<>();
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord r) {
        if (r.getLoggerName() != null && r.getLoggerName().startsWith("io.opentelemetry")) {
          sdk.add(r);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
    root.addHandler(handler);
    OtlpSettings settings = OtlpSettings.resolve("http://127.0.0.1:" + port,
        Duration.ofMillis(100), name -> null);
    List<ILoggingEvent> log;
    try {
      log = logged(() -> {
        LiveFigures live = LiveFigures.start(settings, LABELS, OtlpFiguresTest::words);
        live.sent();
        live.ended();
        live.finished(withUsage());
        try {
          Thread.sleep(1_000); // about ten exports, each refused
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        live.close(null);
        return null;
      });
    } finally {
      root.removeHandler(handler);
    }
    List<ILoggingEvent> warnings = log.stream().filter(e -> e.getLevel() == Level.WARN).toList();
    assertEquals(1, warnings.size(), log.toString());
    assertTrue(warnings.get(0).getFormattedMessage().startsWith("live figures: cannot export to "
        + "http://127.0.0.1:" + port + "/v1/metrics ("), warnings.get(0).getFormattedMessage());
    assertTrue(warnings.get(0).getFormattedMessage().endsWith("); the run goes on, later "
        + "failures are not said"), warnings.get(0).getFormattedMessage());
    assertEquals(List.of(), sdk.stream().map(LogRecord::getMessage).toList());
  }

  private static long number(OtlpReceiver receiver, String name) {
    NumberDataPoint p = receiver.lastNumber(OtlpFigures.PREFIX + name).orElseThrow(
        () -> new AssertionError(name + " was not exported"));
    return p.getAsInt();
  }
}
