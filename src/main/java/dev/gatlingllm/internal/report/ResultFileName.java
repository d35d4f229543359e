package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.PyFormat;

/** vLLM's default result file name. */
public final class ResultFileName {

  private ResultFileName() {}

  /**
   * {@code {label}-{rate}qps[-concurrency{N}]-{model basename}-{date}.json}, or with a ramp
   * {@code {label}-ramp-up-{strategy}-{start}qps-{end}qps[-concurrency{N}]-{model}-{date}.json};
   * the label falls back to the backend, the rate is Python's float text ({@code 10.0},
   * {@code inf}).
   */
  public static String defaultName(RunInfo run, String label, String date) {
    String model = run.modelId().substring(run.modelId().lastIndexOf('/') + 1);
    String concurrency = run.maxConcurrency() == null ? "" : "-concurrency" + run.maxConcurrency();
    String prefix = label == null || label.isEmpty() ? run.backend() : label;
    if (run.rampUpStrategy() != null) {
      return prefix + "-ramp-up-" + run.rampUpStrategy() + "-" + rps(run.rampUpStartRps()) + "qps-"
          + rps(run.rampUpEndRps()) + "qps" + concurrency + "-" + model + "-" + date + ".json";
    }
    return prefix + "-" + PyFormat.repr(run.requestRate()) + "qps" + concurrency + "-" + model
        + "-" + date + ".json";
  }

  /** vLLM's ramp rates are integers; ours may not be, and then keep their fraction. */
  static String rps(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : PyFormat.repr(value);
  }

  /** The pytorch file beside a result file: its name without extension + {@code .pytorch.json}. */
  static String pytorchName(String resultFileName) {
    int dot = resultFileName.lastIndexOf('.');
    // Python's splitext ignores leading dots: ".json" has no extension
    String stem = dot > 0 ? resultFileName.substring(0, dot) : resultFileName;
    return stem + ".pytorch.json";
  }
}
