package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.PlotSpec;
import dev.gatlingllm.sweep.Sweep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * vLLM's {@code plot_pareto}: output tokens/s per user against output tokens/s per GPU, with
 * the Pareto frontier ({@link Pareto}), as {@code pareto.html} and image files.
 */
public final class PlotPareto {

  private PlotPareto() {}

  /**
   * The files written: the chart's images, then {@code pareto.html}; against tokens per joule
   * with {@code perJoule}.
   */
  public static List<Path> write(Path folder, String userCountVar, String gpuCountVar,
      List<String> labelBy, Path figDir, String formats, boolean perJoule) {
    List<ChartImages.Format> fs = ChartImages.Format.parse(formats);
    Pareto.Result result = Pareto.compute(SweepData.read(folder), userCountVar, gpuCountVar,
        labelBy, perJoule);
    List<Path> files = new ArrayList<>(ChartImages.writePareto(result, figDir, fs));
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("kind", "pareto");
    data.put("pareto", SweepPages.pareto(result));
    files.add(SweepPages.write(figDir.resolve("pareto.html"), "Pareto: " + folder, data));
    return files;
  }

  @Command(name = "plot_pareto", usageHelpWidth = 100,
      description = "tokens/s per user vs tokens/s per GPU, with the Pareto frontier")
  static final class SubCommand extends SweepCommand.PlotStep {

    @Option(names = "--user-count-var", paramLabel = "K", defaultValue = "max_concurrency",
        description = "default ${DEFAULT-VALUE} (else max_concurrent_requests)")
    String userCountVar;

    @Option(names = "--gpu-count-var", paramLabel = "K",
        description = "default num_gpus | gpu_count | tp x pp x dp")
    String gpuCountVar;

    @Option(names = "--label-by", paramLabel = "K,...",
        defaultValue = "max_concurrency,gpu_count", description = "default ${DEFAULT-VALUE}")
    String labelBy;

    @Option(names = "--per-joule", description = "y: output tokens per joule "
        + "(gpu_energy.output_tokens_per_joule, runs with --gpu-metrics-url) instead of per GPU")
    boolean perJoule;

    @Override
    public Integer call() {
      if (!Files.isDirectory(plot.folder)) {
        throw new IllegalArgumentException("No parameter sweep results under " + plot.folder);
      }
      Path dir = plot.dir();
      List<String> labels = PlotSpec.keys(labelBy);
      if (plot.dryRun) {
        Pareto.Result r = Pareto.compute(SweepData.read(plot.folder), userCountVar, gpuCountVar,
            labels, perJoule);
        out().println("[FIGURE] pareto: " + r.points().size() + " point(s), "
            + r.frontier().size() + " on the frontier -> " + dir.resolve("pareto"));
        return 0;
      }
      return wrote(Sweep.plotPareto(plot.folder, userCountVar, gpuCountVar, labels, dir,
          plot.format, perJoule));
    }
  }
}
