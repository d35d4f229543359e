package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.action.Backends;
import dev.gatlingllm.internal.cli.BenchArgs;
import dev.gatlingllm.internal.metrics.Percentiles;
import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.sweep.SweepConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The drop-in's flags of one run of a sweep: the user's {@code --bench-args} with the point's
 * combination applied, the sweep's percentile metrics, and the result flags pointing into the
 * run's folder. Every mode's runs get their flags here.
 */
final class RunArgs {

  /** The percentile metrics of every run of vLLM's sweep. */
  static final String SWEEP_METRICS = "ttft,tpot,itl,e2el";
  /** The drop-in's flags the sweep sets for each run itself. */
  private static final Set<String> RESULT_FLAGS = Set.of("save-result", "result-dir",
      "result-filename", "append-result");

  private final SweepConfig config;
  private final PrintStream out;
  /** Repeated runs of one benchmark: the user's percentile metrics are kept. */
  private final boolean repeated;
  /** Whether replacing the user's --percentile-metrics was said already. */
  private boolean metricsReplaced;

  RunArgs(SweepConfig config, boolean repeated) {
    this.config = config;
    this.out = config.out();
    this.repeated = repeated;
  }

  /** The drop-in's flags of one run: the combination applied, the result flags set. */
  List<String> of(Map<String, Object> overrides, Path runDir) {
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
  private List<String> withSweepMetrics(List<String> args) {
    BenchArgs parsed = BenchArgs.parse(args);
    String backend = parsed.value("backend").orElse("openai");
    // the table's capability, not the name: vllm-pooling is pooling too
    if (Backends.lookup(backend).map(Backends.Backend::pooling).orElse(false)) {
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

  /** The server's root URL as the benchmark flags give it: the first replica's. */
  String baseUrl(Map<String, Object> bench) {
    return baseUrls(bench).get(0);
  }

  /**
   * Every root URL the benchmark flags give, in their order: each {@code --base-url} (several
   * are replicas of one model, each with its own health and caches), else the one of
   * {@code --host} and {@code --port}.
   */
  List<String> baseUrls(Map<String, Object> bench) {
    BenchArgs args = BenchArgs.parse(Params.overrideBench(config.benchArgs(), bench));
    List<String> given = args.values("base-url");
    if (given.isEmpty()) {
      return List.of("http://" + args.value("host").orElse("127.0.0.1") + ":"
          + args.value("port").orElse("8000"));
    }
    return given.stream()
        .map(url -> url.endsWith("/") ? url.substring(0, url.length() - 1) : url).toList();
  }

  /** Whether the user fixed the seed, in the benchmark flags or in the combination. */
  boolean seedFixed(Map<String, Object> overrides) {
    return overrides.containsKey("seed") || BenchArgs.parse(config.benchArgs()).has("seed");
  }

  /** The number of prompts of a combination's runs (vLLM's default when not given). */
  int numPrompts(Map<String, Object> bench) {
    return BenchArgs.parse(Params.overrideBench(config.benchArgs(), bench))
        .integer("num-prompts").orElseThrow();
  }
}
