package dev.gatlingllm.sweep;

import dev.gatlingllm.cli.CommandLine;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
 * <p>Sub-commands: {@code serve}, {@code serve_sla}, {@code workload}, {@code plot},
 * {@code plot_pareto}; {@code --help} after one lists its flags. The static methods are the
 * same as a Java API.
 */
public final class Sweep {

  /** Exit status of a sweep that ran but had failed combinations. */
  public static final int FAILED_STATUS = 1;
  /** Exit status of a command line that was refused. */
  public static final int USAGE_STATUS = 2;

  private static final Set<String> SERVE_VALUES = Set.of("serve-cmd", "bench-args",
      "after-bench-cmd", "serve-params", "bench-params", "output-dir", "num-runs", "resume",
      "link-vars", "server-ready-timeout", "run-timeout", "jvm-args", "classpath");
  private static final Set<String> SERVE_SWITCHES = Set.of("show-stdout", "dry-run");
  private static final Map<String, String> ALIASES = Map.of("-o", "--output-dir");

  private Sweep() {}

  // ------------------------------------------------------------------ Java API

  /** The grid: every server × benchmark combination, {@code numRuns} times each. */
  public static SweepOutcome serve(SweepConfig config) {
    return new SweepRunner(config).serve();
  }

  /** The SLA search for each combination and each set of constraints. */
  public static SweepOutcome serveSla(SweepConfig config, List<Map<String, SlaCriterion>> sla,
      SlaVariable variable) {
    return new SweepRunner(config).serveSla(sla, variable);
  }

  /** The even load scan for each combination. */
  public static SweepOutcome workload(SweepConfig config, SlaVariable variable, int iters) {
    return new SweepRunner(config).workload(variable, iters);
  }

  /**
   * Plots the runs under {@code folder}: {@code plots.html} and one image file per figure
   * and format, in {@code figDir}.
   *
   * @return the files written
   */
  public static List<Path> plot(Path folder, PlotSpec spec, Path figDir, String formats) {
    List<ChartImages.Format> fs = ChartImages.Format.parse(formats);
    List<Figures.Figure> figures = Figures.build(SweepData.read(folder), spec);
    if (figures.stream().allMatch(f -> f.pointCount() == 0)) {
      throw new IllegalArgumentException("plot: no run under " + folder + " has numbers for both "
          + spec.varX() + " and " + spec.varY() + " (after --filter-by)");
    }
    List<Path> files = new ArrayList<>();
    for (Figures.Figure f : figures) {
      files.addAll(ChartImages.write(f, figDir, fs));
    }
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("kind", "plot");
    data.put("figures", SweepPages.figures(figures));
    files.add(SweepPages.write(figDir.resolve("plots.html"), "Sweep plots: " + folder, data));
    return files;
  }

  /** The Pareto chart of the runs under {@code folder}: {@code pareto.html} and images. */
  public static List<Path> plotPareto(Path folder, String userCountVar, String gpuCountVar,
      List<String> labelBy, Path figDir, String formats) {
    List<ChartImages.Format> fs = ChartImages.Format.parse(formats);
    Pareto.Result result = Pareto.compute(SweepData.read(folder), userCountVar, gpuCountVar,
        labelBy);
    List<Path> files = new ArrayList<>(ChartImages.writePareto(result, figDir, fs));
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("kind", "pareto");
    data.put("pareto", SweepPages.pareto(result));
    files.add(SweepPages.write(figDir.resolve("pareto.html"), "Pareto: " + folder, data));
    return files;
  }

  // ------------------------------------------------------------------ command line

  public static void main(String[] args) {
    int status = run(args, System.out, System.err);
    if (status != 0) {
      System.exit(status);
    }
  }

  /** The command line; returns the exit status instead of exiting. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    List<String> words = words(args);
    if (words.isEmpty() || words.get(0).equals("-h") || words.get(0).equals("--help")) {
      out.print(usage());
      return words.isEmpty() ? USAGE_STATUS : 0;
    }
    String command = words.get(0);
    List<String> rest = words.subList(1, words.size());
    if (rest.contains("-h") || rest.contains("--help")) {
      out.print(usage());
      return 0;
    }
    try {
      switch (command) {
        case "serve" -> serve(config(command, rest, Set.of(), Set.of(), out));
        case "serve_sla" -> {
          Options o = options(command, rest, Set.of("sla-params", "sla-variable"), Set.of());
          serveSla(config(command, rest, Set.of("sla-params", "sla-variable"), Set.of(), out),
              SlaCriterion.parseAll(jsonArgument(o.require(command, "sla-params"))),
              SlaVariable.of(o.value("sla-variable").orElse("request_rate")));
        }
        case "workload" -> {
          Set<String> extra = Set.of("workload-var", "workload-iters");
          Options o = options(command, rest, extra, Set.of());
          workload(config(command, rest, extra, Set.of(), out),
              SlaVariable.of(o.value("workload-var").orElse("request_rate")),
              o.integer("workload-iters", 10));
        }
        case "plot" -> plotCommand(rest, out);
        case "plot_pareto" -> paretoCommand(rest, out);
        default -> throw new IllegalArgumentException("argument command: invalid choice: '"
            + command + "' (choose from 'serve', 'serve_sla', 'workload', 'plot', "
            + "'plot_pareto')");
      }
      return 0;
    } catch (SweepFailure e) {
      err.println("sweep: " + e.getMessage());
      return FAILED_STATUS;
    } catch (IllegalArgumentException | UncheckedIOException e) {
      err.println("sweep " + command + ": error: " + e.getMessage());
      return USAGE_STATUS;
    }
  }

  /** exec:java hands {@code -Dexec.args} over split on blanks only: quotes are undone here. */
  private static List<String> words(String[] args) {
    if (args.length == 1 && args[0].contains(" ")) {
      return CommandLine.split(args[0]);
    }
    return Arrays.asList(args);
  }

