package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.metrics.RequestRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The probes' figures, worked out by hand, and their section of the summary. */
class ProbeReportTest {

  private static final long MS = 1_000_000;

  private static RequestRecord probe(long ttftMs, long e2elMs) {
    return RequestRecord.builder("probe").startNanos(0).ttftNanos(ttftMs * MS)
        .latencyNanos(e2elMs * MS).chunkMicros(new int[] {(int) ttftMs * 1_000})
        .outputTokens(1).httpStatus(200).success(true).build();
  }

  /**
   * Three successful probes (TTFT 10, 20, 60 ms; E2EL 12, 22, 62 ms) and a failed one.
   * TTFT: mean 30, median 20, std sqrt((20² + 10² + 30²) / 3) = sqrt(466.67) = 21.6025,
   * p50 20, p99 20 + 0.98 · 40 = 59.2. E2EL: each 2 ms more.
   */
  private static Map<String, Object> json() {
    return ProbeReport.json(2.0, 5, 1, List.of(probe(10, 12), probe(20, 22), probe(60, 62),
        RequestRecord.builder("probe").startNanos(0).httpStatus(500).error("HTTP 500").build()),
        new double[] {50, 99});
  }

  @Test
  void figuresOfTheSuccessfulProbes() {
    Map<String, Object> p = json();
    assertEquals(List.of("request_rate", "sent", "completed", "failed", "unfinished",
        "mean_ttft_ms", "median_ttft_ms", "std_ttft_ms", "p50_ttft_ms", "p99_ttft_ms",
        "mean_e2el_ms", "median_e2el_ms", "std_e2el_ms", "p50_e2el_ms", "p99_e2el_ms"),
        List.copyOf(p.keySet()));
    assertEquals(2.0, p.get("request_rate"));
    assertEquals(5, p.get("sent"));
    assertEquals(3, p.get("completed"));
    assertEquals(1, p.get("failed"));
    assertEquals(1, p.get("unfinished"));
    assertEquals(30.0, (double) p.get("mean_ttft_ms"), 1e-9);
    assertEquals(20.0, (double) p.get("median_ttft_ms"), 1e-9);
    assertEquals(21.6025, (double) p.get("std_ttft_ms"), 1e-4);
    assertEquals(59.2, (double) p.get("p99_ttft_ms"), 1e-9);
    assertEquals(32.0, (double) p.get("mean_e2el_ms"), 1e-9);
    assertEquals(61.2, (double) p.get("p99_e2el_ms"), 1e-9);
  }

  @Test
  void theSummarySectionReadsTheObjectAsRecoverWouldFindIt() throws Exception {
    ObjectMapper json = new ObjectMapper();
    // the same object after the record log's JSON round trip (numbers read back as JSON's)
    Object read = json.readValue(json.writeValueAsString(json()), Map.class);
    String expected = "================= Probe Requests =================\n"
        + line("Probe request rate (RPS):", "2.00") + line("Probes sent:", "5")
        + line("Successful probes:", "3") + line("Failed probes:", "1")
        + line("Unfinished probes (left out):", "1")
        + "------------Probe Time to First Token-------------\n"
        + line("Mean TTFT (ms):", "30.00") + line("Median TTFT (ms):", "20.00")
        + line("P50 TTFT (ms):", "20.00") + line("P99 TTFT (ms):", "59.20")
        + "-------------Probe End-to-end Latency-------------\n"
        + line("Mean E2EL (ms):", "32.00") + line("Median E2EL (ms):", "22.00")
        + line("P50 E2EL (ms):", "22.00") + line("P99 E2EL (ms):", "61.20")
        + "=".repeat(50) + "\n";
    assertEquals(expected, ProbeReport.console(read));
    assertEquals("", ProbeReport.console(null));
  }

  /** vLLM's {@code "{:<40} {:<10}"} line. */
  private static String line(String label, String value) {
    return String.format("%-40s %-10s", label, value) + "\n";
  }
}
