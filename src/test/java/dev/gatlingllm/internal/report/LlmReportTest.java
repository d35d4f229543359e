package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.report.ReportOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LLM report of a recorded run: one offline file whose figures are the result JSON's. */
class LlmReportTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long ORIGIN = 1_000_000_000_000L;

  @TempDir
  Path dir;

  static ReportOutcome report(Path dir, RecordStore store, ResultOptions options) {
    return RunReporter.report(RunInfo.builder("org/model").backend("vllm").requestRate(20).build(),
        store, options.toBuilder().printSummary(false).resultFilename("result.json").build(), dir,
        null, ORIGIN);
  }

  static JsonNode embedded(Path html) throws IOException {
    String data = HtmlPage.data(Files.readString(html));
    assertNotNull(data, "the page embeds its data");
    return JSON.readTree(data);
  }

  @Test
  void theReportSitsBesideTheResultAndEmbedsExactlyItsFigures() throws IOException {
    ReportOutcome out = report(dir, SyntheticRun.store(300, 64, 40, 0.05, ORIGIN, 1),
        ResultOptions.builder().goodput("ttft:80 tpot:18").percentileMetrics("ttft,tpot,itl,e2el")
            .metricPercentiles("50,90,99").build());
    assertTrue(out.ok(), out.error());
    assertEquals(dir.resolve("llm-report.html"), out.htmlReport());
    JsonNode result = JSON.readTree(dir.resolve("result.json").toFile());
    JsonNode data = embedded(out.htmlReport());
    JsonNode headline = data.get("result");
    int compared = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = result.fields(); it.hasNext(); compared++) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode mine = headline.get(e.getKey());
      assertNotNull(mine, e.getKey());
      if (e.getValue().isNumber()) {
        assertEquals(e.getValue().doubleValue(), mine.doubleValue(), 0.0, e.getKey());
      } else {
        assertEquals(e.getValue(), mine, e.getKey());
      }
    }
    assertEquals(result.size(), headline.size(), "no figure of its own");
    assertTrue(compared > 25, "percentiles of four metrics and the throughputs: " + compared);

    JsonNode ot = data.get("overTime");
    assertEquals(result.get("max_output_tokens_per_s").asDouble(), max(ot.get("chunks")),
        "the over-time chart holds the buckets the peak came from");
    assertEquals(result.get("max_concurrent_requests").asDouble(), max(ot.get("running")));
    assertEquals(result.get("completed").asInt(), sum(ot.get("completed")));
    assertEquals(300, sum(ot.get("started")));

    JsonNode goodput = data.get("goodput");
    JsonNode all = goodput.get(goodput.size() - 1);
    assertEquals("all SLOs", all.get("slo").asText());
    assertEquals(result.get("request_goodput").asDouble() * result.get("duration").asDouble(),
        all.get("good").asDouble(), 1e-6, "the goodput table counts what request_goodput did");

    int failed = 0;
    for (JsonNode f : data.get("failures")) {
      failed += f.get("count").asInt();
    }
    assertEquals(result.get("failed").asInt(), failed);
    assertEquals(result.get("completed").asInt(), data.at("/hist/ttft/count").asInt());
    assertEquals(300, data.get("timeline").get("rows").size());
    assertEquals(1, data.at("/timeline/every").asInt());
  }

  /** A failed row is {@code [start, -1, duration]}, a cancelled one {@code [start, -2, ...]}. */
  @Test
  void theTimelineTellsACancelledRequestFromAFailedOne() throws IOException {
    RecordStore store = new RecordStore();
    store.add(RequestRecord.builder("gen").startNanos(ORIGIN).ttftNanos(10_000_000)
        .latencyNanos(30_000_000).endNanos(ORIGIN + 30_000_000).chunkMicros(new int[] {10_000,
            20_000, 30_000}).outputTokens(3).httpStatus(200).success(true).build());
    store.add(RequestRecord.builder("gen").startNanos(ORIGIN + 5_000_000)
        .endNanos(ORIGIN + 9_000_000).httpStatus(500).error("HTTP 500").build());
    store.add(RequestRecord.builder("gen").startNanos(ORIGIN + 6_000_000).ttftNanos(10_000_000)
        .endNanos(ORIGIN + 26_000_000).httpStatus(200).cancelled(true).build());
    ReportOutcome out = report(dir, store, ResultOptions.builder().build());
    JsonNode rows = embedded(out.htmlReport()).at("/timeline/rows");
    assertEquals(3, rows.size());
    assertEquals(-1, rows.get(1).get(1).asDouble(), "failed after 4 ms");
    assertEquals(4.0, rows.get(1).get(2).asDouble());
    assertEquals(-2, rows.get(2).get(1).asDouble(), "cancelled after 20 ms");
    assertEquals(20.0, rows.get(2).get(2).asDouble());
  }

  @Test
  void thePageLoadsNothingFromAnyHost() throws IOException {
    ReportOutcome out = report(dir, SyntheticRun.store(20, 8, 40, 0, ORIGIN, 2),
        ResultOptions.builder().build());
    String html = Files.readString(out.htmlReport());
    String markup = html.replaceAll("(?s)(<script[^>]*>).*?</script>", "$1</script>");
    assertEquals(5, markup.split("<script", -1).length - 1, "trap, data, charts, common, app: "
        + "inline");
    assertFalse(markup.matches("(?s).*<[a-z]+[^>]+(src|href)=.*"), "no element loads anything");
    assertTrue(html.contains("default-src 'none'"), "and the page's policy forbids it");
    assertTrue(html.contains("Licensed to the Apache Software Foundation"),
        "the charting library keeps its licence header");
  }

  @Test
  void aRunWhereEveryRequestFailedStillGetsAReport() throws IOException {
    ReportOutcome out = report(dir, SyntheticRun.store(40, 8, 40, 1.0, ORIGIN, 3),
        ResultOptions.builder().build());
    JsonNode data = embedded(out.htmlReport());
    assertEquals(0, data.at("/result/completed").asInt());
    assertEquals(40, data.at("/result/failed").asInt());
    assertEquals(0, data.at("/hist/ttft/count").asInt());
    assertEquals(2, data.get("failures").size(), "both reasons: " + data.get("failures"));
  }

  @Test
  void reportCanBeTurnedOffAndThresholdsAreChecked() {
    ReportOutcome out = report(dir, SyntheticRun.store(5, 4, 40, 0, ORIGIN, 4),
        ResultOptions.builder().htmlReport(false).build());
    assertNull(out.htmlReport());
    assertFalse(Files.exists(dir.resolve("llm-report.html")));
    assertThrowsIae(() -> ResultOptions.builder().timelineItlThresholds(50, 25));
    assertThrowsIae(() -> ResultOptions.builder().timelineItlThresholds());
  }

  private static void assertThrowsIae(Runnable r) {
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, r::run);
  }

  private static double max(JsonNode array) {
    double m = 0;
    for (JsonNode v : array) {
      m = Math.max(m, v.asDouble());
    }
    return m;
  }

  private static int sum(JsonNode array) {
    int s = 0;
    for (JsonNode v : array) {
      s += v.asInt();
    }
    return s;
  }
}
