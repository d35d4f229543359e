package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.metrics.MetricsCalculator;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.UrlFigures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run's records split by the base URL they went to, each URL's figures worked out by hand
 * from four requests over a 2 s run: URL 0 had two answers, URL 1 one answer and one refusal.
 */
class UrlReportTest {

  private static final long MS = 1_000_000;
  private static final List<String> URLS = List.of("http://a:8000", "http://b:8000");

  /** A successful request: chunks at the given ms after its start, {@code out} tokens. */
  private static RequestRecord ok(int target, int prompt, int out, int... chunkMs) {
    int[] micros = new int[chunkMs.length];
    for (int i = 0; i < chunkMs.length; i++) {
      micros[i] = chunkMs[i] * 1_000;
    }
    long last = chunkMs[chunkMs.length - 1] * MS;
    return RequestRecord.builder("gen").startNanos(0).ttftNanos(chunkMs[0] * MS)
        .latencyNanos(last).endNanos(last).chunkMicros(micros).promptTokens(prompt)
        .outputTokens(out).httpStatus(200).success(true).target(target).build();
  }

  private static final List<RequestRecord> RECORDS = List.of(
      ok(0, 10, 3, 100, 120, 140),
      ok(1, 20, 4, 50, 60, 70, 80),
      ok(0, 10, 2, 200, 240),
      RequestRecord.builder("gen").startNanos(0).promptTokens(20)
          .error("connect failed: connection refused").target(1).build());

  private static List<UrlFigures> figures() {
    MetricsCalculator calc = MetricsCalculator.builder().build();
    return UrlFigures.of(calc, RecordSource.of(RECORDS), URLS, 2.0, 0);
  }

  @Test
  void eachUrlHasItsOwnRequestsFigures() {
    List<UrlFigures> urls = figures();
    BenchmarkMetrics a = urls.get(0).metrics();
    // URL 0: 2 answers in 2 s, 3 + 2 tokens; TTFT 100 and 200; ITL 20, 20, 40;
    // TPOT (140 - 100) / 2 = 20 and (240 - 200) / 1 = 40; E2EL 140 and 240
    assertEquals(2, a.completed());
    assertEquals(0, a.failed());
    assertEquals(1.0, a.requestThroughput(), 1e-12);
    assertEquals(2.5, a.outputThroughput(), 1e-12);
    assertEquals(150.0, a.ttft().mean(), 1e-9);
    assertEquals(199.0, a.ttft().percentile(99), 1e-9); // 100 + 0.99 · 100
    assertEquals(80.0 / 3, a.itl().mean(), 1e-9);
    assertEquals(39.6, a.itl().percentile(99), 1e-9); // 20 + 0.98 · 20
    assertEquals(30.0, a.tpot().mean(), 1e-9);
    assertEquals(190.0, a.e2el().mean(), 1e-9);
    assertEquals(null, urls.get(0).firstError());
    // URL 1: 1 answer and 1 failure; TTFT 50, ITL 10 three times, TPOT 30 / 3, E2EL 80
    BenchmarkMetrics b = urls.get(1).metrics();
    assertEquals(1, b.completed());
    assertEquals(1, b.failed());
    assertEquals(0.5, b.requestThroughput(), 1e-12);
    assertEquals(2.0, b.outputThroughput(), 1e-12);
    assertEquals(50.0, b.ttft().mean(), 1e-9);
    assertEquals(10.0, b.itl().mean(), 1e-9);
    assertEquals(10.0, b.tpot().mean(), 1e-9);
    assertEquals(80.0, b.e2el().median(), 1e-9);
    assertEquals("connect failed: connection refused", urls.get(1).firstError());
    // the parts add up to the whole run's figures
    BenchmarkMetrics all = MetricsCalculator.builder().build().compute(RECORDS, 2.0);
    assertEquals(all.completed(), a.completed() + b.completed());
    assertEquals(all.failed(), a.failed() + b.failed());
    assertEquals(all.outputThroughput(), a.outputThroughput() + b.outputThroughput(), 1e-12);
  }

  @Test
  void theJsonHasEachUrlInOrderWithTheRunsKeys() {
    List<Map<String, Object>> json = UrlReport.json(figures());
    assertEquals(2, json.size());
    Map<String, Object> a = json.get(0);
    assertEquals("http://a:8000", a.get("url"));
    assertEquals(2, a.get("completed"));
    assertEquals(0, a.get("failed"));
    assertFalse(a.containsKey("first_error"));
    assertEquals(1.0, a.get("request_throughput"));
    assertEquals(2.5, a.get("output_throughput"));
    assertEquals(150.0, (Double) a.get("mean_ttft_ms"), 1e-9);
    assertEquals(150.0, (Double) a.get("median_ttft_ms"), 1e-9);
    assertEquals(199.0, (Double) a.get("p99_ttft_ms"), 1e-9);
    assertTrue(a.containsKey("p99_itl_ms") && a.containsKey("p99_tpot_ms")
        && a.containsKey("p99_e2el_ms"), a.keySet().toString());
    Map<String, Object> b = json.get(1);
    assertEquals("connect failed: connection refused", b.get("first_error"));
    assertEquals(1, b.get("failed"));
  }

  @Test
  void theConsoleTableNamesEachUrlAndItsFirstError() {
    String text = UrlReport.console(figures());
    assertTrue(text.contains("[0] http://a:8000"), text);
    assertTrue(text.contains("[1] http://b:8000"), text);
    assertTrue(text.contains("Mean / P99 by URL (ms)"), text);
    // URL 0: 2 completed, 0 failed, 1.00 req/s, 2.50 tok/s; TTFT mean 150.0, p99 199.0
    assertTrue(text.contains("[0]   2           0           1.00        2.50"), text);
    assertTrue(text.contains("150.0 / 199.0"), text);
    assertTrue(text.contains("[1] first error: connect failed: connection refused"), text);
    assertEquals("", UrlReport.console(List.of()));
  }

  @Test
  void aRunAgainstOneServerHasNoUrls() {
    assertEquals(List.of(), UrlReport.urls(RunInfo.builder("m").build()));
    assertEquals(URLS, UrlReport.urls(RunInfo.builder("m").extra(UrlFigures.URLS_EXTRA, URLS)
        .build()));
  }
}
