package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.Sweep;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * vLLM's {@code vllm bench sweep startup} for any server command: for every
 * {@code --serve-params} × {@code --startup-params} combination, {@code --num-runs} runs of
 * what {@code vllm bench startup} measures, each a series of start-ups of the server command
 * timed from the process' start to the first 2xx answer of its health endpoint: cold ones
 * (each with an empty {@code VLLM_CACHE_ROOT}, as vLLM's cold start-ups get), unmeasured
 * warm-up ones, then warm ones. Each run's {@code run=N.json} holds vLLM's keys
 * ({@code avg_cold_startup_time}, {@code cold_startup_times}, {@code cold_startup_percentiles},
 * the same for warm), in seconds; each combination's runs are in its {@code summary.json},
 * every run in {@code summary.csv}.
 */
public final class StartupSweep {

  /** vLLM's start-up percentiles. */
  static final List<Integer> PERCENTAGES = List.of(10, 25, 50, 75, 90, 99);
  /** The {@code --startup-params} keys that set a run's start-up counts. */
  static final Set<String> ITERATION_KEYS = Set.of("num_iters_cold", "num_iters_warmup",
      "num_iters_warm");

  private final SweepConfig config;
  private final List<Map<String, Object>> startupParams;
  private final Iterations defaults;
  private final String baseUrl;
  private final PrintStream out;
  private final Path root;
  private final List<Map<String, Object>> records = new ArrayList<>();

  /**
   * The start-up counts of one run: vLLM's {@code --num-iters-cold} (3),
   * {@code --num-iters-warmup} (1), {@code --num-iters-warm} (3).
   */
  public record Iterations(int cold, int warmup, int warm) {

    static final Iterations VLLM = new Iterations(3, 1, 3);

    public Iterations {
      if (cold < 0 || warmup < 0 || warm < 0) {
        throw new IllegalArgumentException("the start-up counts must be at least 0, got cold "
            + cold + ", warm-up " + warmup + ", warm " + warm);
      }
      if (cold + warm == 0) {
        throw new IllegalArgumentException("a start-up run measures something: give "
            + "num_iters_cold or num_iters_warm above 0");
      }
    }

    /** These counts with a combination's {@code num_iters_*} keys applied. */
    Iterations with(Map<String, Object> startup) {
      return new Iterations(count(startup, "num_iters_cold", cold),
          count(startup, "num_iters_warmup", warmup), count(startup, "num_iters_warm", warm));
    }

    private static int count(Map<String, Object> startup, String key, int otherwise) {
      Object v = startup.get(key);
      if (v == null) {
        return otherwise;
      }
      if (v instanceof Integer i) {
        return i;
      }
      throw new IllegalArgumentException("--startup-params: " + key + " must be a whole "
          + "number, got " + v);
    }
  }

  /**
   * @param config        the server command and its combinations, the output folder (with
   *                      {@code -e} and {@code --resume}), {@code --num-runs},
   *                      {@code --server-ready-timeout}, {@code --show-stdout},
   *                      {@code --dry-run} and the console
   * @param startupParams the start-up combinations: {@code num_iters_*} keys set the counts,
   *                      any other key is a flag of the server command (as vLLM applies both
   *                      parameter files to one command)
   * @param defaults      the counts where a combination does not set them
   * @param baseUrl       the server's root URL, or null for the one its command's
   *                      {@code --host}/{@code --port} give (vLLM's 8000 when not given)
   */
  public StartupSweep(SweepConfig config, List<Map<String, Object>> startupParams, Iterations defaults,
      String baseUrl) {
    if (config.serveCmd().isEmpty()) {
      throw new IllegalArgumentException("startup times a server command: give --serve-cmd");
    }
    if (startupParams.isEmpty()) {
      throw new IllegalArgumentException("--startup-params: the list of combinations is empty; "
          + "give at least one (an empty object {} runs the command as it is)");
    }
    startupParams.forEach(defaults::with); // a bad count is refused before anything starts
    this.config = config;
    this.startupParams = List.copyOf(startupParams);
    this.defaults = defaults;
    this.baseUrl = baseUrl;
    this.out = config.out();
    String name = config.resume() != null ? config.resume()
        : config.experimentName() != null ? config.experimentName()
        : LocalDateTime.now().format(SweepRunner.TIMESTAMP);
    this.root = config.outputDir().resolve(name);
    if (config.resume() != null && !Files.isDirectory(root)) {
      throw new IllegalArgumentException("Cannot resume from non-existent directory ("
          + root + ")");
    }
    if (config.resume() == null && Files.exists(root) && !config.dryRun()) {
      throw new IllegalArgumentException("The experiment folder " + root + " already exists: "
          + "give --resume to continue it, or another -e/--experiment-name");
    }
  }

  public SweepOutcome run() {
    for (Map<String, Object> serve : config.serveParams()) {
      for (Map<String, Object> startup : startupParams) {
        runCombination(serve, startup);
      }
    }
    if (config.dryRun()) {
      out.println("Experiment will be saved at: " + root);
      return new SweepOutcome(root, List.of(), List.of(), List.of());
    }
    Csv.write(root.resolve("summary.csv"), records);
    out.print(table());
    out.println("Experiment has been saved at: " + root);
    return new SweepOutcome(root, List.copyOf(records), List.of(), List.of());
  }

  private void runCombination(Map<String, Object> serve, Map<String, Object> startup) {
    Path point = root.resolve(folderName(serve, startup));
    Map<String, Object> serverFlags = new LinkedHashMap<>(serve);
    startup.forEach((k, v) -> {
      if (!ITERATION_KEYS.contains(k) && !k.equals(Params.NAME_KEY)) {
        serverFlags.put(k, v);
      }
    });
    serverFlags.remove(Params.NAME_KEY);
    List<String> command = Params.overrideServe(config.serveCmd(), serverFlags);
    Iterations iterations = defaults.with(startup);
    String url = baseUrl != null ? trimSlash(baseUrl) : baseUrl(command);
    List<Map<String, Object>> data = new ArrayList<>();
    for (int n = 0; n < config.numRuns(); n++) {
      Path file = point.resolve("run=" + n + ".json");
      out.println("[BEGIN BENCHMARK]");
      out.println("Serve overrides: " + serve);
      out.println("Startup overrides: " + startup);
      out.println("Run Number: " + n);
      out.println("Server command: " + ForkedRun.shellJoin(command));
      out.println("Start-ups: " + iterations.cold() + " cold, " + iterations.warmup()
          + " warm-up, " + iterations.warm() + " warm; ready when GET " + url
          + "/health answers 2xx");
      out.println("Output file: " + file);
      if (Files.exists(file)) {
        out.println("Found existing results.");
        out.println("[SKIPPED BENCHMARK]");
        Map<String, Object> existing = Params.readObject(file);
        data.add(existing);
        records.add(existing);
        continue;
      }
      if (config.dryRun()) {
        out.println("[END BENCHMARK]");
        continue;
      }
      Path runDir = point.resolve("run=" + n);
      Map<String, Object> record = new LinkedHashMap<>();
      phase(record, "cold", measure(command, url, iterations.cold(), "cold", runDir));
      measure(command, url, iterations.warmup(), "warmup", runDir);
      phase(record, "warm", measure(command, url, iterations.warm(), "warm", runDir));
      record.put("run_number", n);
      record.putAll(SweepRunner.withoutName(serve));
      record.putAll(SweepRunner.withoutName(startup));
      record.put(SweepData.POINT_KEY, root.relativize(point).toString());
      record.put(SweepData.RUN_KEY, root.relativize(runDir).toString());
      SweepRunner.write(file, record);
      data.add(record);
      records.add(record);
      out.println("[END BENCHMARK]");
    }
    if (!config.dryRun()) {
      SweepRunner.write(point.resolve("summary.json"), data);
    }
  }

  /**
   * {@code count} start-ups of the server, each stopped once ready.
   *
   * @return their start-up times, seconds
   */
  private double[] measure(List<String> command, String url, int count, String kind,
      Path runDir) {
    double[] times = new double[count];
    for (int i = 0; i < count; i++) {
      Path cache = kind.equals("cold") ? temporaryCache() : null;
      Map<String, String> env = cache != null ? Map.of("VLLM_CACHE_ROOT", cache.toString())
          : Map.of();
      Path log = runDir.resolve(kind + "-" + (i + 1) + ".server.log");
      ServerProcess.requireNothingServes(URI.create(url + "/health"));
      try (ServerProcess server = ServerProcess.start(command, env, log, config.showStdout(),
          out)) {
        Duration ready;
        try {
          ready = server.awaitReady(URI.create(url + "/health"), config.serverReadyTimeout(),
              ServerProcess.STARTUP_POLL_MS);
        } catch (SweepFailure e) {
          throw new SweepFailure(e.getMessage() + "\nThe script was terminated early. Use "
              + "`--resume` to continue the script from its last checkpoint.", e);
        }
        times[i] = ready.toNanos() / 1e9;
        out.println(String.format(Locale.ROOT, "%s start-up %d/%d: %.2f s", label(kind), i + 1,
            count, times[i]));
      } finally {
        if (cache != null) {
          deleteTree(cache);
        }
      }
    }
    return times;
  }

  private static String label(String kind) {
    return switch (kind) {
      case "cold" -> "Cold";
      case "warm" -> "Warm";
      default -> "Warm-up";
    };
  }

  /** vLLM's keys of one phase: the mean, every time, and the percentiles, seconds. */
  private static void phase(Map<String, Object> record, String phase, double[] times) {
    if (times.length == 0) {
      return;
    }
    record.put("avg_" + phase + "_startup_time", Arrays.stream(times).average().orElseThrow());
    record.put(phase + "_startup_times", Arrays.stream(times).boxed().toList());
    Map<String, Object> percentiles = new LinkedHashMap<>();
    for (int p : PERCENTAGES) {
      percentiles.put(String.valueOf(p), percentile(times, p));
    }
    record.put(phase + "_startup_percentiles", percentiles);
  }

  /** numpy's default percentile: linear between the two nearest ranks. */
  static double percentile(double[] values, double p) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double rank = (sorted.length - 1) * p / 100;
    int low = (int) Math.floor(rank);
    int high = Math.min(low + 1, sorted.length - 1);
    return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
  }

  /** The console table: each combination's mean cold and warm start-up over its runs. */
  private String table() {
    Map<String, List<Map<String, Object>>> byPoint = new LinkedHashMap<>();
    records.forEach(r -> byPoint.computeIfAbsent(String.valueOf(r.get(SweepData.POINT_KEY)),
        k -> new ArrayList<>()).add(r));
    int width = Math.max(5, byPoint.keySet().stream().mapToInt(String::length).max().orElse(5));
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "%-" + width + "s %5s %12s %12s%n", "point", "runs",
        "cold (s)", "warm (s)"));
    byPoint.forEach((point, runs) -> s.append(String.format(Locale.ROOT,
        "%-" + width + "s %5d %12s %12s%n", point, runs.size(),
        mean(runs, "avg_cold_startup_time"), mean(runs, "avg_warm_startup_time"))));
    return s.toString();
  }

  private static String mean(List<Map<String, Object>> runs, String key) {
    double[] v = runs.stream().mapToDouble(r -> SweepData.number(r, key))
        .filter(Double::isFinite).toArray();
    return v.length == 0 ? "-"
        : String.format(Locale.ROOT, "%.2f", Arrays.stream(v).average().orElseThrow());
  }

  /** {@code SERVE-k=v-...-STARTUP-k=v-...}, as the other sweeps name their points. */
  static String folderName(Map<String, Object> serve, Map<String, Object> startup) {
    StringBuilder name = new StringBuilder("SERVE");
    serve.forEach((k, v) -> name.append('-').append(k).append('=').append(Params.text(v)));
    name.append("-STARTUP");
    startup.forEach((k, v) -> name.append('-').append(k).append('=').append(Params.text(v)));
    return Params.sanitize(name.toString());
  }

  /**
   * The root URL a server command listens on: its {@code --host} (an any-address one is
   * reached on 127.0.0.1) and {@code --port}, 127.0.0.1 and vLLM's 8000 when not given.
   */
  static String baseUrl(List<String> command) {
    String host = flag(command, "--host");
    String port = flag(command, "--port");
    if (host == null || host.equals("0.0.0.0") || host.equals("::") || host.isEmpty()) {
      host = "127.0.0.1";
    }
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return "http://" + host + ":" + (port != null ? port : "8000");
  }

  private static String flag(List<String> command, String name) {
    String value = null;
    for (int i = 0; i < command.size(); i++) {
      String w = command.get(i);
      if (w.equals(name) && i + 1 < command.size()) {
        value = command.get(i + 1);
      } else if (w.startsWith(name + "=")) {
        value = w.substring(name.length() + 1);
      }
    }
    return value;
  }

  private static String trimSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private static Path temporaryCache() {
    try {
      return Files.createTempDirectory("gatling-llm-startup-cold-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a cache folder for a cold start-up: "
          + e.getMessage(), e);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a cold start-up's cache left behind in the temporary folder is harmless
    }
  }

  @Command(name = "startup", usageHelpWidth = 100,
      description = "start-up time of the server command (until GET /health answers 2xx) for "
          + "every --serve-params x --startup-params combination: cold, warm-up and warm "
          + "start-ups per run, as vllm bench startup")
  static final class SubCommand extends SweepCommand.Step {

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
        b = b.serveParams(SweepCommand.params(serveParams));
      }
      List<Map<String, Object>> startup = startupParams != null
          ? SweepCommand.params(startupParams) : List.of(Map.of());
      Sweep.startup(b.build(), startup, numItersCold, numItersWarmup, numItersWarm, baseUrl);
      return 0;
    }
  }
}
