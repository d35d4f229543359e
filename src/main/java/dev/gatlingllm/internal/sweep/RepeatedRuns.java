package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code repeat}: one benchmark {@code --num-runs} times, its runs directly in the output
 * folder ({@code run=N/}, {@code run=N.json}) with their {@value RunStatistics#FILE_NAME}
 * (the spread of the headline figures), printed as a table. Not a vLLM sweep mode: its
 * {@code bench serve --num-runs}.
 */
public final class RepeatedRuns {

  private RepeatedRuns() {}

  public static SweepOutcome run(SweepConfig config) {
    SweepRunner runner = new SweepRunner(config, true);
    PrintStream out = config.out();
    Path root = runner.root();
    Map<String, Object> none = Map.of();
    runner.withServer(none, none, runner.missingRuns(root),
        server -> runner.runPoint(server, none, none, root));
    RunStatistics stats = runner.spread(""); // the point is the sweep's folder itself
    if (stats != null) {
      out.print(stats.consoleText());
      for (Map<String, Object> r : runner.records().values()) {
        RunFlags.in(r).forEach(f -> out.println("FLAGGED " + r.get(SweepData.RUN_KEY) + ": "
            + f));
      }
      out.println("Statistics of the runs: " + root.resolve(RunStatistics.FILE_NAME));
    }
    return runner.finish(null);
  }

  @Command(name = "repeat", usageHelpWidth = 100,
      description = "one benchmark --num-runs times, each a fresh Gatling run: a simulation "
          + "class of yours (the DSL) or the drop-in's flags; the spread of its figures")
  static final class SubCommand extends SweepCommand.Step {

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
    private SweepCommand.JvmOptions jvm;

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
}
