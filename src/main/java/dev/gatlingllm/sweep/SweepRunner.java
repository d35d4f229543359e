package dev.gatlingllm.sweep;

import dev.gatlingllm.cli.BenchArgs;
import dev.gatlingllm.http.AuxHttp;
import dev.gatlingllm.http.AuxHttpException;
import dev.gatlingllm.metrics.Percentiles;
import dev.gatlingllm.metrics.PyFormat;
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
import java.util.function.ToDoubleFunction;

/**
 * Runs the sweeps: the grid ({@code serve}), the SLA search ({@code serve_sla}) and the even
 * load scan ({@code workload}), each point {@code --num-runs} times, with vLLM's folder
 * layout: {@code <output>/<timestamp>/SERVE-k=v-...-BENCH-k=v-.../run=N.json}.
 */
final class SweepRunner {

  /** The value that stands for an unlimited rate or concurrency in the SLA search (vLLM's). */
  static final int SLA_INF_VALUE = 65536;
  static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss",
      Locale.ROOT);
  /** The result keys that hold per-request arrays: they stay in the run's own result.json. */
  private static final Set<String> DETAILED = Set.of("input_lens", "output_lens", "start_times",
      "ttfts", "itls", "generated_texts", "errors");
  /** The percentile metrics of every run of vLLM's sweep. */
  static final String SWEEP_METRICS = "ttft,tpot,itl,e2el";
  /** The drop-in's flags the sweep sets for each run itself. */
  private static final Set<String> RESULT_FLAGS = Set.of("save-result", "result-dir",
      "result-filename", "append-result");

  private final SweepConfig config;
  private final PrintStream out;
  private final RunLauncher launcher;
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
  /** Whether replacing the user's --percentile-metrics was said already. */
  private boolean metricsReplaced;
  /**
   * Repeated runs of one benchmark: a table of one point and the sweep's flags are moot, and
   * the user's percentile metrics are kept.
   */
  private boolean repeated;

  SweepRunner(SweepConfig config) {
    this.config = config;
    this.out = config.out();
    this.launcher = config.launcher();
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

  // ---------------------------------------------------------------- serve (grid)

  SweepOutcome serve() {
    eachPoint(this::missingRuns, this::runPoint);
    return finish(null);
  }

  // ---------------------------------------------------------------- repeated runs

  /**
   * One benchmark {@code --num-runs} times, its runs directly in the output folder
   * ({@code run=N/}, {@code run=N.json}) with their {@value RunStatistics#FILE_NAME}.
   */
  SweepOutcome repeat() {
    repeated = true;
    Map<String, Object> none = Map.of();
    withServer(none, none, missingRuns(root), server -> runPoint(server, none, none, root));
    RunStatistics stats = spreads.get(""); // the point is the sweep's folder itself
    if (stats != null) {
      out.print(stats.consoleText());
      for (Map<String, Object> r : records.values()) {
        RunFlags.in(r).forEach(f -> out.println("FLAGGED " + r.get(SweepData.RUN_KEY) + ": "
            + f));
      }
      out.println("Statistics of the runs: " + root.resolve(RunStatistics.FILE_NAME));
    }
    return finish(null);
  }

  // ---------------------------------------------------------------- serve_sla

  SweepOutcome serveSla(List<Map<String, SlaCriterion>> slas, SlaVariable variable) {
    refuseOverride(variable, "SLA mode");
    eachPoint(base -> slas.stream().anyMatch(sla -> !Files.exists(slaFile(base, sla))),
        (server, serve, bench, base) -> {
          for (Map<String, SlaCriterion> sla : slas) {
            searchSla(server, serve, bench, sla, variable, base);
          }
        });
    return finish(variable);
  }

  private static Path slaFile(Path base, Map<String, SlaCriterion> sla) {
    return base.resolve(Params.sanitize("SLA-" + SlaCriterion.format(sla)) + ".json");
  }

  private void searchSla(Server server, Map<String, Object> serve, Map<String, Object> bench,
      Map<String, SlaCriterion> sla, SlaVariable variable, Path base) {
    out.println("[SLA START]");
    List<String> conditions = new ArrayList<>();
    sla.forEach((k, c) -> conditions.add(c.format(k)));
    out.println("SLA criteria: " + String.join(", ", conditions));
    List<Map<String, Object>> all = new ArrayList<>();
    List<Map<String, Object>> first = runLoad(server, serve, bench, variable, SLA_INF_VALUE,
        base);
    if (first == null) {
      out.println("Omitting SLA search.");
      out.println("[SLA END]");
      return;
    }
    all.addAll(first);
    int init = (int) Math.max(1, Math.ceil(meanEstimate(first, variable)));
    out.println("Initial " + variable.key() + " to search: " + init + " " + unit(variable)
        + ".");
    List<Map<String, Object>> tested = new ArrayList<>();
    SlaSearch.Result result = SlaSearch.search(init, SLA_INF_VALUE, value -> {
      out.println("Testing " + variable.key() + ": " + value + " " + unit(variable));
      List<Map<String, Object>> data = runLoad(server, serve, bench, variable, value, base);
      all.addAll(data);
      Map<String, Object> step = new LinkedHashMap<>();
      step.put("value", value);
      boolean ok = true;
      for (Map.Entry<String, SlaCriterion> c : sla.entrySet()) {
        double mean = meanOf(data, c.getKey());
        boolean holds = c.getValue().holds(mean);
        out.println("Validating SLA: " + c.getValue().format(c.getKey() + " = "
            + String.format(Locale.ROOT, "%.2f", mean)) + " | " + (holds ? "PASSED" : "FAILED"));
        step.put(c.getKey(), mean);
        ok &= holds;
      }
      out.println(ok ? "SLA criteria are met." : "SLA criteria are not met.");
      step.put("passed", ok);
      tested.add(step);
      return ok;
    });
    out.println("Range of " + variable.key() + " to search: [" + result.lowerBound() + ", "
        + result.upperBound() + "] " + unit(variable) + ".");
    if (result.value() == 0) {
      out.println("No " + variable.key() + " meets the SLA (not even 1).");
    } else {
      out.println("Maximum " + variable.key() + " for SLA: " + result.value() + " "
          + unit(variable) + "." + (result.capped() ? " (the SLA held up to the largest value "
          + "tried, " + SLA_INF_VALUE + ", which stands for unlimited)" : ""));
    }
    write(slaFile(base, sla), all);
    answers.add(new SweepOutcome.SlaAnswer(root.relativize(base).toString(),
        SlaCriterion.format(sla), variable.key(), result.value(), result.capped(), tested));
    out.println("[SLA END]");
  }

  private static String unit(SlaVariable variable) {
    return variable == SlaVariable.REQUEST_RATE ? "req/s" : "concurrent requests";
  }

  private List<Map<String, Object>> runLoad(Server server, Map<String, Object> serve,
      Map<String, Object> bench, SlaVariable variable, Object value, Path base) {
    Map<String, Object> overrides = new LinkedHashMap<>(bench);
    overrides.put(variable.key(), value);
    return measured(runPoint(server, serve, overrides, base.resolve(variable.key() + "="
        + Params.text(value))), overrides);
  }

  /**
   * A search or scan places its next load from these runs: with every one failed (under
   * {@code --continue-on-error}) it cannot go on, and its combination fails.
   */
  private static List<Map<String, Object>> measured(List<Map<String, Object>> runs,
      Map<String, Object> overrides) {
    if (runs != null && runs.isEmpty()) {
      throw new SweepFailure("every run with " + overrides + " failed, and the next load is "
          + "placed from its results");
    }
    return runs;
  }

  // ---------------------------------------------------------------- workload

  SweepOutcome workload(SlaVariable variable, int iters) {
    WorkloadScan.checkIters(iters);
    refuseOverride(variable, "workload mode");
    eachPoint(base -> !Files.exists(workloadFile(base, variable)),
        (server, serve, bench, base) -> scan(server, serve, bench, variable, iters, base));
    return finish(variable);
  }

  /** Every run of one scan, beside its runs' folders: it marks the scan done for --resume. */
  private static Path workloadFile(Path base, SlaVariable variable) {
    return base.resolveSibling(base.getFileName() + "-WL-" + variable.key() + ".json");
  }

  /**
   * vLLM's {@code serve_workload} for one combination: the serial end (concurrency 1, the
   * variable 1), the batch end (concurrency and the variable = the number of prompts), then
   * the loads {@link WorkloadScan#points} places between the two ends' estimates. Each load's
   * runs go to {@code <combination>-WL-<variable>=<value>}, the ends' combination holding
   * their concurrency, as vLLM names them.
   */
  private void scan(Server server, Map<String, Object> serve, Map<String, Object> bench,
      SlaVariable variable, int iters, Path base) {
    out.println("[WL START]");
    out.println("Serve parameters: " + (serve.isEmpty() ? "(None)" : serve));
    out.println("Bench parameters: " + (bench.isEmpty() ? "(None)" : bench));
    out.println("Number of workload iterations: " + iters);
    int datasetSize = BenchArgs.parse(Params.overrideBench(config.benchArgs(), bench))
        .integer("num-prompts").orElseThrow(); // vLLM's default when not given
    out.println("Dataset size: " + datasetSize);
    Map<String, Object> serialBench = new LinkedHashMap<>(bench);
    serialBench.put("max_concurrency", 1);
    List<Map<String, Object>> serial = runWorkload(server, serve, serialBench, variable, 1);
    Map<String, Object> batchBench = new LinkedHashMap<>(bench);
    batchBench.put("max_concurrency", datasetSize);
    List<Map<String, Object>> batch = runWorkload(server, serve, batchBench, variable,
        datasetSize);
    if (serial == null || batch == null) {
      out.println("Omitting intermediate Workload iterations.");
      out.println("[WL END]");
      return;
    }
    int serialValue = (int) Math.ceil(meanEstimate(serial, variable));
    out.println("Serial inference: " + variable.key() + "=" + serialValue);
    int batchValue = (int) Math.floor(meanEstimate(batch, variable));
    out.println("Batch inference: " + variable.key() + "=" + batchValue);
    List<Map<String, Object>> all = new ArrayList<>(serial);
    for (int load : WorkloadScan.points(serialValue, batchValue, iters)) {
      out.println("Exploring: " + variable.key() + "=" + load);
      all.addAll(runWorkload(server, serve, bench, variable, load));
    }
    all.addAll(batch);
    write(workloadFile(base, variable), all);
    out.println("[WL END]");
  }

  /** One load of a scan: the combination with the variable set, in its WL- folder. */
  private List<Map<String, Object>> runWorkload(Server server, Map<String, Object> serve,
      Map<String, Object> bench, SlaVariable variable, int value) {
    Map<String, Object> overrides = new LinkedHashMap<>(bench);
    overrides.put(variable.key(), value);
    Path point = root.resolve(Params.folderName(serve, bench)
        + Params.sanitize("-WL-" + variable.key() + "=" + value));
    return measured(runPoint(server, serve, overrides, point), overrides);
  }

  // ---------------------------------------------------------------- shared

  private void refuseOverride(SlaVariable variable, String mode) {
    for (Map<String, Object> bench : config.benchParams()) {
      for (String k : bench.keySet()) {
        if (k.replace('-', '_').equals(variable.key())) {
          throw new IllegalArgumentException("You should not override `" + variable.key()
              + "` in `bench_params` in " + mode + ", since it is supposed to be determined "
              + "automatically.");
        }
      }
    }
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

  private boolean missingRuns(Path point) {
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

  private static double meanEstimate(List<Map<String, Object>> runs, SlaVariable variable) {
    return mean(runs, variable::estimate);
  }

  private static double meanOf(List<Map<String, Object>> runs, String key) {
    return mean(runs, run -> SlaVariable.number(run, key));
  }

  private static double mean(List<Map<String, Object>> runs,
      ToDoubleFunction<Map<String, Object>> value) {
    double sum = 0;
    for (Map<String, Object> run : runs) {
      sum += value.applyAsDouble(run);
    }
    return sum / runs.size();
  }

  /** The drop-in's flags of one run: the combination applied, the result flags set. */
  List<String> benchArgs(Map<String, Object> overrides, Path runDir) {
    List<String> args = Params.overrideBench(config.benchArgs(), overrides);
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String word = args.get(i);
      String name = word.startsWith("--") ? word.substring(2).split("=", 2)[0].replace('_', '-')
          : "";
      if (RESULT_FLAGS.contains(name)) {
        boolean hasValue = !word.contains("=") && !name.equals("save-result")
            && !name.equals("append-result");
        if (hasValue) {
          i++;
        }
        continue;
      }
      kept.add(word);
    }
    kept = withSummaryPercentiles(withSweepMetrics(kept));
    kept.addAll(List.of("--save-result", "--result-dir", runDir.toAbsolutePath().toString(),
        "--result-filename", ForkedRun.RESULT_FILE));
    try {
      BenchArgs.parse(kept);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the benchmark flags with " + overrides + " applied: "
          + e.getMessage(), e);
    }
    return kept;
  }

  /**
   * The flags with vLLM's sweep metrics: every run of {@code vllm bench sweep} gets
   * {@code --percentile-metrics ttft,tpot,itl,e2el} after the user's flags, so it wins over
   * one the user gave (the estimates need {@code mean_e2el_ms}, the default plot
   * {@code p99_e2el_ms}); replacing a user's own list is said once. Repeated runs of one
   * benchmark ({@code --num-runs}, not a sweep in vLLM) keep the user's list with {@code e2el}
   * added. Pooling backends (no tokens streamed: {@code e2el} alone is their default) keep
   * their flags.
   */
  List<String> withSweepMetrics(List<String> args) {
    BenchArgs parsed = BenchArgs.parse(args);
    String backend = parsed.value("backend").orElse("openai");
    if (backend.contains("embed") || backend.contains("rerank")) {
      return args;
    }
    String metrics = parsed.value("percentile-metrics").orElse("ttft,tpot,itl");
    boolean hasE2el = List.of(metrics.split(",")).stream().map(String::strip)
        .anyMatch("e2el"::equals);
    String wanted = repeated ? (hasE2el ? metrics : metrics + ",e2el") : SWEEP_METRICS;
    if (wanted.equals(metrics)) {
      return args;
    }
    if (parsed.has("percentile-metrics") && !repeated && !metricsReplaced) {
      metricsReplaced = true;
      out.println("--percentile-metrics " + metrics + " is replaced by " + SWEEP_METRICS
          + " in every run, as vLLM's sweep does");
    }
    return new ArrayList<>(Params.overrideBench(args, Map.of("percentile-metrics", wanted)));
  }

  /**
   * The flags with {@code --sweep-summary-percentiles} added to {@code --metric-percentiles}
   * (after its own, repeats dropped), as {@code vllm-bench} merges them: the table's columns
   * need them in every run's result.
   */
  private List<String> withSummaryPercentiles(List<String> args) {
    if (config.summaryPercentiles().isEmpty()) {
      return args;
    }
    List<Double> merged = new ArrayList<>();
    BenchArgs parsed = BenchArgs.parse(args);
    for (double p : Percentiles.parse(parsed.value("metric-percentiles").orElse("99"))) {
      if (!merged.contains(p)) {
        merged.add(p);
      }
    }
    config.summaryPercentiles().forEach(p -> {
      if (!merged.contains(p)) {
        merged.add(p);
      }
    });
    return new ArrayList<>(Params.overrideBench(args, Map.of("metric-percentiles",
        String.join(",", merged.stream().map(PyFormat::percentileWord).toList()))));
  }

  /**
   * vllm-bench's {@code --reset-prefix-cache}: {@code POST /reset_prefix_cache} before each
   * run, so that no run finds the prompts of the one before cached. A server that does not
   * answer it (vLLM answers it with {@code VLLM_SERVER_DEV_MODE=1}) is said once, and the
   * sweep goes on without resets.
   */
  private void resetPrefixCache(Map<String, Object> overrides) {
    if (!config.resetPrefixCache() || prefixResetRefused) {
      return;
    }
    String url = baseUrl(overrides) + "/reset_prefix_cache";
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
    }
  }

  /**
   * Runs one point {@code --num-runs} times, reusing run files already there.
   *
   * @return the runs' records; null after a dry run
   */
  private List<Map<String, Object>> runPoint(Server server, Map<String, Object> serve,
      Map<String, Object> overrides, Path point) {
    warmUp(server, overrides, point);
    List<Map<String, Object>> data = new ArrayList<>();
    boolean freshSeeds = config.numRuns() > 1 && !seedFixed(overrides);
    for (int n = 0; n < config.numRuns(); n++) {
      Path file = runFile(point, n);
      Path runDir = point.resolve("run=" + n);
      List<String> args = benchArgs(overrides, runDir);
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
  private void warmUp(Server server, Map<String, Object> overrides, Path point) {
    if (config.warmupNumPrompts() == 0 || config.dryRun() || !missingRuns(point)) {
      return;
    }
    Map<String, Object> warm = new LinkedHashMap<>(overrides);
    warm.put("num_prompts", config.warmupNumPrompts());
    Path runDir = point.resolve("warmup");
    List<String> args = benchArgs(warm, runDir);
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

  /** Whether the user fixed the seed, in the benchmark flags or in the combination. */
  private boolean seedFixed(Map<String, Object> overrides) {
    return overrides.containsKey("seed") || BenchArgs.parse(config.benchArgs()).has("seed");
  }

  private static Map<String, Object> withoutName(Map<String, Object> comb) {
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

  /** What a mode does at one point (a server combination with a benchmark combination). */
  private interface PointWork {
    void run(Server server, Map<String, Object> serve, Map<String, Object> bench, Path base);
  }

  /**
   * Every server combination with the benchmark combinations linked to it: the server is
   * started when {@code missing} says some point's files are not there yet, then {@code work}
   * runs at each point, in the point's folder.
   */
  private void eachPoint(Predicate<Path> missing, PointWork work) {
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

  private interface ServerWork {
    void run(Server server);
  }

  /** Starts the combination's server when there is one and it is needed, then the work. */
  private void withServer(Map<String, Object> serve, Map<String, Object> firstBench,
      boolean needed, ServerWork work) {
    Server server = new Server(serve);
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

  /** The server of one server combination; a no-op without {@code --serve-cmd}. */
  private final class Server {
    private final Map<String, Object> serve;
    private ServerProcess process;
    private String baseUrl;
    private Path log;
    private boolean started;

    Server(Map<String, Object> serve) {
      this.serve = serve;
    }

    void start(Map<String, Object> firstBench, String name) {
      List<String> command = Params.overrideServe(config.serveCmd(), serve);
      out.println("[BEGIN SERVER]");
      out.println("Server overrides: " + serve);
      out.println("Server command: " + ForkedRun.shellJoin(command));
      started = true;
      baseUrl = baseUrl(firstBench);
      log = root.resolve(name + ".server.log");
      if (config.dryRun()) {
        return;
      }
      process = ServerProcess.start(command, log, config.showStdout(), out);
      process.awaitReady(URI.create(baseUrl + "/health"), config.serverReadyTimeout());
      out.println("Server ready: " + baseUrl + " (pid " + process.pid() + ", output in " + log
          + ")");
    }

    void afterBench() {
      if (config.serveCmd().isEmpty() && config.afterBenchCmd().isEmpty()) {
        return;
      }
      ServerProcess.afterBench(config.afterBenchCmd(), config.serveCmd(),
          baseUrl != null ? baseUrl : baseUrl(Map.of()), config.showStdout(), out,
          root.resolve("after-bench.log"));
    }

    void kill() {
      if (process != null) {
        process.kill();
      }
    }

    void close() {
      if (process != null) {
        process.close();
      }
      if (started) {
        out.println("[END SERVER]");
      }
    }
  }

  /** The server's root URL as the benchmark flags give it. */
  String baseUrl(Map<String, Object> bench) {
    BenchArgs args = BenchArgs.parse(Params.overrideBench(config.benchArgs(), bench));
    if (args.has("base-url")) {
      String url = args.value("base-url").orElseThrow();
      return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
    return "http://" + args.value("host").orElse("127.0.0.1") + ":"
        + args.value("port").orElse("8000");
  }

  /** The keys the combinations set, in the order of the params files. */
  private List<String> paramKeys() {
    List<String> keys = new ArrayList<>(Params.keys(config.serveParams()));
    Params.keys(config.benchParams()).forEach(k -> {
      if (!keys.contains(k)) {
        keys.add(k);
      }
    });
    keys.remove(Params.NAME_KEY);
    return keys;
  }

  /**
   * The variable the sweep walks along: the searched one of a search or scan; in a grid the
   * load (the concurrency, else the rate) when the combinations set it, else the last key
   * they set. The curves are drawn along it; null for a grid without parameters.
   */
  private String sweptKey(SlaVariable variable) {
    if (variable != null) {
      return variable.key();
    }
    List<String> keys = paramKeys();
    for (String load : List.of("max_concurrency", "request_rate")) {
      for (String k : keys) {
        if (k.replace('-', '_').equals(load)) {
          return k;
        }
      }
    }
    return keys.isEmpty() ? null : keys.get(keys.size() - 1);
  }

  /** The keys the combinations vary, but the swept one: one curve per combination of them. */
  private List<String> curveKeys(String swept) {
    List<String> keys = paramKeys();
    keys.removeIf(k -> swept != null && k.replace('-', '_').equals(swept.replace('-', '_')));
    return keys;
  }

  private SweepOutcome finish(SlaVariable variable) {
    if (!config.dryRun()) {
      List<Map<String, Object>> all = new ArrayList<>(records.values());
      Csv.write(root.resolve("summary.csv"), all);
      if (!answers.isEmpty()) {
        write(root.resolve("sla-results.json"), answers);
      }
      if (!repeated) {
        out.print(SweepTable.consoleText(all, failures, config.summaryPercentiles()));
      }
      String swept = sweptKey(variable);
      try {
        SweepReport.write(root, all, answers, failures, swept, curveKeys(swept), spreads, out);
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
