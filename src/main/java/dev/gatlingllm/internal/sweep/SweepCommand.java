package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.tool.HelpOption;
import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
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
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gatling-llm bench sweep}: vLLM's {@code vllm bench sweep} sub-commands as picocli
 * commands ({@code serve}, {@code serve_sla}, {@code serve_workload} alias {@code workload},
 * {@code startup}, {@code repeat}, {@code plot}, {@code plot_pareto}), each calling
 * {@link Sweep}'s Java API. This file holds what they share (the run flags, the plot flags,
 * the exit statuses); each sub-command's own flags are in its mode's file
 * ({@code ServeSlaSweep.SubCommand}, ...). Exit status: 0, 1 when the sweep ran but
 * combinations failed ({@link Sweep#FAILED_STATUS}), 2 when the command line or its values
 * were refused ({@link Sweep#USAGE_STATUS}).
 */
@Command(name = "sweep", usageHelpWidth = 100,
    description = "vllm bench sweep on Gatling runs of bench serve: parameter grids, the SLA "
        + "search, the even load scan, server start-up times, and their plots.",
    subcommands = {ServeSweep.SubCommand.class, ServeSlaSweep.SubCommand.class,
        ServeWorkloadSweep.SubCommand.class, StartupSweep.SubCommand.class,
        RepeatedRuns.SubCommand.class, Plot.SubCommand.class, PlotPareto.SubCommand.class})
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

  /** A params argument: a JSON file, or the JSON itself when it starts with [ or {. */
  static List<Map<String, Object>> params(String value) {
    String v = value.strip();
    if (v.startsWith("[") || v.startsWith("{")) {
      return Params.parse(v);
    }
    return Params.read(Path.of(v));
  }

  /** A JSON argument: the JSON itself when it starts with [ or {, else a file holding it. */
  static String jsonArgument(String value) {
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
