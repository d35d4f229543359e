package dev.gatlingllm.launcher;

import dev.gatlingllm.internal.cli.BenchArgs;
import dev.gatlingllm.internal.cli.BenchChecks;
import dev.gatlingllm.internal.cli.BenchPlan;
import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.internal.sweep.SweepFailure;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code gatling-llm bench serve} with {@code --num-runs} N > 1 or {@code vllm-bench}'s
 * one-command sweep flags ({@code --sweep-max-concurrency}, {@code --sweep-request-rate},
 * {@code --sweep-num-prompts-factor}, with {@code --reset-prefix-cache} and
 * {@code --sweep-summary-percentiles}): the sweep's engine runs the flags N times or over the
 * points, each run a fresh Gatling run in a JVM of its own (as a sweep's runs are, so that no
 * run starts warmer than another), then prints and writes their statistics and tables.
 */
final class RepeatedServe {

  private RepeatedServe() {}

  /**
   * @param results where the runs go when {@code --result-dir} does not say
   * @return 0, or 1 when a run failed (the runs before it stay, with their files)
   */
  static int run(BenchArgs args, int runs, Path results) {
    BenchChecks.checkSweepOnly(args);
    List<String> words = args.words().stream().filter(w -> !w.startsWith("--num-runs=")
        && BenchChecks.SWEEP_FLAGS.stream().noneMatch(f -> w.startsWith("--" + f + "="))
        && BenchChecks.SWEEP_ONLY_FLAGS.stream().noneMatch(f -> w.equals("--" + f)
            || w.startsWith("--" + f + "=")))
        .toList();
    Path dir = args.value("result-dir").map(Path::of).orElse(results);
    boolean sweep = BenchChecks.sweepFlag(args).isPresent();
    SweepConfig.Builder config = SweepConfig.builder().benchArgs(words).numRuns(runs)
        .outputDir(dir).showStdout(true).out(System.out);
    if (sweep) {
      config = config.benchParams(points(args))
          .resetPrefixCache(args.on("reset-prefix-cache"))
          .summaryPercentiles(summaryPercentiles(args));
    }
    try {
      if (sweep) {
        Sweep.serve(config.build());
      } else {
        Sweep.repeat(config.build());
      }
      return 0;
    } catch (SweepFailure e) {
      System.err.println("gatling-llm bench serve: " + e.getMessage());
      return Sweep.FAILED_STATUS;
    }
  }

  /**
   * The sweep's points: every max concurrency × every request rate of the lists, each with
   * {@code --sweep-num-prompts-factor} × its concurrency prompts when given.
   */
  static List<Map<String, Object>> points(BenchArgs args) {
    List<Object> concurrencies = list(args, "sweep-max-concurrency", true);
    List<Object> rates = list(args, "sweep-request-rate", false);
    Integer factor = args.integer("sweep-num-prompts-factor").orElse(null);
    if (factor != null && concurrencies.isEmpty()) {
      throw new IllegalArgumentException("--sweep-num-prompts-factor multiplies each point's "
          + "max concurrency: it needs --sweep-max-concurrency");
    }
    if (factor != null && factor < 1) {
      throw new IllegalArgumentException("--sweep-num-prompts-factor must be at least 1, got "
          + factor);
    }
    List<Map<String, Object>> points = new ArrayList<>();
    for (Object c : concurrencies.isEmpty() ? List.of((Object) "") : concurrencies) {
      for (Object r : rates.isEmpty() ? List.of((Object) "") : rates) {
        Map<String, Object> point = new LinkedHashMap<>();
        if (!"".equals(c)) {
          point.put("max_concurrency", c);
          if (factor != null) {
            point.put("num_prompts", factor * (Integer) c);
          }
        }
        if (!"".equals(r)) {
          point.put("request_rate", r);
        }
        points.add(point);
      }
    }
    return points;
  }

  /**
   * {@code --sweep-summary-percentiles}: comma-separated percentiles in [0, 100], repeats
   * dropped; none when not given.
   */
  static List<Double> summaryPercentiles(BenchArgs args) {
    List<Double> out = new ArrayList<>();
    for (String item : args.value("sweep-summary-percentiles").orElse("").split(",")) {
      String v = item.strip();
      if (v.isEmpty()) {
        continue;
      }
      try {
        out.add(Double.parseDouble(v));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--sweep-summary-percentiles takes comma-separated "
            + "percentiles in [0, 100], got '" + v + "'");
      }
    }
    return out;
  }

  /** A comma-separated list: whole numbers at least 1, or rates above 0 (or {@code inf}). */
  private static List<Object> list(BenchArgs args, String flag, boolean whole) {
    List<Object> out = new ArrayList<>();
    String text = args.value(flag).orElse("");
    for (String item : text.split(",")) {
      String v = item.strip();
      if (v.isEmpty()) {
        continue;
      }
      try {
        if (whole) {
          int n = Integer.parseInt(v);
          if (n < 1) {
            throw new NumberFormatException();
          }
          out.add(n);
        } else if (v.equals("inf")) {
          out.add("inf");
        } else {
          double d = Double.parseDouble(v);
          if (!(d > 0) || Double.isInfinite(d)) {
            throw new NumberFormatException();
          }
          out.add(d);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--" + flag + " takes comma-separated "
            + (whole ? "whole numbers of at least 1" : "rates above 0 or inf") + ", got '"
            + v + "' in '" + text + "'");
      }
    }
    if (args.has(flag) && out.isEmpty()) {
      throw new IllegalArgumentException("--" + flag + " gave no value: '" + text + "'");
    }
    return out;
  }
}
