package dev.gatlingllm.sweep;

import dev.gatlingllm.internal.cli.BenchArgs;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.selfcheck.JvmSettings;
import dev.gatlingllm.internal.sweep.ForkedRun;
import dev.gatlingllm.internal.sweep.Params;
import dev.gatlingllm.internal.sweep.RunLauncher;
import dev.gatlingllm.internal.sweep.SweepAccess;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a sweep runs: the server command (optional) and its combinations, the drop-in's
 * benchmark flags and their combinations, how often each point runs, and where it all goes.
 * Immutable; {@link #builder()} makes one, each setter returns a new builder state.
 */
public final class SweepConfig {

  /**
   * The flags the client's timings need ({@link JvmSettings}), the ones {@code gatling:test}
   * gives the run's JVM: each forked run checks its JVM against them, as any run does.
   */
  public static final List<String> DEFAULT_JVM_ARGS = JvmSettings.jvmArgs();

  private final List<String> serveCmd;
  private final List<String> afterBenchCmd;
  private final boolean showStdout;
  private final List<String> benchArgs;
  private final List<Map<String, Object>> serveParams;
  private final List<Map<String, Object>> benchParams;
  private final List<Map.Entry<String, String>> linkVars;
  private final int numRuns;
  private final Path outputDir;
  private final String resume;
  private final String experimentName;
  private final boolean continueOnError;
  private final int warmupNumPrompts;
  private final boolean dryRun;
  private final boolean resetPrefixCache;
  private final List<Double> summaryPercentiles;
  private final Duration serverReadyTimeout;
  private final Duration runTimeout;
  private final List<String> jvmArgs;
  private final String classpath;
  private final String simulation;
  private final PrintStream out;
  private final RunLauncher launcher;

  static {
    // the runner, and tests of the search logic, reach the launcher through this one door
    SweepAccess.install(new SweepAccess.Hooks() {
      @Override
      public RunLauncher launcher(SweepConfig config) {
        return config.launcher();
      }

      @Override
      public Builder withLauncher(Builder builder, RunLauncher launcher) {
        return builder.launcher(launcher);
      }
    });
  }

  private SweepConfig(Builder b) {
    serveCmd = List.copyOf(b.serveCmd);
    afterBenchCmd = List.copyOf(b.afterBenchCmd);
    showStdout = b.showStdout;
    benchArgs = List.copyOf(b.benchArgs);
    serveParams = List.copyOf(b.serveParams);
    benchParams = List.copyOf(b.benchParams);
    linkVars = List.copyOf(b.linkVars);
    numRuns = b.numRuns;
    outputDir = b.outputDir;
    resume = b.resume;
    experimentName = b.experimentName;
    continueOnError = b.continueOnError;
    warmupNumPrompts = b.warmupNumPrompts;
    dryRun = b.dryRun;
    resetPrefixCache = b.resetPrefixCache;
    summaryPercentiles = List.copyOf(b.summaryPercentiles);
    serverReadyTimeout = b.serverReadyTimeout;
    runTimeout = b.runTimeout;
    jvmArgs = List.copyOf(b.jvmArgs);
    classpath = b.classpath;
    simulation = b.simulation;
    out = b.out;
    launcher = b.launcher;
  }

  public static Builder builder() {
    return new Builder();
  }

  public List<String> serveCmd() {
    return serveCmd;
  }

  public List<String> afterBenchCmd() {
    return afterBenchCmd;
  }

  public boolean showStdout() {
    return showStdout;
  }

  public List<String> benchArgs() {
    return benchArgs;
  }

  public List<Map<String, Object>> serveParams() {
    return serveParams;
  }

  public List<Map<String, Object>> benchParams() {
    return benchParams;
  }

  public List<Map.Entry<String, String>> linkVars() {
    return linkVars;
  }

  public int numRuns() {
    return numRuns;
  }

  public Path outputDir() {
    return outputDir;
  }

  /** The run folder name to resume (a timestamp under the output dir), or null. */
  public String resume() {
    return resume;
  }

  /** {@code -e}: the sweep's folder under the output dir instead of a timestamp; or null. */
  public String experimentName() {
    return experimentName;
  }

  /** Whether a failed run is written as {@code run=N.failure.json} and the sweep goes on. */
  public boolean continueOnError() {
    return continueOnError;
  }

  /** Prompts of the unmeasured warm-up run before each point's runs; 0 for none. */
  public int warmupNumPrompts() {
    return warmupNumPrompts;
  }

  public boolean dryRun() {
    return dryRun;
  }

  /** {@code vllm-bench --reset-prefix-cache}: POST the server's reset before each run. */
  public boolean resetPrefixCache() {
    return resetPrefixCache;
  }

  /**
   * {@code vllm-bench --sweep-summary-percentiles}: the percentiles beyond P99 whose TTFT and
   * TPOT the sweep's table prints, computed in every run; empty by default.
   */
  public List<Double> summaryPercentiles() {
    return summaryPercentiles;
  }

  public Duration serverReadyTimeout() {
    return serverReadyTimeout;
  }

  /** Longest a single benchmark run may take; null: no limit. */
  public Duration runTimeout() {
    return runTimeout;
  }

  public List<String> jvmArgs() {
    return jvmArgs;
  }

  /** The class path of each run's JVM; null: this JVM's. */
  public String classpath() {
    return classpath;
  }

  public PrintStream out() {
    return out;
  }

  /** How the runs start (internal: the runner reads it through {@code SweepAccess}). */
  RunLauncher launcher() {
    return launcher != null ? launcher
        : new ForkedRun(classpath, jvmArgs, runTimeout, showStdout, out, simulation);
  }

  /** Builder; see the corresponding {@code sweep serve} flags. */
  public static final class Builder {
    private List<String> serveCmd = List.of();
    private List<String> afterBenchCmd = List.of();
    private boolean showStdout;
    private List<String> benchArgs = List.of();
    private List<Map<String, Object>> serveParams = List.of(Map.of());
    private List<Map<String, Object>> benchParams = List.of(Map.of());
    private List<Map.Entry<String, String>> linkVars = List.of();
    private int numRuns = 3;
    private Path outputDir = Path.of("results");
    private String resume;
    private String experimentName;
    private boolean continueOnError;
    private int warmupNumPrompts;
    private boolean dryRun;
    private boolean resetPrefixCache;
    private List<Double> summaryPercentiles = List.of();
    private Duration serverReadyTimeout = Duration.ofSeconds(300);
    private Duration runTimeout;
    private List<String> jvmArgs = DEFAULT_JVM_ARGS;
    private String classpath;
    private String simulation;
    private PrintStream out = System.out;
    private RunLauncher launcher;

    private Builder() {}

    /** A copy of this builder with {@code change} applied: builders never change in place. */
    private Builder with(Consumer<Builder> change) {
      Builder b = copy();
      change.accept(b);
      return b;
    }

    private Builder copy() {
      Builder b = new Builder();
      b.serveCmd = serveCmd;
      b.afterBenchCmd = afterBenchCmd;
      b.showStdout = showStdout;
      b.benchArgs = benchArgs;
      b.serveParams = serveParams;
      b.benchParams = benchParams;
      b.linkVars = linkVars;
      b.numRuns = numRuns;
      b.outputDir = outputDir;
      b.resume = resume;
      b.experimentName = experimentName;
      b.continueOnError = continueOnError;
      b.warmupNumPrompts = warmupNumPrompts;
      b.dryRun = dryRun;
      b.resetPrefixCache = resetPrefixCache;
      b.summaryPercentiles = summaryPercentiles;
      b.serverReadyTimeout = serverReadyTimeout;
      b.runTimeout = runTimeout;
      b.jvmArgs = jvmArgs;
      b.classpath = classpath;
      b.simulation = simulation;
      b.out = out;
      b.launcher = launcher;
      return b;
    }

    /** {@code --serve-cmd}: the server started per server combination (split like a shell). */
    public Builder serveCmd(String line) {
      return serveCmd(line == null ? List.of() : CommandLine.split(line));
    }

    public Builder serveCmd(List<String> words) {
      return with(b -> b.serveCmd = List.copyOf(words));
    }

    /** {@code --after-bench-cmd}: run after every benchmark run instead of the cache reset. */
    public Builder afterBenchCmd(String line) {
      return with(b -> b.afterBenchCmd = line == null ? List.of() : CommandLine.split(line));
    }

    public Builder showStdout(boolean value) {
      return with(b -> b.showStdout = value);
    }

    /** {@code --bench-args}: the drop-in's flags, as for {@code -Dllm.args}. */
    public Builder benchArgs(String line) {
      return benchArgs(CommandLine.split(line == null ? "" : line));
    }

    public Builder benchArgs(List<String> words) {
      BenchArgs.parse(words); // bad flags fail here, before any server starts
      return with(b -> b.benchArgs = List.copyOf(words));
    }

    public Builder serveParams(List<Map<String, Object>> combs) {
      return with(b -> b.serveParams = nonEmpty(combs, "--serve-params"));
    }

    public Builder benchParams(List<Map<String, Object>> combs) {
      return with(b -> b.benchParams = nonEmpty(combs, "--bench-params"));
    }

    /** {@code --link-vars}: {@code serve_key=bench_key,...}. */
    public Builder linkVars(String text) {
      return with(b -> b.linkVars = Params.parseLinkVars(text));
    }

    public Builder numRuns(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("`num_runs` should be at least 1.");
      }
      return with(b -> b.numRuns = value);
    }

    public Builder outputDir(Path value) {
      return with(b -> b.outputDir = Objects.requireNonNull(value, "outputDir"));
    }

    /** {@code -e/--experiment-name}: the sweep's folder name (default: a timestamp). */
    public Builder experimentName(String value) {
      if (value != null && (value.isBlank() || !value.equals(Params.sanitize(value)))) {
        throw new IllegalArgumentException("-e/--experiment-name must be a folder name, got '"
            + value + "'");
      }
      return with(b -> b.experimentName = value);
    }

    /**
     * {@code --warmup-num-prompts}: before each point's runs, one run of this many prompts
     * whose result is kept as {@code warmup.json} and left out of every figure; 0 for none.
     */
    public Builder warmupNumPrompts(int value) {
      if (value < 0) {
        throw new IllegalArgumentException("--warmup-num-prompts must be at least 0, got "
            + value);
      }
      return with(b -> b.warmupNumPrompts = value);
    }

    /** {@code --continue-on-error}: a failed run is written down and the sweep goes on. */
    public Builder continueOnError(boolean value) {
      return with(b -> b.continueOnError = value);
    }

    public Builder resume(String value) {
      return with(b -> b.resume = value == null || value.isBlank() ? null : value);
    }

    public Builder dryRun(boolean value) {
      return with(b -> b.dryRun = value);
    }

    /** See {@link SweepConfig#resetPrefixCache()}. */
    public Builder resetPrefixCache(boolean value) {
      return with(b -> b.resetPrefixCache = value);
    }

    /** See {@link SweepConfig#summaryPercentiles()}; each in [0, 100], repeats dropped. */
    public Builder summaryPercentiles(List<Double> value) {
      List<Double> kept = new ArrayList<>();
      for (double p : value) {
        if (!(p >= 0 && p <= 100)) {
          throw new IllegalArgumentException("--sweep-summary-percentiles: a percentile must "
              + "be in [0, 100], got " + PyFormat.repr(p));
        }
        if (!kept.contains(p)) {
          kept.add(p);
        }
      }
      return with(b -> b.summaryPercentiles = List.copyOf(kept));
    }

    public Builder serverReadyTimeout(Duration value) {
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException("--server-ready-timeout must be > 0 s, got "
            + value.toSeconds());
      }
      return with(b -> b.serverReadyTimeout = value);
    }

    /** Longest one benchmark run may take (its JVM is killed then); null: no limit. */
    public Builder runTimeout(Duration value) {
      if (value != null && (value.isNegative() || value.isZero())) {
        throw new IllegalArgumentException("--run-timeout must be > 0 s, got "
            + value.toSeconds());
      }
      return with(b -> b.runTimeout = value);
    }

    public Builder jvmArgs(List<String> value) {
      return with(b -> b.jvmArgs = List.copyOf(value));
    }

    public Builder classpath(String value) {
      return with(b -> b.classpath = value);
    }

    /**
     * Runs this simulation class (a DSL simulation) instead of the drop-in; the benchmark
     * flags then only carry the seed, given to the simulation as {@code -Dllm.seed}.
     */
    public Builder simulation(String className) {
      return with(b -> b.simulation = className);
    }

    public Builder out(PrintStream value) {
      return with(b -> b.out = Objects.requireNonNull(value, "out"));
    }

    /** Replaces the forked Gatling runs (tests of the search logic, through SweepAccess). */
    Builder launcher(RunLauncher value) {
      return with(b -> b.launcher = value);
    }

    public SweepConfig build() {
      return new SweepConfig(this);
    }

    private static List<Map<String, Object>> nonEmpty(List<Map<String, Object>> combs,
        String flag) {
      if (combs.isEmpty()) {
        throw new IllegalArgumentException(flag + ": the list of combinations is empty; give "
            + "at least one (an empty object {} runs the command as it is)");
      }
      return new ArrayList<>(combs);
    }
  }
}
