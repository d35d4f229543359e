package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gatlingllm.internal.report.CompareTable.Direction;
import dev.gatlingllm.internal.report.CompareTable.Row;
import dev.gatlingllm.internal.report.CompareTable.Verdict;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompareTableTest {

  private static Map<String, Object> result(Object... pairs) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], pairs[i + 1]);
    }
    return m;
  }

  private static final Map<String, Object> A = result("completed", 100, "failed", 0,
      "duration", 10.0, "total_input_tokens", 1000, "request_throughput", 10.0,
      "request_goodput", null, "output_throughput", 200.0, "max_concurrent_requests", 8,
      "mean_ttft_ms", 100.0, "p99_itl_ms", 20.0, "median_itl_ms", 7.994);
  private static final Map<String, Object> B = result("completed", 98, "failed", 2,
      "duration", 12.5, "total_input_tokens", 1000, "request_throughput", 7.84,
      "request_goodput", null, "output_throughput", 250.0, "max_concurrent_requests", 10,
      "mean_ttft_ms", 80.0, "p99_itl_ms", 20.0, "median_itl_ms", 7.99);

  private static Map<String, Row> rows() {
    Map<String, Row> rows = new HashMap<>();
    CompareTable.of(List.of(A, B)).rows().forEach(r -> rows.put(r.key(), r));
    return rows;
  }

  @Test
  void eachFigureIsJudgedByItsDirection() {
    Map<String, Row> r = rows();
    // latencies: lower is better
    assertEquals(Verdict.BETTER, r.get("mean_ttft_ms").verdict(1));
    assertEquals(Verdict.SAME, r.get("p99_itl_ms").verdict(1));
    // throughputs: higher is better
    assertEquals(Verdict.WORSE, r.get("request_throughput").verdict(1));
    assertEquals(Verdict.BETTER, r.get("output_throughput").verdict(1));
    // fewer completed, more failed, longer: worse
    assertEquals(Verdict.WORSE, r.get("completed").verdict(1));
    assertEquals(Verdict.WORSE, r.get("failed").verdict(1));
    assertEquals(Verdict.WORSE, r.get("duration").verdict(1));
    // facts of the workload
    assertEquals(Verdict.NEUTRAL, r.get("total_input_tokens").verdict(1));
    assertEquals(Verdict.NEUTRAL, r.get("max_concurrent_requests").verdict(1));
    // null in both: nothing to judge
    assertEquals(Verdict.MISSING, r.get("request_goodput").verdict(1));
  }

  @Test
  void directionsOfKeysNotInTheFixture() {
    assertEquals(Direction.LOWER_IS_BETTER, CompareTable.direction("p99.9_e2el_ms"));
    assertEquals(Direction.LOWER_IS_BETTER, CompareTable.direction("std_tpot_ms"));
    assertEquals(Direction.HIGHER_IS_BETTER, CompareTable.direction("request_goodput"));
    assertEquals(Direction.HIGHER_IS_BETTER, CompareTable.direction("max_output_tokens_per_s"));
    assertEquals(Direction.NEUTRAL, CompareTable.direction("total_output_tokens"));
  }

  @Test
  void deltasAndPercentagesAgainstTheFirstRun() {
    Map<String, Row> r = rows();
    // 7.84 - 10 = -2.16, -21.6 %
    assertEquals(-2.16, r.get("request_throughput").delta(1), 1e-12);
    assertEquals(-21.6, r.get("request_throughput").percent(1), 1e-9);
    // 80 - 100 = -20, -20 %
    assertEquals(-20.0, r.get("mean_ttft_ms").delta(1), 0);
    assertEquals(-20.0, r.get("mean_ttft_ms").percent(1), 1e-12);
    // 0 -> 2: a delta, no percentage of 0
    assertEquals(2.0, r.get("failed").delta(1), 0);
    assertNull(r.get("failed").percent(1));
    assertNull(r.get("request_goodput").delta(1));
  }

  @Test
  void rowsFollowVllmsSummaryThenTheLatencyKeys() {
    List<String> keys = CompareTable.of(List.of(A, B)).rows().stream().map(Row::key).toList();
    assertEquals(List.of("completed", "failed", "duration", "total_input_tokens",
        "request_throughput", "request_goodput", "output_throughput", "max_concurrent_requests",
        "mean_ttft_ms", "p99_itl_ms", "median_itl_ms"), keys);
  }

  @Test
  void consoleLinesReadAsTheFiguresAreJudged() {
    List<String> lines = CompareTable.of(List.of(A, B)).console().lines().toList();
    assertEquals(List.of("Metric", "A", "B", "Delta", "%"),
        Arrays.asList(lines.get(0).trim().split("\\s+")));
    assertEquals(List.of("Mean", "TTFT", "(ms)", "100", "80", "-20", "-20.0%", "better"),
        words(lines, "Mean TTFT"));
    assertEquals(List.of("Request", "throughput", "(req/s)", "10", "7.84", "-2.16", "-21.6%",
        "worse"), words(lines, "Request throughput"));
    assertEquals(List.of("Failed", "requests", "0", "2", "+2", "-", "worse"),
        words(lines, "Failed requests"));
    assertEquals(List.of("Total", "input", "tokens", "1000", "1000", "0", "+0.0%"),
        words(lines, "Total input tokens"));
    assertEquals(List.of("Request", "goodput", "(req/s)", "-", "-", "-", "-"),
        words(lines, "Request goodput"));
    // 7.99 - 7.994 = -0.004: two significant digits, not "-0.00"; -0.004 / 7.994 = -0.05 %,
    // within noise: the same, not better
    assertEquals(List.of("Median", "ITL", "(ms)", "7.99", "7.99", "-0.0040", "-0.1%", "same"),
        words(lines, "Median ITL"));
  }

  /**
   * A difference under 1 % of the baseline, or for a mean under two standard errors of the
   * difference ({@code std / sqrt(completed)} of each run), is "same": the -0.0041 ms of a
   * mean TPOT of 9.92 ms was called "better".
   */
  @Test
  void differencesWithinNoiseAreTheSame() {
    Map<String, Object> a = result("completed", 100, "mean_tpot_ms", 9.9234, "std_tpot_ms",
        0.9, "mean_ttft_ms", 100.0, "std_ttft_ms", 50.0, "p99_ttft_ms", 200.0,
        "request_throughput", 18.62);
    Map<String, Object> b = result("completed", 100, "mean_tpot_ms", 9.9193, "std_tpot_ms",
        0.9, "mean_ttft_ms", 92.0, "std_ttft_ms", 50.0, "p99_ttft_ms", 197.0,
        "request_throughput", 18.0);
    Map<String, Row> r = new HashMap<>();
    CompareTable.of(List.of(a, b)).rows().forEach(row -> r.put(row.key(), row));
    assertEquals(Verdict.SAME, r.get("mean_tpot_ms").verdict(1));
    // -8 ms, but the means' standard errors are 5 ms each: 2 x sqrt(50) = 14.1 ms of noise
    assertEquals(2 * Math.sqrt(50), r.get("mean_ttft_ms").noise(1), 1e-9);
    assertEquals(Verdict.SAME, r.get("mean_ttft_ms").verdict(1));
    // -3 ms of 200 is 1.5 %, but a p99 of 100 requests with a spread of 50 ms has a
    // standard error of 3.7 x 5 ms: same
    assertEquals(Verdict.SAME, r.get("p99_ttft_ms").verdict(1));
    assertEquals(2 * Math.sqrt(2) * 3.73 * 5, r.get("p99_ttft_ms").noise(1), 0.2);
    assertEquals(Verdict.WORSE, r.get("request_throughput").verdict(1));
    // the same -8 ms with a tenth of the spread is past the noise
    a.put("std_ttft_ms", 5.0);
    b.put("std_ttft_ms", 5.0);
    CompareTable.of(List.of(a, b)).rows().forEach(row -> r.put(row.key(), row));
    assertEquals(Verdict.BETTER, r.get("mean_ttft_ms").verdict(1));
    List<String> lines = CompareTable.of(List.of(a, b)).console().lines().toList();
    assertEquals("same", words(lines, "Mean TPOT").get(words(lines, "Mean TPOT").size() - 1));
  }

  private static List<String> words(List<String> lines, String label) {
    String line = lines.stream().filter(l -> l.startsWith(label)).findFirst().orElseThrow();
    return Arrays.asList(line.trim().split("\\s+"));
  }
}
