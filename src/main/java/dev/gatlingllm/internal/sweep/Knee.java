package dev.gatlingllm.internal.sweep;

import java.util.List;

/**
 * The knee of a latency-throughput curve: the load past which latency rises much faster than
 * throughput, the last load worth offering. Found as Kneedle finds it: both axes scaled to
 * their ranges, the point farthest below the chord from the lightest load to the heaviest,
 * that is the largest {@code x' − y'} once the first point is at the origin. A curve that never
 * departs from its chord by {@value #MIN_DEPARTURE} of its ranges (a straight line, noise
 * around one) has no knee; fewer than three points have none either.
 */
final class Knee {

  /** How far below the chord, as a fraction of the scaled axes, a knee must be. */
  static final double MIN_DEPARTURE = 0.1;

  private Knee() {}

  /**
   * @param xs throughput per point, in the order of the load (the swept variable)
   * @param ys latency per point, same order
   * @return the index of the knee, -1 when there is none
   */
  static int of(List<Double> xs, List<Double> ys) {
    int n = xs.size();
    if (n < 3 || ys.size() != n) {
      return -1;
    }
    double xRange = range(xs);
    double yRange = range(ys);
    if (xRange == 0 || yRange == 0) {
      return -1;
    }
    double x0 = xs.get(0);
    double y0 = ys.get(0);
    double xn = (xs.get(n - 1) - x0) / xRange;
    double yn = (ys.get(n - 1) - y0) / yRange;
    double chord = Math.hypot(xn, yn);
    if (chord == 0) {
      return -1;
    }
    int best = -1;
    double bestDistance = MIN_DEPARTURE;
    for (int i = 1; i < n - 1; i++) {
      double x = (xs.get(i) - x0) / xRange;
      double y = (ys.get(i) - y0) / yRange;
      // signed distance below the chord from (0, 0) to (xn, yn), positive on the throughput side
      double below = (yn * x - xn * y) / chord;
      if (below > bestDistance) {
        bestDistance = below;
        best = i;
      }
    }
    return best;
  }

  private static double range(List<Double> v) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (double d : v) {
      lo = Math.min(lo, d);
      hi = Math.max(hi, d);
    }
    return hi - lo;
  }
}
