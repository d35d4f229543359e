package dev.gatlingllm.launcher;

import dev.gatlingllm.internal.cli.BenchArgs;
import dev.gatlingllm.internal.cli.BenchFlagSpec;
import dev.gatlingllm.internal.cli.BenchChecks;
import dev.gatlingllm.internal.cli.BenchPlan;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.cli.HandOver;
import dev.gatlingllm.internal.cli.OfflineModes;
import dev.gatlingllm.internal.logging.PluginLogging;
import dev.gatlingllm.internal.protocol.RunResults;
import dev.gatlingllm.internal.tool.Tool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code gatling-llm bench serve}: the flags parsed by picocli with the spec built from the
 * flag table, then {@link BenchServe} run by Gatling in this JVM, as {@code gatling:test}
 * runs it in the JVM it forks. The flags reach the simulation parsed, through
 * {@code HandOver}, the one channel Gatling's reflective start leaves.
 */
final class BenchServeRun implements Callable<Integer>, Tool.Suggests {

  static final String NAME = "serve";

  /** Where the Gatling run folders go when {@code -Dllm.resultsFolder} does not say. */
  static final String DEFAULT_RESULTS = "results";

  /** The stack traces of refused or crashed runs, in the results folder. */
  static final String CRASH_LOG = "gatling-llm.log";

  private CommandSpec spec;

  private BenchServeRun() {}

  static picocli.CommandLine commandLine() {
    BenchServeRun run = new BenchServeRun();
    run.spec = BenchFlagSpec.create(run);
    return new picocli.CommandLine(run.spec);
  }

  @Override
  public String unknownFlag(String typed) {
    return BenchFlagSpec.unknownFlag(typed);
  }

  @Override
  public Integer call() {
    BenchArgs args;
    int runs;
    try {
      args = BenchArgs.of(spec.commandLine().getParseResult());
      runs = BenchChecks.numRuns(args);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    Path results = Path.of(System.getProperty(RunResults.RESULTS_FOLDER_PROPERTY,
        DEFAULT_RESULTS)).toAbsolutePath();
    if (OfflineModes.requested(args)) {
      // --compare, --dry-run: nothing to send, so no Gatling run
      return OfflineModes.run(args, spec.commandLine().getOut(), results);
    }
    if (runs > 1 || BenchChecks.sweepFlag(args).isPresent()) {
      return RepeatedServe.run(args, runs, results);
    }
    return gatling(args, results);
  }

  /**
   * Runs {@link BenchServe} with Gatling's own launcher in this JVM.
   *
   * @return the run's exit status (README, "How a run ends"): its verdict's when that is not
   *     0 (3, 4), else Gatling's (2 when its assertions failed), 1 for a run refused while the
   *     simulation was built, 255 for a crash
   */
  static int gatling(BenchArgs benchArgs, Path results) {
    try {
      Files.createDirectories(results);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the results folder " + results, e);
    }
    String[] gatlingArgs = {"--simulation", BenchServe.class.getName(),
        "--results-folder", results.toString()};
    Map<String, String> before = properties();
    // the flags go over parsed, not as words to parse again (HandOver); the
    // properties a user may have set for gatling:test must not add to them
    System.clearProperty(CommandLine.ARGS_FILE_PROPERTY);
    System.clearProperty(CommandLine.ARGS_PROPERTY);
    HandOver.give(benchArgs);
    System.setProperty(RunResults.RESULTS_FOLDER_PROPERTY, results.toString());
    // a refusal's stack trace goes with the run, not into a target/ of the current folder
    System.setProperty(PluginLogging.LOG_FILE_PROPERTY,
        results.resolve(CRASH_LOG).toString());
    before.putAll(LeanStart.beforeGatling());
    try {
      // Gatling's launcher ships with its HTML report (gatling-charts-highcharts), which the
      // plugin does not depend on: users' projects bring their own
      Class<?> gatling = Class.forName("io.gatling.app.Gatling$");
      Object module = gatling.getField("MODULE$").get(null);
      int status = (Integer) gatling.getMethod("fromArgs", String[].class)
          .invoke(module, (Object) gatlingArgs);
      // the run's verdict (no request succeeded, results not written) outranks Gatling's 0
      int verdict = RunResults.takeExitStatus();
      return verdict != 0 ? verdict : status;
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("Gatling's launcher (io.gatling.highcharts:"
          + "gatling-charts-highcharts) is not on the class path", e);
    } catch (InvocationTargetException e) {
      // Gatling logged it, and the plugin's log filter printed its one line: exit as the
      // JVM gatling:test forks does, 1 for a refused run, 255 for a crash
      return refused(e) ? 1 : 255;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot start Gatling: " + e, e);
    } finally {
      HandOver.clear();
      // a JVM that goes on (a test, an embedding tool) gets its own settings back
      before.forEach((key, value) -> {
        if (value == null) {
          System.clearProperty(key);
        } else {
          System.setProperty(key, value);
        }
      });
    }
  }

  private static boolean refused(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IllegalArgumentException || t instanceof IllegalStateException) {
        return true;
      }
    }
    return false;
  }

  private static Map<String, String> properties() {
    Map<String, String> values = new HashMap<>();
    for (String key : List.of(CommandLine.ARGS_FILE_PROPERTY, CommandLine.ARGS_PROPERTY,
        RunResults.RESULTS_FOLDER_PROPERTY, PluginLogging.LOG_FILE_PROPERTY)) {
      values.put(key, System.getProperty(key));
    }
    return values;
  }
}
