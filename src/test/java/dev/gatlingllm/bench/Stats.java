package dev.gatlingllm.bench;

/** numpy's percentiles, as the benchmarks report them (the gamma CDF and KS test: {@code GammaCdf}). */
final class Stats {

  private Stats() {}

  /** Linear interpolation between closest ranks (numpy's default); NaN when empty. */
  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    double rank = p / 100 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
  }
}
