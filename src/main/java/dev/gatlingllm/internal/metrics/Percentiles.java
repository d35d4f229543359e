package dev.gatlingllm.internal.metrics;

/** Parsing and validation of {@code --metric-percentiles} values. */
public final class Percentiles {

  /** vLLM's default: only the 99th percentile. */
  public static final double[] DEFAULT = {99};

  private Percentiles() {}

  /**
   * Parses {@code "50,90,99,99.9"}. Each entry must be a number in [0, 100] (numpy refuses
   * anything else); order and repeats are kept, as vLLM keeps them.
   */
  public static double[] parse(String commaSeparated) {
    if (commaSeparated == null || commaSeparated.isBlank()) {
      throw new IllegalArgumentException("Metric percentiles must not be empty: "
          + "give a comma-separated list of numbers in [0, 100], for example \"50,90,99,99.9\"");
    }
    String[] parts = commaSeparated.split(",", -1);
    double[] out = new double[parts.length];
    for (int i = 0; i < parts.length; i++) {
      double p;
      try {
        p = Double.parseDouble(parts[i].trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Invalid metric percentile '" + parts[i] + "' in \""
            + commaSeparated + "\": percentiles must be numbers in [0, 100], "
            + "for example \"50,90,99,99.9\"", e);
      }
      out[i] = p;
    }
    return validate(out);
  }

  /** Checks each percentile is in [0, 100]; returns a copy. */
  public static double[] validate(double... percentiles) {
    if (percentiles.length == 0) {
      throw new IllegalArgumentException("Metric percentiles must not be empty");
    }
    for (double p : percentiles) {
      if (!(p >= 0 && p <= 100)) {
        throw new IllegalArgumentException("Invalid metric percentile " + PyFormat.repr(p)
            + ": percentiles must be in the range [0, 100]");
      }
    }
    return percentiles.clone();
  }
}
