package dev.gatlingllm.internal.metrics;

/** One percentile of a distribution, in milliseconds. */
public record PercentileValue(double percentile, double valueMs) {

  /** The percentile as vLLM writes it in keys and labels: {@code 99}, {@code 99.9}. */
  public String word() {
    return PyFormat.percentileWord(percentile);
  }
}
