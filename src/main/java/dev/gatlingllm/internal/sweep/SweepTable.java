package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.internal.metrics.PyFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The table a sweep prints when it ends: one row per point with the mean of its runs'
 * headline figures and the flags of its runs, then each flagged run with the reason, so that
 * a point whose client was starved is not read as a server regression. {@code vllm-bench}'s
 * {@code --sweep-summary-percentiles} adds a TTFT and a TPOT column per percentile.
 */
final class SweepTable {

  private static final List<String> KEYS = List.of("request_throughput", "output_throughput",
      "mean_ttft_ms", "p99_ttft_ms", "p99_tpot_ms", "p99_e2el_ms");
  private static final List<String> HEADERS = List.of("req/s", "out tok/s", "mean TTFT",
      "P99 TTFT", "P99 TPOT", "P99 E2EL");

  private SweepTable() {}

  static String consoleText(List<Map<String, Object>> records, List<String> failures) {
    return consoleText(records, failures, List.of());
  }

  /**
   * The table with a {@code P<p> TTFT} and a {@code P<p> TPOT} column for each of
   * {@code percentiles} but 99, whose columns are there already (as {@code vllm-bench} skips
   * its fixed P50 and P90).
   */
  static String consoleText(List<Map<String, Object>> records, List<String> failures,
      List<Double> percentiles) {
    List<String> keys = new ArrayList<>(KEYS);
    List<String> headers = new ArrayList<>(HEADERS);
    for (double p : percentiles) {
      if (p == 99) {
        continue;
      }
      String word = PyFormat.percentileWord(p);
      keys.addAll(List.of("p" + word + "_ttft_ms", "p" + word + "_tpot_ms"));
      headers.addAll(List.of("P" + word + " TTFT", "P" + word + " TPOT"));
    }
    if (records.stream().anyMatch(r -> Double.isFinite(SweepData.number(r,
        RunStatistics.ENERGY_KEY)))) {
      // runs scraped with --gpu-metrics-url: their energy efficiency beside their throughput
      keys.add(RunStatistics.ENERGY_KEY);
      headers.add("out tok/J");
    }
    Map<String, List<Map<String, Object>>> byPoint = new LinkedHashMap<>();
    for (Map<String, Object> r : records) {
      byPoint.computeIfAbsent(String.valueOf(r.getOrDefault(SweepData.POINT_KEY, "")),
          k -> new ArrayList<>()).add(r);
    }
    int width = Math.max(5, byPoint.keySet().stream().mapToInt(String::length).max().orElse(5));
    StringBuilder s = new StringBuilder();
    String title = " Sweep: mean of each point's runs (ms for latencies) ";
    s.append(center(title, width + 4 + 6 + keys.size() * 11 + 7)).append('\n');
    s.append(String.format(Locale.ROOT, "%-" + width + "s %5s", "point", "runs"));
    headers.forEach(h -> s.append(String.format(Locale.ROOT, " %10s", h)));
    s.append("  flags\n");
    List<String> flagged = new ArrayList<>();
    byPoint.forEach((point, runs) -> {
      s.append(String.format(Locale.ROOT, "%-" + width + "s %5d", point, runs.size()));
      for (String k : keys) {
        double[] v = runs.stream().mapToDouble(r -> SweepData.number(r, k))
            .filter(Double::isFinite).toArray();
        s.append(String.format(Locale.ROOT, " %10s", v.length == 0 ? "-"
            : String.format(Locale.ROOT, "%.2f", Stats.of(v, Figures.CONFIDENCE).mean())));
      }
      Set<String> names = new LinkedHashSet<>();
      for (Map<String, Object> r : runs) {
        List<String> flags = RunFlags.in(r);
        names.addAll(RunFlags.names(flags));
        flags.forEach(f -> flagged.add(r.getOrDefault(SweepData.RUN_KEY, point) + ": " + f));
      }
      s.append("  ").append(names.isEmpty() ? "ok" : "FLAGGED " + String.join(", ", names))
          .append('\n');
    });
    if (!flagged.isEmpty()) {
      s.append("Flagged runs (their figures may not be the server's):\n");
      flagged.forEach(f -> s.append("  - ").append(f).append('\n'));
    }
    failures.forEach(f -> s.append("FAILED: ").append(f.lines().findFirst().orElse(f))
        .append('\n'));
    return s.toString();
  }

  private static String center(String title, int width) {
    int left = Math.max(0, (width - title.length()) / 2);
    int right = Math.max(0, width - left - title.length());
    return "=".repeat(left) + title + "=".repeat(right);
  }
}
