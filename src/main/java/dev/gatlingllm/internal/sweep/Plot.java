package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.AxisScale;
import dev.gatlingllm.sweep.PlotSpec;
import dev.gatlingllm.sweep.Sweep;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * vLLM's {@code plot}: any result key against any other from a sweep folder's runs, split into
 * figures, rows, columns and curves ({@link PlotSpec}, {@link Figures}), written as
 * {@code plots.html} and one image file per figure and format ({@link ChartImages}).
 */
public final class Plot {

  private Plot() {}

  /** The files written: each figure's images, then {@code plots.html}. */
  public static List<Path> write(Path folder, PlotSpec spec, Path figDir, String formats,
      String figName) {
    List<ChartImages.Format> fs = ChartImages.Format.parse(formats);
    List<Map<String, Object>> records = SweepData.read(folder);
    List<Figures.Figure> figures = Figures.build(records, spec);
    if (figName != null) {
      figures = Figures.named(figures, figName);
    }
    if (figures.stream().allMatch(f -> f.pointCount() == 0)) {
      throw new IllegalArgumentException("plot: no run under " + folder + " has numbers for both "
          + spec.varX() + " and " + spec.varY() + " (after --filter-by)");
    }
    List<Path> files = new ArrayList<>();
    for (Figures.Figure f : figures) {
      files.addAll(ChartImages.write(f, figDir, fs, SweepPages.notes(f, records)::get));
    }
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("kind", "plot");
    data.put("figures", SweepPages.figures(figures, records));
    files.add(SweepPages.write(figDir.resolve("plots.html"), "Sweep plots: " + folder, data));
    return files;
  }

  @Command(name = "plot", usageHelpWidth = 100,
      description = "curves of any result keys from a sweep folder")
  static final class SubCommand extends SweepCommand.PlotStep {

    @Option(names = "--var-x", paramLabel = "K", defaultValue = "request_throughput",
        description = "x axis (default ${DEFAULT-VALUE})")
    String varX;

    @Option(names = "--var-y", paramLabel = "K", defaultValue = "p99_e2el_ms",
        description = "y axis (default ${DEFAULT-VALUE})")
    String varY;

    @Option(names = "--fig-by", paramLabel = "K,...", description = "one figure per value")
    String figBy;

    @Option(names = "--row-by", paramLabel = "K,...", description = "one row per value")
    String rowBy;

    @Option(names = "--col-by", paramLabel = "K,...", description = "one column per value")
    String colBy;

    @Option(names = "--curve-by", paramLabel = "K,...", description = "one curve per value")
    String curveBy;

    @Option(names = "--filter-by", paramLabel = "k<=v,...",
        description = "keep runs (== != <= >= < >)")
    String filterBy;

    @Option(names = "--bin-by", paramLabel = "k%w,...",
        description = "round values down to multiples of w")
    String binBy;

    @Option(names = "--fig-name", paramLabel = "NAME", description = "image file name (one "
        + "figure) or prefix, NAME-<fig-by values> (default: <var-y>-vs-<var-x>, FIGURE-...)")
    String figName;

    @Option(names = "--scale-x", paramLabel = "SCALE", description = "x scale: linear "
        + "(default), log, symlog, logit, asinh or sqrt")
    String scaleX;

    @Option(names = "--scale-y", paramLabel = "SCALE", description = "y scale, as --scale-x")
    String scaleY;

    @Override
    public Integer call() {
      PlotSpec spec = PlotSpec.defaults()
          .withAxes(varX, varY)
          .withSplits(PlotSpec.keys(figBy), PlotSpec.keys(rowBy), PlotSpec.keys(colBy),
              PlotSpec.keys(curveBy))
          .withFilters(PlotSpec.Filter.parseAll(filterBy), PlotSpec.Bin.parseAll(binBy))
          .withScales(AxisScale.parse("--scale-x", scaleX), AxisScale.parse("--scale-y", scaleY));
      Path dir = plot.dir();
      if (plot.dryRun) {
        List<Figures.Figure> figures = Figures.build(SweepData.read(plot.folder), spec);
        for (Figures.Figure f : figName == null ? figures : Figures.named(figures, figName)) {
          out().println("[FIGURE] " + f.name() + ": " + f.rows().size() + " row(s) × "
              + f.cols().size() + " column(s), " + f.pointCount() + " point(s) -> "
              + dir.resolve(f.name()) + ".{" + plot.format + "}");
        }
        return 0;
      }
      return wrote(Sweep.plot(plot.folder, spec, dir, plot.format, figName));
    }
  }
}
