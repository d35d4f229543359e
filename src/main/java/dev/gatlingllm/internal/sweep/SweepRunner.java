package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.internal.http.AuxHttp;
import dev.gatlingllm.internal.http.AuxHttpException;
import dev.gatlingllm.sweep.SlaVariable;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What every benchmark sweep mode shares: the experiment's folder (vLLM's layout,
 * {@code <output>/<timestamp>/SERVE-k=v-...-BENCH-k=v-.../run=N.json}), the walk over the
 * server and benchmark combinations with each server up, a point's {@code --num-runs} forked
 * runs (reusing run files already there), and the records, failures and answers collected for
 * the summary at the end. The modes themselves ({@link ServeSweep}, {@link ServeSlaSweep},
 * {@link ServeWorkloadSweep}, {@link RepeatedRuns}) say what runs at each point.
 */
final class SweepRunner {

  static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss",
      Locale.ROOT);
  /** The result keys that hold per-request arrays: they stay in the run's own result.json. */
  private static final Set<String> DETAILED = Set.of("input_lens", "output_lens", "start_times",
      "ttfts", "itls", "generated_texts", "errors");

  private final SweepConfig config;
  private final PrintStream out;
  private final RunLauncher launcher;
  private final RunArgs runArgs;
  private final Path root;
  private final String timestamp;
  /** Every run's record by its file: points shared by several SLA searches count once. */
  private final Map<Path, Map<String, Object>> records = new LinkedHashMap<>();
  private final List<String> failures = new ArrayList<>();
  private final List<SweepOutcome.SlaAnswer> answers = new ArrayList<>();
  /** The spread of each point run more than once, by the point's folder. */
  private final Map<String, RunStatistics> spreads = new LinkedHashMap<>();
  /** Whether the server refused --reset-prefix-cache's POST: said once, not tried again. */
  private boolean prefixResetRefused;
  /**
   * Repeated runs of one benchmark: a table of one point and the sweep's flags are moot, and
   * the user's percentile metrics are kept.
   */
  private final boolean repeated;

  /**
   * @param repeated whether this is one benchmark run again ({@link RepeatedRuns}) rather
   *                 than a sweep
   */
  SweepRunner(SweepConfig config, boolean repeated) {
    this.config = config;
    this.out = config.out();
    this.launcher = SweepAccess.launcher(config);
    this.repeated = repeated;
    this.runArgs = new RunArgs(config, repeated);
    this.timestamp = config.resume() != null ? config.resume()
        : config.experimentName() != null ? config.experimentName()
        : LocalDateTime.now().format(TIMESTAMP);
    this.root = config.outputDir().resolve(timestamp);
    if (config.resume() != null && !Files.isDirectory(root)) {
      throw new IllegalArgumentException("Cannot resume from non-existent directory ("
          + root + ")");
    }
    if (config.resume() == null && config.experimentName() != null && Files.exists(root)
        && !config.dryRun()) {
      // vLLM's rule: a named experiment is only ever continued on purpose
      throw new IllegalArgumentException("The experiment folder " + root + " already exists: "
          + "give --resume to continue it, or another -e/--experiment-name");
    }
  }

  Path root() {
    return root;
  }

  SweepConfig config() {
    return config;
  }

  RunArgs runArgs() {
    return runArgs;
  }

  /** The records of the runs so far, by their files. */
  Map<Path, Map<String, Object>> records() {
    return records;
  }

  /** The statistics of the point in {@code point} (relative to the root), if it ran twice. */
  RunStatistics spread(String point) {
    return spreads.get(point);
  }

  void answer(SweepOutcome.SlaAnswer answer) {
    answers.add(answer);
  }

  /** What a mode does at one point (a server combination with a benchmark combination). */
  interface PointWork {
    void run(CombinationServer server, Map<String, Object> serve, Map<String, Object> bench,
        Path base);
  }

  /**
   * Every server combination with the benchmark combinations linked to it: the server is
   * started when {@code missing} says some point's files are not there yet, then {@code work}
   * runs at each point, in the point's folder.
   */
  void eachPoint(Predicate<Path> missing, PointWork work) {
    for (Map<String, Object> serve : config.serveParams()) {
      List<Map<String, Object>> benches = benchesFor(serve);
      if (benches.isEmpty()) {
        continue;
      }
      boolean needed = false;
      for (Map<String, Object> bench : benches) {
        needed |= missing.test(root.resolve(Params.folderName(serve, bench)));
      }
      withServer(serve, benches.get(0), needed, server -> {
        for (Map<String, Object> bench : benches) {
          work.run(server, serve, bench, root.resolve(Params.folderName(serve, bench)));
        }
      });
    }
  }

  interface ServerWork {
    void run(CombinationServer server);
  }

  /** Starts the combination's server when there is one and it is needed, then the work. */
  void withServer(Map<String, Object> serve, Map<String, Object> firstBench,
      boolean needed, ServerWork work) {
    CombinationServer server = new CombinationServer(config, runArgs, root, serve);
    String name = Params.sanitize(serveName(serve));
    try {
      if (!config.serveCmd().isEmpty() && needed) {
        server.start(firstBench, name);
      }
      work.run(server);
    } catch (SweepFailure e) {
      server.kill();
      failures.add(name + ": " + e.getMessage());
      out.println("FAILED: " + name + ": " + e.getMessage());
    } finally {
      server.close();
    }
  }

  private static String serveName(Map<String, Object> serve) {
    StringBuilder s = new StringBuilder("SERVE");
    serve.forEach((k, v) -> s.append('-').append(k).append('=').append(Params.text(v)));
    return s.toString();
  }

  private List<Map<String, Object>> benchesFor(Map<String, Object> serve) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> bench : config.benchParams()) {
      if (Params.linked(serve, bench, config.linkVars())) {
        out.add(bench);
      }
    }
    if (out.isEmpty()) {
      this.out.println("Skipping server combination " + serve + ": no benchmark combination "
          + "matches it on --link-vars");
    }
    return out;
  }

  boolean missingRuns(Path point) {
    for (int n = 0; n < config.numRuns(); n++) {
      if (!Files.exists(runFile(point, n))) {
        return true;
      }
    }
    return false;
  }

  private static Path runFile(Path point, int n) {
    return point.resolve("run=" + n + ".json");
  }

  /**
   * A search or scan places its next load from these runs: with every one failed (under
   * {@code --continue-on-error}) it cannot go on, and its combination fails.
   */
  static List<Map<String, Object>> measured(List<Map<String, Object>> runs,
      Map<String, Object> overrides) {
    if (runs != null && runs.isEmpty()) {
      throw new SweepFailure("every run with " + overrides + " failed, and the next load is "
          + "placed from its results");
    }
    return runs;
  }

  /**
   * vllm-bench's {@code --reset-prefix-cache}: {@code POST /reset_prefix_cache} before each
   * run, so that no run finds the prompts of the one before cached. A server that does not
   * answer it (vLLM answers it with {@code VLLM_SERVER_DEV_MODE=1}) is said once, and the
   * sweep goes on without resets. Each replica ({@code --base-url} repeated) is reset: each has
   * its own cache.
   */
  private void resetPrefixCache(Map<String, Object> overrides) {
    if (!config.resetPrefixCache() || prefixResetRefused) {
      return;
    }
    for (String baseUrl : runArgs.baseUrls(overrides)) {
      String url = baseUrl + "/reset_prefix_cache";
      try {
        AuxHttp.post(URI.create(url), new byte[0], "application/json")
            .connectTimeout(Duration.ofSeconds(5)).timeout(Duration.ofSeconds(60)).send()
            .requireOk();
        out.println("Reset the prefix cache: POST " + url);
      } catch (AuxHttpException e) {
        prefixResetRefused = true;
        out.println("WARNING: --reset-prefix-cache: " + e.getMessage() + "; the sweep goes on "
            + "without resetting the server's prefix cache (vLLM answers it when started with "
            + "VLLM_SERVER_DEV_MODE=1)");
        return;
      }
    }
  }

  /**
   * Runs one point {@code --num-runs} times, reusing run files already there.
   *
   * @return the runs' records; null after a dry run
   */
  List<Map<String, Object>> runPoint(CombinationServer server, Map<String, Object> serve,
      Map<String, Object> overrides, Path point) {
    warmUp(server, overrides, point);
    List<Map<String, Object>> data = new ArrayList<>();
    boolean freshSeeds = config.numRuns() > 1 && !runArgs.seedFixed(overrides);
    for (int n = 0; n < config.numRuns(); n++) {
      Path file = runFile(point, n);
      Path runDir = point.resolve("run=" + n);
      List<String> args = runArgs.of(overrides, runDir);
      if (freshSeeds) {
        // run n draws its own arrivals and prompts; run 0 keeps vLLM's default seed 0
        args = Params.overrideBench(args, Map.of("seed", n));
      }
      out.println("[BEGIN BENCHMARK]");
      out.println("Benchmark overrides: " + overrides);
      out.println("Run Number: " + n);
      out.println("Benchmark command: BenchServe " + ForkedRun.shellJoin(args));
      out.println("Output file: " + file);
      if (Files.exists(file)) {
        out.println("Found existing results. Skipping.");
        Map<String, Object> existing = Params.readObject(file);
        data.add(existing);
        records.put(file, existing);
        continue;
      }
      if (config.dryRun()) {
        out.println("[END BENCHMARK]");
        continue;
      }
      deleteTree(runDir); // what a failed attempt left
      Path failure = point.resolve("run=" + n + ".failure.json");
      Map<String, Object> result;
      resetPrefixCache(overrides);
      try {
        result = launcher.run(args, runDir);
        Files.deleteIfExists(failure);
      } catch (SweepFailure e) {
        if (!config.continueOnError()) {
          throw e;
        }
        recordFailure(failure, n, overrides, args, e);
        server.afterBench();
        out.println("[END BENCHMARK]");
        continue;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot remove " + failure + ": " + e.getMessage(), e);
      }
      server.afterBench();
      Map<String, Object> record = new LinkedHashMap<>();
      result.forEach((k, v) -> {
        if (!DETAILED.contains(k)) {
          record.put(k, v);
        }
      });
      record.put("run_number", n);
      if (!record.containsKey(PhaseSummary.KEY)) { // the result has them with --save-detailed
        PhaseSummary.of(runDir).ifPresent(p -> record.put(PhaseSummary.KEY, p));
      }
      record.put(RunFlags.KEY, RunFlags.of(result));
      record.putAll(withoutName(serve));
      overrides.forEach((k, v) -> {
        if (!k.equals(Params.NAME_KEY)) {
          record.putIfAbsent(k, v);
        }
      });
      if (serve.containsKey(Params.NAME_KEY) || overrides.containsKey(Params.NAME_KEY)) {
        record.put(Params.NAME_KEY, nameOf(serve, overrides));
      }
      record.put(SweepData.POINT_KEY, root.relativize(point).toString());
      record.put(SweepData.RUN_KEY, root.relativize(runDir).toString());
      write(file, record);
      data.add(record);
      records.put(file, record);
      out.println("[END BENCHMARK]");
    }
    if (config.dryRun() && data.size() < config.numRuns()) {
      return null;
    }
    write(point.resolve("summary.json"), data);
    if (data.size() > 1) {
      RunStatistics stats = RunStatistics.of(data);
      write(point.resolve(RunStatistics.FILE_NAME), stats.toJson());
      spreads.put(root.relativize(point).toString(), stats);
    }
    return data;
  }

  /**
   * {@code --warmup-num-prompts}: one unmeasured run of the point's flags with that many
   * prompts, before its runs (a cold server's first requests compile kernels and fill caches),
   * kept as {@code warmup.json} beside them, never read as a run. Skipped when the point's
   * runs are all there already (a resumed sweep).
   */
  private void warmUp(CombinationServer server, Map<String, Object> overrides, Path point) {
    if (config.warmupNumPrompts() == 0 || config.dryRun() || !missingRuns(point)) {
      return;
    }
    Map<String, Object> warm = new LinkedHashMap<>(overrides);
    warm.put("num_prompts", config.warmupNumPrompts());
    Path runDir = point.resolve("warmup");
    List<String> args = runArgs.of(warm, runDir);
    out.println("[BEGIN WARMUP]");
    out.println("Warm-up command: BenchServe " + ForkedRun.shellJoin(args));
    deleteTree(runDir);
    Map<String, Object> result = launcher.run(args, runDir);
    server.afterBench();
    Map<String, Object> record = new LinkedHashMap<>();
    result.forEach((k, v) -> {
      if (!DETAILED.contains(k)) {
        record.put(k, v);
      }
    });
    write(point.resolve("warmup.json"), record);
    out.println("[END WARMUP]");
  }

  /**
   * {@code --continue-on-error}: the failed run's {@code run=N.failure.json} (its number, the
   * combination, its flags and why it failed), a line in the failures, and the sweep goes on;
   * {@code --resume} runs it again.
   */
  private void recordFailure(Path file, int n, Map<String, Object> overrides, List<String> args,
      SweepFailure e) {
    Map<String, Object> failure = new LinkedHashMap<>();
    failure.put("run_number", n);
    failure.put("overrides", overrides);
    failure.put("bench_args", args);
    failure.put("error", e.getMessage());
    write(file, failure);
    failures.add(root.relativize(file.getParent()) + " run " + n + ": "
        + e.getMessage().lines().findFirst().orElse(""));
    out.println("FAILED (continuing, --continue-on-error): " + file);
  }

  /** The combination without its name ({@value Params#NAME_KEY}), as a record holds it. */
  static Map<String, Object> withoutName(Map<String, Object> comb) {
    Map<String, Object> m = new LinkedHashMap<>(comb);
    m.remove(Params.NAME_KEY);
    return m;
  }

  private static String nameOf(Map<String, Object> serve, Map<String, Object> bench) {
    List<String> names = new ArrayList<>();
    if (serve.get(Params.NAME_KEY) != null) {
      names.add(String.valueOf(serve.get(Params.NAME_KEY)));
    }
    if (bench.get(Params.NAME_KEY) != null) {
      names.add(String.valueOf(bench.get(Params.NAME_KEY)));
    }
    return String.join("+", names);
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clear " + dir + ": " + e.getMessage(), e);
    }
  }

  static void write(Path file, Object value) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Params.json().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), value);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  SweepOutcome finish(SlaVariable variable) {
    if (!config.dryRun()) {
      List<Map<String, Object>> all = new ArrayList<>(records.values());
      Csv.write(root.resolve("summary.csv"), all);
      if (!answers.isEmpty()) {
        write(root.resolve("sla-results.json"), answers);
      }
      if (!repeated) {
        out.print(SweepTable.consoleText(all, failures, config.summaryPercentiles()));
      }
      String swept = SweepReport.sweptKey(config, variable);
      try {
        SweepReport.write(root, all, answers, failures, swept,
            SweepReport.curveKeys(config, swept), spreads, out);
      } catch (RuntimeException e) {
        out.println("The sweep report could not be written: " + e.getMessage());
        failures.add("sweep report: " + e.getMessage());
      }
    }
    SweepOutcome outcome = new SweepOutcome(root, List.copyOf(records.values()),
        List.copyOf(answers),
        List.copyOf(failures));
    if (!failures.isEmpty()) {
      throw new SweepFailure(failures.size() + " combination(s) failed:\n  - "
          + String.join("\n  - ", failures) + (repeated ? ""
          : config.continueOnError() ? "\nThe sweep went on (--continue-on-error). Use "
          + "`--resume " + timestamp + "` to run the failed runs again."
          : "\nThe script was terminated early. Use `--resume " + timestamp + "` to continue "
          + "the script from its last checkpoint."),
          outcome);
    }
    return outcome;
  }
}
