package dev.gatlingllm.internal.cli;

import dev.gatlingllm.options.ResultOptions;

/**
 * {@code --plot-timeline} and {@code --timeline-itl-thresholds}: vLLM's request timeline
 * ({@code <result>.timeline.html}), its ITL colours split at two thresholds in milliseconds.
 */
final class TimelineFlags {

  private TimelineFlags() {}

  /**
   * The options with the timeline asked for. As vLLM, the thresholds are read only with
   * {@code --plot-timeline} and must be exactly two numbers ({@code 25,50}); here they must
   * also be positive and ascending, or the colours would mean nothing.
   */
  static ResultOptions.Builder apply(BenchArgs args, ResultOptions.Builder b) {
    if (!args.on("plot-timeline")) {
      return b;
    }
    return b.plotTimeline(true)
        .timelineItlThresholds(thresholds(args.value("timeline-itl-thresholds").orElseThrow()));
  }

  static double[] thresholds(String text) {
    String[] parts = text.split(",", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException("Invalid --timeline-itl-thresholds format: Expected 2 "
          + "ITL threshold values, got " + parts.length + " (" + text + ")");
    }
    double[] out = new double[2];
    for (int i = 0; i < 2; i++) {
      try {
        out[i] = Double.parseDouble(parts[i].strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Invalid --timeline-itl-thresholds format: '"
            + parts[i].strip() + "' is not a number of milliseconds");
      }
    }
    if (!(out[0] > 0) || !(out[1] > out[0]) || Double.isInfinite(out[1])) {
      throw new IllegalArgumentException("--timeline-itl-thresholds must be two positive, "
          + "ascending milliseconds (such as 25,50), got " + text);
    }
    return out;
  }
}
