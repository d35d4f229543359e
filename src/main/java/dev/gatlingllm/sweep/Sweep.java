package dev.gatlingllm.sweep;

import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.sweep.Pareto;
import dev.gatlingllm.internal.sweep.Plot;
import dev.gatlingllm.internal.sweep.PlotPareto;
import dev.gatlingllm.internal.sweep.RepeatedRuns;
import dev.gatlingllm.internal.sweep.RunStatistics;
import dev.gatlingllm.internal.sweep.ServeSlaSweep;
import dev.gatlingllm.internal.sweep.ServeSweep;
import dev.gatlingllm.internal.sweep.ServeWorkloadSweep;
import dev.gatlingllm.internal.sweep.StartupSweep;
import dev.gatlingllm.internal.sweep.SweepCommand;
import dev.gatlingllm.internal.tool.Tool;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code vllm bench sweep} on Gatling runs of the drop-in ({@code dev.gatlingllm.cli.BenchServe}):
 * parameter grids, the SLA search, the even load scan, and their plots.
 *
 * <pre>
 * ./mvnw -B -q test-compile exec:java -Dexec.mainClass=dev.gatlingllm.sweep.Sweep \
 *   -Dexec.args="serve --bench-args '--base-url http://127.0.0.1:8000 --model m' \
 *                --bench-params '[{\"max_concurrency\": 4}, {\"max_concurrency\": 8}]'"
 * </pre>
 *
 * <p>Sub-commands ({@link SweepCommand}, also {@code gatling-llm bench sweep ...}): {@code serve},
 * {@code serve_workload} (or {@code workload}), {@code serve_sla}, {@code startup}, {@code repeat},
 * {@code plot}, {@code plot_pareto}; {@code --help} after
 * one lists its flags. The static methods are the same as a Java API.
 */
public final class Sweep {

  /** Exit status of a sweep that ran but had failed combinations. */
  public static final int FAILED_STATUS = 1;
  /** Exit status of a command line that was refused. */
  public static final int USAGE_STATUS = 2;

  private Sweep() {}

  // ------------------------------------------------------------------ Java API

  /** The grid: every server × benchmark combination, {@code numRuns} times each. */
  public static SweepOutcome serve(SweepConfig config) {
    return ServeSweep.run(config);
  }

  /**
   * One benchmark {@code numRuns} times (fresh arrivals per run unless {@code --seed} is in
   * the flags): each run's files in {@code <output>/<timestamp>/run=N/}, the statistics of
   * its headline figures in {@value RunStatistics#FILE_NAME} beside them, printed as a table.
   */
  public static SweepOutcome repeat(SweepConfig config) {
    return RepeatedRuns.run(config);
  }

  /** The SLA search for each combination and each set of constraints. */
  public static SweepOutcome serveSla(SweepConfig config, List<Map<String, SlaCriterion>> sla,
      SlaVariable variable) {
    return ServeSlaSweep.run(config, sla, variable);
  }

  /**
   * Start-up times of the server command ({@code serveCmd}) for every server combination ×
   * {@code startupParams} combination, {@code numRuns} runs each (vLLM's {@code startup}):
   * see {@link StartupSweep}.
   *
   * @param startupParams combinations whose {@code num_iters_cold}, {@code num_iters_warmup}
   *                      and {@code num_iters_warm} set the counts of a run, and whose other
   *                      keys are server flags
   * @param cold          cold start-ups per run where a combination does not say (vLLM: 3)
   * @param warmup        unmeasured start-ups between the cold and the warm ones (vLLM: 1)
   * @param warm          warm start-ups per run (vLLM: 3)
   * @param baseUrl       where the server answers {@code /health}; null: the command's
   *                      {@code --host}/{@code --port} (127.0.0.1:8000 when not given)
   */
  public static SweepOutcome startup(SweepConfig config, List<Map<String, Object>> startupParams,
      int cold, int warmup, int warm, String baseUrl) {
    return new StartupSweep(config, startupParams,
        new StartupSweep.Iterations(cold, warmup, warm), baseUrl).run();
  }

  /** The even load scan for each combination. */
  public static SweepOutcome workload(SweepConfig config, SlaVariable variable, int iters) {
    return ServeWorkloadSweep.run(config, variable, iters);
  }

  /**
   * Plots the runs under {@code folder}: {@code plots.html} and one image file per figure
   * and format, in {@code figDir}.
   *
   * @return the files written
   */
  public static List<Path> plot(Path folder, PlotSpec spec, Path figDir, String formats) {
    return plot(folder, spec, figDir, formats, null);
  }

  /**
   * As {@link #plot(Path, PlotSpec, Path, String)}, the image files named {@code figName}
   * ({@code figName-<fig-by values>} per figure) when it is given.
   */
  public static List<Path> plot(Path folder, PlotSpec spec, Path figDir, String formats,
      String figName) {
    return Plot.write(folder, spec, figDir, formats, figName);
  }

  /** The Pareto chart of the runs under {@code folder}: {@code pareto.html} and images. */
  public static List<Path> plotPareto(Path folder, String userCountVar, String gpuCountVar,
      List<String> labelBy, Path figDir, String formats) {
    return plotPareto(folder, userCountVar, gpuCountVar, labelBy, figDir, formats, false);
  }

  /**
   * As {@link #plotPareto(Path, String, String, List, Path, String)}; with {@code perJoule}
   * ({@code plot_pareto --per-joule}) the second axis is the GPUs' output tokens per joule
   * ({@code gpu_energy.output_tokens_per_joule} of runs given {@code --gpu-metrics-url})
   * instead of tokens/s per GPU, and runs without it are left out.
   */
  public static List<Path> plotPareto(Path folder, String userCountVar, String gpuCountVar,
      List<String> labelBy, Path figDir, String formats, boolean perJoule) {
    return PlotPareto.write(folder, userCountVar, gpuCountVar, labelBy, figDir, formats,
        perJoule);
  }

  // ------------------------------------------------------------------ command line

  public static void main(String[] args) {
    int status = run(args, System.out, System.err);
    if (status != 0) {
      System.exit(status);
    }
  }

  /** The command line ({@link SweepCommand}); returns the exit status instead of exiting. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return Tool.configure(SweepCommand.commandLine(out), out, err)
        .setExecutionExceptionHandler(SweepCommand.FAILED)
        .execute(words(args));
  }

  /** exec:java hands {@code -Dexec.args} over split on blanks only: quotes are undone here. */
  private static String[] words(String[] args) {
    if (args.length == 1 && args[0].contains(" ")) {
      return CommandLine.split(args[0]).toArray(String[]::new);
    }
    return args;
  }
}