  private static Options options(String command, List<String> rest, Set<String> extraValues,
      Set<String> extraSwitches) {
    Set<String> values = new java.util.HashSet<>(SERVE_VALUES);
    values.addAll(extraValues);
    Set<String> switches = new java.util.HashSet<>(SERVE_SWITCHES);
    switches.addAll(extraSwitches);
    return Options.parse(command, rest, values, switches, ALIASES, 0);
  }

  static SweepConfig config(String command, List<String> rest, Set<String> extraValues,
      Set<String> extraSwitches, PrintStream out) {
    Options o = options(command, rest, extraValues, extraSwitches);
    SweepConfig.Builder b = SweepConfig.builder().out(out)
        .benchArgs(o.require(command, "bench-args"))
        .numRuns(o.integer("num-runs", 3))
        .outputDir(Path.of(o.value("output-dir").orElse("results")))
        .resume(o.value("resume").orElse(null))
        .dryRun(o.on("dry-run"))
        .showStdout(o.on("show-stdout"))
        .linkVars(o.value("link-vars").orElse(""))
        .serverReadyTimeout(Duration.ofSeconds(o.integer("server-ready-timeout", 300)));
    if (o.value("serve-cmd").isPresent()) {
      b = b.serveCmd(o.value("serve-cmd").get());
    }
    if (o.value("after-bench-cmd").isPresent()) {
      b = b.afterBenchCmd(o.value("after-bench-cmd").get());
    }
    if (o.value("serve-params").isPresent()) {
      if (o.value("serve-cmd").isEmpty()) {
        throw new IllegalArgumentException("--serve-params varies the server's flags, so it "
            + "needs --serve-cmd");
      }
      b = b.serveParams(params(o.value("serve-params").get()));
    }
    if (o.value("bench-params").isPresent()) {
      b = b.benchParams(params(o.value("bench-params").get()));
    }
    if (o.value("run-timeout").isPresent()) {
      b = b.runTimeout(Duration.ofSeconds(o.integer("run-timeout", 0)));
    }
    if (o.value("jvm-args").isPresent()) {
      b = b.jvmArgs(CommandLine.split(o.value("jvm-args").get()));
    }
    if (o.value("classpath").isPresent()) {
      b = b.classpath(o.value("classpath").get());
    }
    return b.build();
  }

  /** A params argument: a JSON file, or the JSON itself when it starts with [ or {. */
  private static List<Map<String, Object>> params(String value) {
    String v = value.strip();
    if (v.startsWith("[") || v.startsWith("{")) {
      return Params.parse(v);
    }
    return Params.read(Path.of(v));
  }

