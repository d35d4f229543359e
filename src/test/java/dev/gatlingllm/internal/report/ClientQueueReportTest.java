package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.metrics.MetricFixtures;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.report.ReportOutcome;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --percentile-metrics client_queue_time,e2el_including_client_queue}: vLLM's keys in
 * the result JSON and its lines in the summary, only when selected.
 */
class ClientQueueReportTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MS = 1_000_000;

  @TempDir
  Path dir;

  /** Two requests of 2 chunks: E2EL 40 and 60 ms, queued 0 and 30 ms. */
  private static List<RequestRecord> records() {
    return List.of(record(0, 40, 0), record(1, 60, 30));
  }

  private static RequestRecord record(int i, long latencyMs, long queueMs) {
    return RequestRecord.builder("gen").startNanos(i * 10 * MS).ttftNanos(20 * MS)
        .latencyNanos(latencyMs * MS).endNanos(i * 10 * MS + latencyMs * MS)
        .chunkMicros(new int[] {20_000, (int) latencyMs * 1_000}).promptTokens(5)
        .outputTokens(2).httpStatus(200).success(true).generatedText("a b")
        .clientQueueNanos(queueMs * MS).build();
  }

  private ReportOutcome report(String metrics) {
    ResultOptions opts = ResultOptions.builder().printSummary(false).percentileMetrics(metrics)
        .metricPercentiles("50,99").build();
    ReportOutcome out = RunReporter.report(Goldens.run("mixed"), RecordSource.of(records()),
        opts, dir, MetricFixtures.WORDS, OptionalLong.empty(), Goldens.CLOCK, System.out);
    assertTrue(out.ok(), out.error());
    return out;
  }

  @Test
  void selectedQueueMetricsAreWrittenUnderVllmsKeysAndPrinted() throws Exception {
    ReportOutcome out = report("e2el,client_queue_time,e2el_including_client_queue");
    JsonNode doc = JSON.readTree(out.resultFile().toFile());
    // queue 0 and 30 ms: mean 15, median 15, std 15, p99 0 + 0.99 · 30 = 29.7
    assertEquals(15.0, doc.get("mean_client_queue_time_ms").doubleValue(), 1e-9);
    assertEquals(15.0, doc.get("median_client_queue_time_ms").doubleValue(), 1e-9);
    assertEquals(15.0, doc.get("std_client_queue_time_ms").doubleValue(), 1e-9);
    assertEquals(29.7, doc.get("p99_client_queue_time_ms").doubleValue(), 1e-9);
    // E2EL + queue: 40 and 90 ms: mean 65, p50 65, p99 40 + 0.99 · 50 = 89.5
    assertEquals(65.0, doc.get("mean_e2el_including_client_queue_ms").doubleValue(), 1e-9);
    assertEquals(65.0, doc.get("p50_e2el_including_client_queue_ms").doubleValue(), 1e-9);
    assertEquals(89.5, doc.get("p99_e2el_including_client_queue_ms").doubleValue(), 1e-9);
    assertEquals(50.0, doc.get("mean_e2el_ms").doubleValue(), 1e-9);

    String summary = out.summary();
    assertTrue(summary.contains("----------------Client Queue Time-----------------\n"), summary);
    assertTrue(summary.contains(PyLine.of("Mean Client Queue Time (ms):", "15.00")), summary);
    assertTrue(summary.contains(PyLine.of("P99 E2EL incl. Client Queue (ms):", "89.50")),
        summary);
  }

  @Test
  void notSelectedNothingOfTheQueueIsWritten() throws Exception {
    ReportOutcome out = report("ttft,e2el");
    JsonNode doc = JSON.readTree(out.resultFile().toFile());
    doc.fieldNames().forEachRemaining(k -> assertFalse(k.contains("client_queue"), k));
    assertFalse(out.summary().contains("Client Queue"), out.summary());
    // what was selected is there, with the same two requests' figures as above (mean E2EL
    // 50 ms): a report that wrote nothing at all fails here, not only one that wrote too much
    assertEquals(50.0, doc.get("mean_e2el_ms").doubleValue(), 1e-9);
    assertTrue(doc.has("p99_ttft_ms"), "selected TTFT's percentiles are written");
    assertFalse(doc.has("p99_tpot_ms"), "TPOT was not selected");
    assertTrue(out.summary().contains("---------------Time to First Token----------------\n"),
        out.summary());
    assertTrue(out.summary().contains("----------------End-to-end Latency----------------\n"),
        out.summary());
  }

  /** vLLM's {@code "{:<40} {:<10}"} line. */
  private static final class PyLine {
    static String of(String label, String value) {
      return String.format("%-40s %-10s%n", label, value).replace(System.lineSeparator(), "\n");
    }
  }
}
