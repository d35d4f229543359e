package dev.gatlingllm.internal.metrics;

import java.util.List;

/**
 * Summary of one latency distribution in milliseconds: mean, median, population standard
 * deviation and the chosen percentiles (numpy's linear interpolation). All zero when
 * there were no samples.
 */
public record Distribution(double mean, double median, double std, List<PercentileValue> percentiles) {

  public Distribution {
    percentiles = List.copyOf(percentiles);
  }

  /** The value of a percentile that was computed; exception when it was not requested. */
  public double percentile(double p) {
    for (PercentileValue v : percentiles) {
      if (Double.compare(v.percentile(), p) == 0) {
        return v.valueMs();
      }
    }
    throw new IllegalArgumentException("Percentile " + PyFormat.repr(p) + " was not computed; "
        + "computed: " + percentiles.stream().map(PercentileValue::word).toList());
  }
}
