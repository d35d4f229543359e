package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.GoodputSlo;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The PyTorch OSS benchmark-database format vLLM writes beside its result
 * ({@code <name>.pytorch.json}): one record per headline latency metric, each carrying the
 * run's arguments and every other result key as extra info.
 */
final class PytorchFormat {

  /** The metrics vLLM exports, in its order; absent ones are skipped. */
  static final List<String> METRICS = List.of(
      "median_ttft_ms", "mean_ttft_ms", "std_ttft_ms", "p99_ttft_ms",
      "mean_tpot_ms", "median_tpot_ms", "std_tpot_ms", "p99_tpot_ms",
      "median_itl_ms", "mean_itl_ms", "std_itl_ms", "p99_itl_ms");

  /** Per-request arrays vLLM leaves out of the extra info as too big. */
  static final List<String> IGNORED = List.of("ttfts", "itls", "generated_texts", "errors");

  private PytorchFormat() {}

  /** The records; empty when the result has none of the exported metrics (then no file). */
  static List<Object> records(Map<String, Object> result, Map<String, Object> args, String model) {
    LinkedHashMap<String, Object> extraInfo = new LinkedHashMap<>();
    result.forEach((k, v) -> {
      // the steady state and over-saturation verdict are ours, with their own figures: the
      // records stay vLLM's
      if (!METRICS.contains(k) && !IGNORED.contains(k) && !RunAnalysis.KEYS.contains(k)) {
        extraInfo.put(k, v);
      }
    });
    if (args.get("tensor_parallel_size") == null && extraInfo.containsKey("tensor_parallel_size")) {
      args.put("tensor_parallel_size", extraInfo.get("tensor_parallel_size"));
    }
    List<Object> records = new ArrayList<>();
    for (String name : METRICS) {
      if (!result.containsKey(name)) {
        continue;
      }
      LinkedHashMap<String, Object> benchmarkExtra = new LinkedHashMap<>();
      benchmarkExtra.put("args", args);
      LinkedHashMap<String, Object> benchmark = new LinkedHashMap<>();
      benchmark.put("name", "vLLM benchmark");
      benchmark.put("extra_info", benchmarkExtra);
      LinkedHashMap<String, Object> modelInfo = new LinkedHashMap<>();
      modelInfo.put("name", model);
      LinkedHashMap<String, Object> metric = new LinkedHashMap<>();
      metric.put("name", name);
      metric.put("benchmark_values", List.of(result.get(name)));
      metric.put("extra_info", extraInfo);
      LinkedHashMap<String, Object> record = new LinkedHashMap<>();
      record.put("benchmark", benchmark);
      record.put("model", modelInfo);
      record.put("metric", metric);
      records.add(record);
    }
    return records;
  }

  /**
   * The run's arguments under vLLM's argument names (the subset this plugin has), standing
   * in for vLLM's {@code vars(args)}.
   */
  static LinkedHashMap<String, Object> args(RunInfo run, ResultOptions opts) {
    LinkedHashMap<String, Object> args = new LinkedHashMap<>();
    args.put("backend", run.backend());
    args.put("label", opts.label());
    args.put("model", run.modelId());
    args.put("tokenizer", run.tokenizerId());
    args.put("num_prompts", run.numPrompts());
    args.put("request_rate", run.requestRate());
    args.put("burstiness", run.burstiness());
    args.put("max_concurrency", run.maxConcurrency());
    args.put("seed", run.seed());
    args.put("ramp_up_strategy", run.rampUpStrategy());
    args.put("ramp_up_start_rps", run.rampUpStartRps());
    args.put("ramp_up_end_rps", run.rampUpEndRps());
    StringJoiner metrics = new StringJoiner(",");
    for (Metric m : ResultOptionsAccess.percentileMetrics(opts, run.taskType())) {
      metrics.add(m.key());
    }
    args.put("percentile_metrics", metrics.toString());
    StringJoiner percentiles = new StringJoiner(",");
    for (double p : opts.metricPercentiles()) {
      percentiles.add(PyFormat.percentileWord(p));
    }
    args.put("metric_percentiles", percentiles.toString());
    GoodputSlo goodput = ResultOptionsAccess.goodput(opts);
    args.put("goodput", goodput.isEmpty() ? null : goodput.asArguments());
    args.put("save_result", opts.saveResult());
    args.put("save_detailed", opts.detailed());
    args.put("append_result", opts.append());
    List<String> metadata = new ArrayList<>();
    opts.metadata().forEach((k, v) -> metadata.add(k + "=" + v));
    args.put("metadata", metadata.isEmpty() ? null : metadata);
    args.put("result_dir", opts.resultDir() == null ? null : opts.resultDir().toString());
    args.put("result_filename", opts.resultFilename());
    return args;
  }
}
