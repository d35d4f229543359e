package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.PlotSpec;
import dev.gatlingllm.sweep.SlaVariable;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@value #FILE_NAME}: one page with the sweep's curves (mean ± 95 % CI per point), latency
 * against throughput first with its knee, every flagged run marked, the SLA answers, the spread
 * of repeated runs and links to every run's reports; the same curves as PNG files under
 * {@code plots/} for CI artifacts.
 */
final class SweepReport {

  static final String FILE_NAME = "sweep-report.html";
  /** The chart of the TTFT's parts: each part's mean, one curve per part. */
  static final String MEAN_TTFT_PART = "mean_ttft_part_ms";
  static final String TTFT_PART = "ttft_part";
  /** The chart of cancellations: the client's and the server's counts, one curve each. */
  static final String CANCELLED = "requests_cancelled";
  static final String COUNTED_BY = "counted_by";

  private SweepReport() {}

  /**
   * @param swept   the variable the sweep walks along (null: none); each curve follows it
   * @param curveBy the other keys the combinations vary: one curve per combination of them
   * @param spreads the statistics of each point run more than once, by point
   */
  static Path write(Path root, List<Map<String, Object>> records,
      List<SweepOutcome.SlaAnswer> answers, List<String> failures, String swept,
      List<String> curveBy, Map<String, RunStatistics> spreads, PrintStream out) {
    List<Figures.Figure> figures = new ArrayList<>();
    // the main view: what a load costs in latency for what it gives in throughput
    add(figures, root, records, "request_throughput", "p99_e2el_ms", swept, curveBy);
    add(figures, root, records, "request_throughput", "mean_ttft_ms", swept, curveBy);
    if (swept != null) {
      add(figures, root, records, swept, "request_throughput", swept, curveBy);
      add(figures, root, records, swept, "p99_ttft_ms", swept, curveBy);
      // where the TTFT went as the load grows: the client's network, the server, the stream
      Map<String, String> parts = new LinkedHashMap<>();
      PhaseSummary.TTFT_PARTS.forEach(part -> parts.put(part,
          PhaseSummary.KEY + ".mean_ttft_" + part + "_ms"));
      add(figures, root, SweepData.series(records, TTFT_PART, MEAN_TTFT_PART, parts), swept,
          MEAN_TTFT_PART, swept, with(curveBy, TTFT_PART));
      // users who leave: the client's cancels beside the aborts the server counted
      Map<String, String> cancels = new LinkedHashMap<>();
      cancels.put("client: cancelled", "cancelled");
      cancels.put("server: aborted", "cancellation.server_aborted");
      add(figures, root, SweepData.series(records, COUNTED_BY, CANCELLED, cancels), swept,
          CANCELLED, swept, with(curveBy, COUNTED_BY));
      // each replica's share of the load and its latency (--base-url given several times)
      add(figures, root, records, swept, SweepData.PER_URL + ".output_throughput", swept,
          curveBy);
      add(figures, root, records, swept, SweepData.PER_URL + ".p99_ttft_ms", swept, curveBy);
    }
    Set<String> points = new LinkedHashSet<>();
    records.forEach(r -> points.add(String.valueOf(r.get(SweepData.POINT_KEY))));
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("folder", root.toAbsolutePath().toString());
    summary.put("runs", records.size());
    summary.put("points", points.size());
    summary.put("variable", swept);
    summary.put("curves", curveBy);
    summary.put("flagged", records.stream().filter(r -> !RunFlags.in(r).isEmpty()).count());
    summary.put("failures", failures);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("kind", "sweep");
    data.put("summary", summary);
    data.put("answers", answers);
    data.put("figures", SweepPages.figures(figures, records));
    Map<String, Object> spreadJson = new LinkedHashMap<>();
    spreads.forEach((point, stats) -> spreadJson.put(point, stats.toJson()));
    data.put("spreads", spreadJson);
    data.put("runs", SweepPages.runs(root, records));
    Path file = SweepPages.write(root.resolve(FILE_NAME), "Sweep: " + root.getFileName(), data);
    out.println("Sweep report: " + file.toAbsolutePath().toUri());
    return file;
  }

  /** The figures of one view that has points, each written as PNG under {@code plots/}. */
  private static void add(List<Figures.Figure> figures, Path root,
      List<Map<String, Object>> records, String x, String y, String swept, List<String> curveBy) {
    PlotSpec spec = PlotSpec.defaults().withAxes(x, y)
        .withSplits(List.of(), List.of(), List.of(), curveBy);
    for (Figures.Figure f : Figures.build(records, spec, swept)) {
      if (f.pointCount() > 0) {
        figures.add(f);
        ChartImages.write(f, root.resolve("plots"), List.of(ChartImages.Format.PNG),
            SweepPages.notes(f, records)::get);
      }
    }
  }

  private static List<String> with(List<String> keys, String key) {
    List<String> out = new ArrayList<>(keys);
    out.add(key);
    return out;
  }

  /**
   * The variable the sweep walks along: the searched one of a search or scan; in a grid the
   * load (the concurrency, else the rate) when the combinations set it, else the last key
   * they set. The curves are drawn along it; null for a grid without parameters.
   */
  static String sweptKey(SweepConfig config, SlaVariable variable) {
    if (variable != null) {
      return variable.key();
    }
    List<String> keys = paramKeys(config);
    for (String load : List.of("max_concurrency", "request_rate")) {
      for (String k : keys) {
        if (k.replace('-', '_').equals(load)) {
          return k;
        }
      }
    }
    return keys.isEmpty() ? null : keys.get(keys.size() - 1);
  }

  /** The keys the combinations vary, but the swept one: one curve per combination of them. */
  static List<String> curveKeys(SweepConfig config, String swept) {
    List<String> keys = paramKeys(config);
    keys.removeIf(k -> swept != null && k.replace('-', '_').equals(swept.replace('-', '_')));
    return keys;
  }

  /** The keys the combinations set, in the order of the params files. */
  private static List<String> paramKeys(SweepConfig config) {
    List<String> keys = new ArrayList<>(Params.keys(config.serveParams()));
    Params.keys(config.benchParams()).forEach(k -> {
      if (!keys.contains(k)) {
        keys.add(k);
      }
    });
    keys.remove(Params.NAME_KEY);
    return keys;
  }
}
