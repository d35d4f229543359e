package dev.gatlingllm.sweep;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@value #FILE_NAME}: one page with the sweep's curves (mean ± 95 % CI per point), the SLA
 * answers and links to every run's reports; the same curves as PNG files under
 * {@code plots/} for CI artifacts.
 */
final class SweepReport {

  static final String FILE_NAME = "sweep-report.html";

  private SweepReport() {}

  static Path write(Path root, List<Map<String, Object>> records,
      List<SweepOutcome.SlaAnswer> answers, List<String> failures, SlaVariable variable,
      List<String> curveBy, PrintStream out) {
    List<Figures.Figure> figures = new ArrayList<>();
    List<String[]> axes = new ArrayList<>();
    axes.add(new String[] {"request_throughput", "p99_e2el_ms"});
    axes.add(new String[] {"request_throughput", "mean_ttft_ms"});
    if (variable != null) {
      axes.add(new String[] {variable.key(), "request_throughput"});
      axes.add(new String[] {variable.key(), "p99_ttft_ms"});
    }
    for (String[] a : axes) {
      PlotSpec spec = PlotSpec.defaults().withAxes(a[0], a[1])
          .withSplits(List.of(), List.of(), List.of(), curveBy);
      for (Figures.Figure f : Figures.build(records, spec)) {
        if (f.pointCount() > 0) {
          figures.add(f);
          ChartImages.write(f, root.resolve("plots"), List.of(ChartImages.Format.PNG));
        }
      }
    }
    Set<String> points = new LinkedHashSet<>();
    records.forEach(r -> points.add(String.valueOf(r.get(SweepData.POINT_KEY))));
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("folder", root.toAbsolutePath().toString());
    summary.put("runs", records.size());
    summary.put("points", points.size());
    summary.put("variable", variable == null ? null : variable.key());
    summary.put("failures", failures);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("kind", "sweep");
    data.put("summary", summary);
    data.put("answers", answers);
    data.put("figures", SweepPages.figures(figures));
    data.put("runs", SweepPages.runs(root, records));
    Path file = SweepPages.write(root.resolve(FILE_NAME), "Sweep: " + root.getFileName(), data);
    out.println("Sweep report: " + file.toAbsolutePath().toUri());
    return file;
  }
}
