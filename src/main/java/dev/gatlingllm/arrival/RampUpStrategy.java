package dev.gatlingllm.arrival;

import java.util.Locale;

/** How the request rate moves from the start to the end rate over the run (vLLM's {@code --ramp-up-strategy}). */
public enum RampUpStrategy {
  /** {@code start + (end - start) * i / (N - 1)} for request {@code i} of {@code N}. */
  LINEAR,
  /** {@code start * (end / start)^(i / (N - 1))} for request {@code i} of {@code N}. */
  EXPONENTIAL;

  /** The name vLLM uses on the command line and in the result JSON: the constant's, lower case. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses vLLM's flag value ({@code linear} or {@code exponential}, any case).
   *
   * @throws IllegalArgumentException naming the bad value and the allowed ones
   */
  public static RampUpStrategy fromCliName(String name) {
    if (name != null) {
      String lower = name.trim().toLowerCase(Locale.ROOT);
      for (RampUpStrategy strategy : values()) {
        if (strategy.cliName().equals(lower)) {
          return strategy;
        }
      }
    }
    throw new IllegalArgumentException(
        "unknown ramp-up strategy '" + name + "': allowed values are 'linear' and 'exponential'");
  }

  /** Request {@code index}'s rate (req/s), computed the way vLLM does so integer crossings match. */
  public double rateAt(int startRps, int endRps, int index, int total) {
    double progress = (double) index / Math.max(total - 1, 1);
    if (this == LINEAR) {
      return startRps + (endRps - startRps) * progress;
    }
    double ratio = (double) endRps / startRps;
    return startRps * Math.pow(ratio, progress);
  }
}