  private static String jsonArgument(String value) {
    String v = value.strip();
    if (v.startsWith("[") || v.startsWith("{")) {
      return v;
    }
    try {
      return Files.readString(Path.of(v));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + v + ": " + e.getMessage(), e);
    }
  }

  private static void plotCommand(List<String> rest, PrintStream out) {
    Options o = Options.parse("plot", rest, Set.of("fig-dir", "fig-by", "row-by", "col-by",
        "curve-by", "var-x", "var-y", "filter-by", "bin-by", "scale-x", "scale-y", "format"),
        Set.of("dry-run"), Map.of(), 1);
    Path folder = Path.of(o.positional(0));
    PlotSpec spec = PlotSpec.defaults()
        .withAxes(o.value("var-x").orElse("request_throughput"),
            o.value("var-y").orElse("p99_e2el_ms"))
        .withSplits(PlotSpec.keys(o.value("fig-by").orElse(null)),
            PlotSpec.keys(o.value("row-by").orElse(null)),
            PlotSpec.keys(o.value("col-by").orElse(null)),
            PlotSpec.keys(o.value("curve-by").orElse(null)))
        .withFilters(PlotSpec.Filter.parseAll(o.value("filter-by").orElse(null)),
            PlotSpec.Bin.parseAll(o.value("bin-by").orElse(null)))
        .withScales(PlotSpec.isLog("--scale-x", o.value("scale-x").orElse(null)),
            PlotSpec.isLog("--scale-y", o.value("scale-y").orElse(null)));
    Path figDir = Path.of(o.value("fig-dir").orElse(folder.toString()));
    String formats = o.value("format").orElse("png");
    if (o.on("dry-run")) {
      for (Figures.Figure f : Figures.build(SweepData.read(folder), spec)) {
        out.println("[FIGURE] " + f.name() + ": " + f.rows().size() + " row(s) × "
            + f.cols().size() + " column(s), " + f.pointCount() + " point(s) -> "
            + figDir.resolve(f.name()) + ".{" + formats + "}");
      }
      return;
    }
    plot(folder, spec, figDir, formats).forEach(p -> out.println("Wrote " + p));
  }

  private static void paretoCommand(List<String> rest, PrintStream out) {
    Options o = Options.parse("plot_pareto", rest, Set.of("user-count-var", "gpu-count-var",
        "label-by", "fig-dir", "format"), Set.of("dry-run"), Map.of(), 1);
    Path folder = Path.of(o.positional(0));
    if (!Files.isDirectory(folder)) {
      throw new IllegalArgumentException("No parameter sweep results under " + folder);
    }
    Path figDir = Path.of(o.value("fig-dir").orElse(folder.toString()));
    String user = o.value("user-count-var").orElse("max_concurrency");
    String gpu = o.value("gpu-count-var").orElse(null);
    List<String> labels = PlotSpec.keys(o.value("label-by").orElse("max_concurrency,gpu_count"));
    if (o.on("dry-run")) {
      Pareto.Result r = Pareto.compute(SweepData.read(folder), user, gpu, labels);
      out.println("[FIGURE] pareto: " + r.points().size() + " point(s), " + r.frontier().size()
          + " on the frontier -> " + figDir.resolve("pareto"));
      return;
    }
    plotPareto(folder, user, gpu, labels, figDir, o.value("format").orElse("png"))
        .forEach(p -> out.println("Wrote " + p));
  }

  static String usage() {
    return """
        Usage: Sweep <command> [flags]   (vllm bench sweep on Gatling runs of BenchServe)

        Commands:
          serve        every --serve-params x --bench-params combination, --num-runs times
          serve_sla    the highest --sla-variable meeting --sla-params, per combination
          workload     one run at concurrency 1, one all at once, --workload-iters loads between
          plot         curves of any result keys from a sweep folder
          plot_pareto  tokens/s per user vs tokens/s per GPU, with the Pareto frontier

        serve, serve_sla, workload:
          --bench-args ARGS           the BenchServe flags of every run (as -Dllm.args); required
          --serve-cmd CMD             server started per server combination (default: none; the
                                      server in --bench-args is already running)
          --serve-params FILE|JSON    JSON list of dicts (or dict of named dicts) of server flags
          --bench-params FILE|JSON    JSON list of dicts of BenchServe flags
          --link-vars a=b,...         run only combinations where serve[a] == bench[b]
          --after-bench-cmd CMD       run after each benchmark run (default: vLLM's cache reset
                                      for a `vllm` server, nothing otherwise)
          --show-stdout               echo the server's and the runs' output to the console
          --server-ready-timeout S    wait for GET <base-url>/health (default 300)
          --num-runs N                runs per point (default 3); N > 1 adds mean, std, 95 % CI
          -o, --output-dir DIR        results go to DIR/<timestamp>/ (default results)
          --resume TIMESTAMP          continue DIR/TIMESTAMP, skipping runs already there
          --dry-run                   print the commands, run nothing
          --run-timeout S             kill a run after S seconds (default: no limit)
          --jvm-args ARGS             JVM flags of each run (default: those of gatling:test)
          --classpath CP              class path of each run (default: this JVM's)
        serve_sla:
          --sla-params FILE|JSON      [{"p99_e2el_ms": "<=500"}, ...]; operators <= < >= >
          --sla-variable V            request_rate (default) or max_concurrency
        workload:
          --workload-var V            request_rate (default) or max_concurrency
          --workload-iters N          evenly spaced loads between the two ends (default 10)
        plot OUTPUT_DIR:
          --var-x K --var-y K         default request_throughput, p99_e2el_ms
          --fig-by --row-by --col-by --curve-by K,...   split by these keys
          --filter-by 'k<=v,...'      keep runs (== != <= >= < >)
          --bin-by 'k%w,...'          round values down to multiples of w
          --scale-x/--scale-y linear|log
          --format png|svg|png,svg|none   image files beside plots.html (default png)
          --fig-dir DIR               where to write (default OUTPUT_DIR); --dry-run lists
        plot_pareto OUTPUT_DIR:
          --user-count-var K          default max_concurrency (else max_concurrent_requests)
          --gpu-count-var K           default num_gpus | gpu_count | tp x pp x dp
          --label-by K,...            default max_concurrency,gpu_count
          --format, --fig-dir, --dry-run  as for plot
        """;
  }
}
