package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.internal.cli.BenchArgs;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.protocol.RunResults;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One benchmark run as a fresh Gatling run in a JVM of its own, started through the launcher
 * as {@code gatling-llm bench serve <flags>} starts one (Gatling running {@code cli.BenchServe}),
 * with the JVM flags of {@code gatling:test}. Every run therefore starts equally cold: no run inherits JIT-compiled code,
 * loaded classes, a grown heap or warm connection pools from the one before.
 *
 * @param classpath  the runs' class path; null for this JVM's
 * @param jvmArgs    the runs' JVM flags
 * @param timeout    how long one run may take; null: no limit
 * @param showStdout whether a run's output is copied to {@code out} as it comes
 * @param out        where the sweep prints
 * @param simulation a simulation class of the user's (the DSL) run by Gatling's own main
 *                   instead of the drop-in; null for the drop-in
 */
public record ForkedRun(String classpath, List<String> jvmArgs, Duration timeout, boolean showStdout,
    PrintStream out, String simulation) implements RunLauncher {

  /** The result file the drop-in writes inside the run folder. */
  static final String RESULT_FILE = "result.json";
  static final String CONSOLE_FILE = "console.log";
  static final String GATLING_DIR = "gatling";
  /** The launcher's main class ({@code gatling-llm}), which depends on this package. */
  static final String LAUNCHER = "dev.gatlingllm.launcher.GatlingLlm";
  /** Gatling's own main, which runs a user's simulation class. */
  static final String GATLING = "io.gatling.app.Gatling";
  /**
   * The seed of a DSL simulation's run: the run number when the runs draw fresh arrivals. A
   * simulation passes {@code Long.getLong(SEED_PROPERTY, 0)} to its {@code seed(...)} calls.
   */
  public static final String SEED_PROPERTY = "llm.seed";
  /** Where bin/gatling-llm says its class-data archive is, when it has one. */
  static final String CDS_ARCHIVE_ENV = "GATLING_LLM_CDS_ARCHIVE";

  public ForkedRun {
    classpath = classpath != null ? classpath : currentClasspath();
  }

  /** The java command of a run (shown by {@code --dry-run} too). */
  List<String> command(List<String> benchArgs, Path runDir) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmArgs);
    // bin/gatling-llm's class-data archive, read-only: the drop-in's runs load the same
    // classes from the same class path, parsed once for all points, not once per point
    String archive = simulation == null ? System.getenv(CDS_ARCHIVE_ENV) : null;
    if (archive != null && Files.isRegularFile(Path.of(archive))) {
      command.add("-XX:SharedArchiveFile=" + archive);
      command.add("-Xlog:cds*=off");
      if (Runtime.version().feature() >= 24) {
        command.add("-Xlog:aot*=off");
      }
    }
    command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    // Netty loads its native transport: Java 22+ warns in four lines without it, 17 accepts it
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-cp");
    command.add(classpath);
    Path gatling = runDir.resolve(GATLING_DIR).toAbsolutePath();
    command.add("-D" + RunResults.RESULTS_FOLDER_PROPERTY + "=" + gatling);
    if (simulation != null) {
      BenchArgs.parse(benchArgs).value("seed")
          .ifPresent(seed -> command.add("-D" + SEED_PROPERTY + "=" + seed));
      command.addAll(List.of(GATLING, "--simulation", simulation, "--results-folder",
          gatling.toString()));
      return command;
    }
    command.addAll(List.of(LAUNCHER, "bench", "serve"));
    command.addAll(benchArgs);
    return command;
  }

  @Override
  public Map<String, Object> run(List<String> benchArgs, Path runDir) {
    Path console = runDir.resolve(CONSOLE_FILE);
    Process process;
    try {
      Files.createDirectories(runDir);
      process = Processes.start(command(benchArgs, runDir), console, showStdout ? out : null);
    } catch (IOException e) {
      throw new SweepFailure("cannot start the benchmark's JVM: " + e.getMessage(), e);
    }
    try {
      boolean done = timeout == null ? waitFor(process, Long.MAX_VALUE)
          : waitFor(process, timeout.toMillis());
      if (!done) {
        Processes.killTree(process.toHandle());
        throw new SweepFailure("the benchmark run did not finish within " + timeout.toSeconds()
            + " s (--run-timeout) and was killed; its console: " + console + "\n"
            + Processes.tail(console, 15));
      }
    } catch (InterruptedException e) {
      Processes.killTree(process.toHandle());
      Thread.currentThread().interrupt();
      throw new SweepFailure("interrupted; the benchmark run was killed", e);
    }
    Path result = runDir.resolve(RESULT_FILE);
    // A point at which no request succeeded (a server overloaded past its timeouts) is a
    // point of the sweep, written like any other: the sweep judges it, as vLLM's does.
    boolean measured = process.exitValue() == 0
        || process.exitValue() == RunResults.NO_REQUEST_SUCCEEDED_STATUS;
    if (simulation != null && measured) {
      copyDslResult(runDir.resolve(GATLING_DIR), result);
    }
    if (!measured || !Files.isRegularFile(result)) {
      throw new SweepFailure("the benchmark run failed (exit status " + process.exitValue()
          + (Files.isRegularFile(result) ? "" : ", no result JSON") + "); its console: "
          + console + "\n" + Processes.tail(console, 15));
    }
    return Params.readObject(result);
  }

  /**
   * A DSL simulation writes vLLM's result JSON under vLLM's file name into its Gatling run
   * folder: the one JSON there holding {@code request_throughput} is copied to
   * {@value #RESULT_FILE}, where the drop-in's runs have theirs.
   */
  private static void copyDslResult(Path gatling, Path result) {
    if (!Files.isDirectory(gatling)) {
      return;
    }
    try (var walk = Files.walk(gatling, 2)) {
      for (Path p : walk.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        if (Params.readObject(p).containsKey("request_throughput")) {
          Files.copy(p, result, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          return;
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new SweepFailure("cannot read the simulation's result JSON under " + gatling + ": "
          + e.getMessage(), e);
    }
  }

  private static boolean waitFor(Process process, long millis) throws InterruptedException {
    return process.waitFor(millis, TimeUnit.MILLISECONDS);
  }

  /**
   * This JVM's class path: the class loader's when it is a URL class loader (as under
   * {@code exec:java}, where {@code java.class.path} is Maven's own), else
   * {@code java.class.path}.
   */
  static String currentClasspath() {
    Set<String> entries = new LinkedHashSet<>();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    while (loader != null) {
      if (loader instanceof URLClassLoader urls) {
        for (URL url : urls.getURLs()) {
          try {
            entries.add(Path.of(url.toURI()).toString());
          } catch (URISyntaxException | IllegalArgumentException e) {
            // not a file: cannot be on a java command's class path
          }
        }
      }
      loader = loader.getParent();
    }
    String own = System.getProperty("java.class.path", "");
    boolean hasGatling = entries.stream().anyMatch(e -> e.contains("gatling-app"));
    if (!hasGatling) {
      entries.clear();
    }
    if (entries.isEmpty()) {
      return own;
    }
    return entries.stream().collect(Collectors.joining(File.pathSeparator));
  }

  /** Words quoted so that {@link CommandLine#split} gives them back as they are. */
  static String shellJoin(List<String> words) {
    return CommandLine.join(words);
  }
}
