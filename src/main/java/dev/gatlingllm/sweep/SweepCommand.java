package dev.gatlingllm.sweep;

import dev.gatlingllm.cli.CommandLine;
import dev.gatlingllm.tool.HelpOption;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gatling-llm bench sweep}: vLLM's {@code vllm bench sweep} sub-commands as picocli
 * commands ({@code serve}, {@code serve_sla}, {@code serve_workload} alias {@code workload},
 * {@code startup}, {@code repeat}, {@code plot}, {@code plot_pareto}), each calling {@link Sweep}'s Java API. Exit status: 0, 1 when the
 * sweep ran but combinations failed ({@link Sweep#FAILED_STATUS}), 2 when the command line or
 * its values were refused ({@link Sweep#USAGE_STATUS}).
 */
@Command(name = "sweep", usageHelpWidth = 100,
    description = "vllm bench sweep on Gatling runs of bench serve: parameter grids, the SLA "
        + "search, the even load scan, server start-up times, and their plots.",
    subcommands = {SweepCommand.Serve.class, SweepCommand.ServeSla.class,
        SweepCommand.Workload.class, SweepCommand.Startup.class, SweepCommand.Repeat.class,
        SweepCommand.Plot.class, SweepCommand.PlotPareto.class})
public final class SweepCommand implements Runnable {

  @Mixin
  private HelpOption help;

  @Spec
  private CommandSpec spec;
  private final PrintStream out;

  private SweepCommand(PrintStream out) {
    this.out = out;
  }

  /**
   * The command line, writing the sweep's progress to {@code out}; give it {@link #FAILED}
   * once it is configured.
   */
  public static picocli.CommandLine commandLine(PrintStream out) {
    return new picocli.CommandLine(new SweepCommand(out));
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "give a command: "
        + String.join(", ", spec.subcommands().keySet()));
  }

  /**
   * A sweep that failed says so in one line: combinations that failed exit 1, values refused
   * once the flags were parsed (a params file, an SLA) exit 2 like any refused command line.
   */
  public static final IExecutionExceptionHandler FAILED = (e, command, parsed) -> {
    if (e instanceof SweepFailure) {
      command.getErr().println("sweep: " + e.getMessage());
      return Sweep.FAILED_STATUS;
    }
    if (e instanceof IllegalArgumentException || e instanceof UncheckedIOException) {
      command.getErr().println(command.getCommandSpec().qualifiedName() + ": error: "
          + e.getMessage());
      return Sweep.USAGE_STATUS;
    }
    throw e;
  };

  /** A sub-command: its help, and the sweep's console. */
  abstract static class Step implements Callable<Integer> {

    @Mixin
    private HelpOption help;

    @ParentCommand
    private SweepCommand parent;

    PrintStream out() {
      return parent.out;
    }
  }

  /** A sub-command that runs benchmarks: the run flags, and what it does with their config. */
  abstract static class RunStep extends Step {

    @Mixin
    private RunOptions run;

    @Override
    public Integer call() {
      sweep(run.config(out()));
      return 0;
    }

    abstract void sweep(SweepConfig config);
  }

  /** A plot sub-command: the folder and output flags, and where the files it wrote are told. */
  abstract static class PlotStep extends Step {

    @Mixin
    PlotOptions plot;

    int wrote(List<Path> files) {
      files.forEach(p -> out().println("Wrote " + p));
      return 0;
    }
  }

  /** How each forked run's JVM starts: the same two flags for the sweeps and for repeat. */
  static final class JvmOptions {

    @Option(names = "--jvm-args", paramLabel = "ARGS",
        description = "JVM flags of each run (default: those of gatling:test)")
    String jvmArgs;

    @Option(names = "--classpath", paramLabel = "CP",
        description = "class path of each run (default: this JVM's)")
    String classpath;

    SweepConfig.Builder applyTo(SweepConfig.Builder b) {
      if (jvmArgs != null) {
        b = b.jvmArgs(CommandLine.split(jvmArgs));
      }
      if (classpath != null) {
        b = b.classpath(classpath);
      }
      return b;
    }
  }

  /** The folder and output flags of both plot commands. */
  static final class PlotOptions {

    @Parameters(paramLabel = "OUTPUT_DIR", description = "the sweep's folder")
    Path folder;

    @Option(names = "--format", paramLabel = "png|svg|png,svg|none", defaultValue = "png",
        description = "image files beside the page (default ${DEFAULT-VALUE})")
    String format;

    @Option(names = "--fig-dir", paramLabel = "DIR",
        description = "where to write (default OUTPUT_DIR/plots, beside the report's images)")
    Path figDir;

    @Option(names = "--dry-run", description = "list the figures, write nothing")
    boolean dryRun;

    Path dir() {
      return figDir != null ? figDir : folder.resolve("plots");
    }
  }

  /** The flags of every sub-command that runs benchmarks. */
  static final class RunOptions {

    @Option(names = "--bench-args", required = true, paramLabel = "ARGS",
        description = "the bench serve flags of every run (as -Dllm.args)")
    String benchArgs;

    @Option(names = "--serve-cmd", paramLabel = "CMD", description = "server started per "
        + "server combination (default: none; the server in --bench-args is already running)")
    String serveCmd;

    @Option(names = "--serve-params", paramLabel = "FILE|JSON", description = "JSON list of "
        + "dicts (or dict of named dicts) of server flags")
    String serveParams;

    @Option(names = "--bench-params", paramLabel = "FILE|JSON",
        description = "JSON list of dicts of bench serve flags")
    String benchParams;

    @Option(names = "--link-vars", paramLabel = "a=b,...", defaultValue = "",
        description = "run only combinations where serve[a] == bench[b]")
    String linkVars;

    @Option(names = "--after-bench-cmd", paramLabel = "CMD", description = "run after each "
        + "benchmark run (default: vLLM's cache reset for a vllm server, nothing otherwise)")
    String afterBenchCmd;

    @Option(names = "--show-stdout",
        description = "echo the server's and the runs' output to the console")
    boolean showStdout;

    @Option(names = "--server-ready-timeout", paramLabel = "S", defaultValue = "300",
        description = "wait for GET <base-url>/health (default ${DEFAULT-VALUE})")
    int serverReadyTimeout;

    @Option(names = "--num-runs", paramLabel = "N", defaultValue = "3", description = "runs "
        + "per point (default ${DEFAULT-VALUE}); N > 1 adds mean, std, 95 %% CI")
    int numRuns;

    @Option(names = {"-o", "--output-dir"}, paramLabel = "DIR", defaultValue = "results",
        description = "results go to DIR/<timestamp>/ (default ${DEFAULT-VALUE})")
    Path outputDir;

    @Option(names = "--resume", paramLabel = "TIMESTAMP", arity = "0..1", fallbackValue = "",
        description = "continue DIR/TIMESTAMP, or alone (vLLM's switch) DIR/<-e name>, "
            + "skipping runs already there")
    String resume;

    @Option(names = {"-e", "--experiment-name"}, paramLabel = "NAME", description = "results "
        + "go to DIR/NAME instead of DIR/<timestamp>; an existing one needs --resume")
    String experimentName;

    @Option(names = "--warmup-num-prompts", paramLabel = "N", defaultValue = "0",
        description = "before each point's runs, one unmeasured run of N prompts, kept as "
            + "warmup.json (default ${DEFAULT-VALUE}: none)")
    int warmupNumPrompts;

    @Option(names = "--continue-on-error", description = "a failed run writes "
        + "run=N.failure.json and the sweep goes on (the exit status is still 1)")
    boolean continueOnError;

    @Option(names = "--dry-run", description = "print the commands, run nothing")
    boolean dryRun;

    @Option(names = "--run-timeout", paramLabel = "S",
        description = "kill a run after S seconds (default: no limit)")
    Integer runTimeout;

    @Mixin
    private JvmOptions jvm;

    /** {@code --resume NAME}, or {@code --resume} alone: the {@code -e} experiment. */
    private String resumed() {
      if (resume == null || !resume.isEmpty()) {
        return resume;
      }
      if (experimentName == null) {
        throw new IllegalArgumentException("--resume without a folder continues the "
            + "-e/--experiment-name folder: give -e NAME, or --resume TIMESTAMP");
      }
      return experimentName;
    }

    SweepConfig config(PrintStream out) {
      SweepConfig.Builder b = SweepConfig.builder().out(out)
          .benchArgs(benchArgs)
          .numRuns(numRuns)
          .outputDir(outputDir)
          .resume(resumed())
          .experimentName(experimentName)
          .continueOnError(continueOnError)
          .warmupNumPrompts(warmupNumPrompts)
          .dryRun(dryRun)
          .showStdout(showStdout)
          .linkVars(linkVars)
          .serverReadyTimeout(Duration.ofSeconds(serverReadyTimeout));
      if (serveCmd != null) {
        b = b.serveCmd(serveCmd);
      }
      if (afterBenchCmd != null) {
        b = b.afterBenchCmd(afterBenchCmd);
      }
      if (serveParams != null) {
        if (serveCmd == null) {
          throw new IllegalArgumentException("--serve-params varies the server's flags, so "
              + "it needs --serve-cmd");
        }
        b = b.serveParams(params(serveParams));
      }
      if (benchParams != null) {
        b = b.benchParams(params(benchParams));
      }
      if (runTimeout != null) {
        b = b.runTimeout(Duration.ofSeconds(runTimeout));
      }
      b = jvm.applyTo(b);
      return b.build();
    }
  }

  @Command(name = "serve", usageHelpWidth = 100,
      description = "every --serve-params x --bench-params combination, --num-runs times")
  static final class Serve extends RunStep {

    @Override
    void sweep(SweepConfig config) {
      Sweep.serve(config);
    }
  }

  @Command(name = "serve_sla", usageHelpWidth = 100,
      description = "the highest --sla-variable meeting --sla-params, per combination")
  static final class ServeSla extends RunStep {

    @Option(names = "--sla-params", required = true, paramLabel = "FILE|JSON",
        description = "[{\"p99_e2el_ms\": \"<=500\"}, ...]; operators <= < >= >")
    String slaParams;

    @Option(names = "--sla-variable", paramLabel = "V", defaultValue = "request_rate",
        description = "request_rate (default) or max_concurrency")
    String slaVariable;

    @Override
    void sweep(SweepConfig config) {
      Sweep.serveSla(config, SlaCriterion.parseAll(jsonArgument(slaParams)),
          SlaVariable.of(slaVariable));
    }
  }

  @Command(name = "serve_workload", aliases = "workload", usageHelpWidth = 100,
      description = "a serial run (concurrency 1), a batch run (concurrency = --num-prompts), "
          + "then evenly spaced loads between what they reached (vLLM's newest name; workload "
          + "works too)")
  static final class Workload extends RunStep {

    @Option(names = "--workload-var", paramLabel = "V", defaultValue = "request_rate",
        description = "request_rate (default) or max_concurrency")
    String workloadVar;

    @Option(names = "--workload-iters", paramLabel = "N", defaultValue = "10",
        description = "load levels, the serial and the batch runs included, at least 2 "
            + "(default ${DEFAULT-VALUE})")
    int workloadIters;

    @Override
    void sweep(SweepConfig config) {
      Sweep.workload(config, SlaVariable.of(workloadVar), workloadIters);
    }
  }

  @Command(name = "startup", usageHelpWidth = 100,
      description = "start-up time of the server command (until GET /health answers 2xx) for "
          + "every --serve-params x --startup-params combination: cold, warm-up and warm "
          + "start-ups per run, as vllm bench startup")
  static final class Startup extends Step {

    @Option(names = "--serve-cmd", required = true, paramLabel = "CMD",
        description = "the server command to time")
    String serveCmd;

    @Option(names = "--serve-params", paramLabel = "FILE|JSON",
        description = "JSON list of dicts (or dict of named dicts) of server flags")
    String serveParams;

    @Option(names = "--startup-params", paramLabel = "FILE|JSON", description = "JSON list of "
        + "dicts: num_iters_cold, num_iters_warmup, num_iters_warm; other keys are server flags")
    String startupParams;

    @Option(names = "--base-url", paramLabel = "URL", description = "where the server answers "
        + "/health (default: the command's --host/--port, else http://127.0.0.1:8000)")
    String baseUrl;

    @Option(names = "--num-iters-cold", paramLabel = "N", defaultValue = "3",
        description = "cold start-ups per run, each with an empty VLLM_CACHE_ROOT (default "
            + "${DEFAULT-VALUE})")
    int numItersCold;

    @Option(names = "--num-iters-warmup", paramLabel = "N", defaultValue = "1",
        description = "unmeasured start-ups before the warm ones (default ${DEFAULT-VALUE})")
    int numItersWarmup;

    @Option(names = "--num-iters-warm", paramLabel = "N", defaultValue = "3",
        description = "warm start-ups per run (default ${DEFAULT-VALUE})")
    int numItersWarm;

    @Option(names = "--server-ready-timeout", paramLabel = "S", defaultValue = "300",
        description = "longest start-up before the server is killed and the sweep fails "
            + "(default ${DEFAULT-VALUE})")
    int serverReadyTimeout;

    @Option(names = "--num-runs", paramLabel = "N", defaultValue = "1",
        description = "runs per combination (default ${DEFAULT-VALUE})")
    int numRuns;

    @Option(names = {"-o", "--output-dir"}, paramLabel = "DIR", defaultValue = "results",
        description = "results go to DIR/<-e name or timestamp>/ (default ${DEFAULT-VALUE})")
    Path outputDir;

    @Option(names = {"-e", "--experiment-name"}, paramLabel = "NAME",
        description = "the experiment's folder name (default: a timestamp)")
    String experimentName;

    @Option(names = "--resume", description = "continue DIR/NAME (-e), skipping runs there")
    boolean resume;

    @Option(names = "--show-stdout", description = "echo the server's output to the console")
    boolean showStdout;

    @Option(names = "--dry-run", description = "print the commands, run nothing")
    boolean dryRun;

    @Override
    public Integer call() {
      if (resume && experimentName == null) {
        throw new IllegalArgumentException("--resume continues the -e/--experiment-name "
            + "folder: give -e NAME");
      }
      SweepConfig.Builder b = SweepConfig.builder().out(out())
          .serveCmd(serveCmd)
          .numRuns(numRuns)
          .outputDir(outputDir)
          .experimentName(experimentName)
          .resume(resume ? experimentName : null)
          .showStdout(showStdout)
          .dryRun(dryRun)
          .serverReadyTimeout(Duration.ofSeconds(serverReadyTimeout));
      if (serveParams != null) {
        b = b.serveParams(params(serveParams));
      }
      List<Map<String, Object>> startup = startupParams != null ? params(startupParams)
          : List.of(Map.of());
      Sweep.startup(b.build(), startup, numItersCold, numItersWarmup, numItersWarm, baseUrl);
      return 0;
    }
  }

  @Command(name = "repeat", usageHelpWidth = 100,
      description = "one benchmark --num-runs times, each a fresh Gatling run: a simulation "
          + "class of yours (the DSL) or the drop-in's flags; the spread of its figures")
  static final class Repeat extends Step {

    @Option(names = "--simulation", paramLabel = "CLASS", description = "your simulation "
        + "class; run N gets -Dllm.seed=N, for its seed(...) calls if it wants fresh arrivals")
    String simulation;

    @Option(names = "--bench-args", paramLabel = "ARGS",
        description = "the bench serve flags instead of a simulation (as bench serve --num-runs)")
    String benchArgs;

    @Option(names = "--num-runs", paramLabel = "N", defaultValue = "3",
        description = "runs (default ${DEFAULT-VALUE}, at least 2)")
    int numRuns;

    @Option(names = {"-o", "--output-dir"}, paramLabel = "DIR", defaultValue = "results",
        description = "the runs go to DIR/<timestamp>/run=N/ (default ${DEFAULT-VALUE})")
    Path outputDir;

    @Option(names = "--show-stdout", description = "echo the runs' output to the console")
    boolean showStdout;

    @Mixin
    private JvmOptions jvm;

    @Override
    public Integer call() {
      if ((simulation == null) == (benchArgs == null)) {
        throw new IllegalArgumentException("give --simulation CLASS or --bench-args ARGS "
            + "(one of them)");
      }
      if (numRuns < 2) {
        throw new IllegalArgumentException("--num-runs must be at least 2 to have a spread, "
            + "got " + numRuns);
      }
      // a simulation's seeds are in its code: the run's fresh seed reaches it as -Dllm.seed
      SweepConfig.Builder b = SweepConfig.builder().out(out())
          .benchArgs(benchArgs != null ? benchArgs : "")
          .numRuns(numRuns).outputDir(outputDir).showStdout(showStdout)
          .simulation(simulation);
      b = jvm.applyTo(b);
      Sweep.repeat(b.build());
      return 0;
    }
  }

  @Command(name = "plot", usageHelpWidth = 100,
      description = "curves of any result keys from a sweep folder")
  static final class Plot extends PlotStep {

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

  @Command(name = "plot_pareto", usageHelpWidth = 100,
      description = "tokens/s per user vs tokens/s per GPU, with the Pareto frontier")
  static final class PlotPareto extends PlotStep {

    @Option(names = "--user-count-var", paramLabel = "K", defaultValue = "max_concurrency",
        description = "default ${DEFAULT-VALUE} (else max_concurrent_requests)")
    String userCountVar;

    @Option(names = "--gpu-count-var", paramLabel = "K",
        description = "default num_gpus | gpu_count | tp x pp x dp")
    String gpuCountVar;

    @Option(names = "--label-by", paramLabel = "K,...",
        defaultValue = "max_concurrency,gpu_count", description = "default ${DEFAULT-VALUE}")
    String labelBy;

    @Override
    public Integer call() {
      if (!Files.isDirectory(plot.folder)) {
        throw new IllegalArgumentException("No parameter sweep results under " + plot.folder);
      }
      Path dir = plot.dir();
      List<String> labels = PlotSpec.keys(labelBy);
      if (plot.dryRun) {
        Pareto.Result r = Pareto.compute(SweepData.read(plot.folder), userCountVar, gpuCountVar,
            labels);
        out().println("[FIGURE] pareto: " + r.points().size() + " point(s), "
            + r.frontier().size() + " on the frontier -> " + dir.resolve("pareto"));
        return 0;
      }
      return wrote(Sweep.plotPareto(plot.folder, userCountVar, gpuCountVar, labels, dir,
          plot.format));
    }
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
}
