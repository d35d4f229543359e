package dev.gatlingllm.bench;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/** The statistics the benchmarks report: numpy's percentiles, the gamma CDF, a KS distance. */
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

  /**
   * Kolmogorov-Smirnov distance between the empirical distribution of {@code sample} and a
   * continuous CDF: the largest gap on either side of each step.
   */
  static double ksDistance(double[] sample, DoubleUnaryOperator cdf) {
    double[] x = sample.clone();
    Arrays.sort(x);
    int n = x.length;
    double d = 0;
    for (int i = 0; i < n; i++) {
      double f = cdf.applyAsDouble(x[i]);
      d = Math.max(d, Math.max((i + 1.0) / n - f, f - (double) i / n));
    }
    return d;
  }

  /** CDF of the gamma distribution with this shape and scale at {@code x}. */
  static double gammaCdf(double shape, double scale, double x) {
    return x <= 0 ? 0 : regularizedLowerGamma(shape, x / scale);
  }

  /**
   * P(a, x) = γ(a, x) / Γ(a): its power series below x = a + 1, else 1 minus the continued
   * fraction of Q(a, x) (modified Lentz), both to double precision.
   */
  static double regularizedLowerGamma(double a, double x) {
    if (x <= 0) {
      return 0;
    }
    double logPrefix = a * Math.log(x) - x - logGamma(a);
    if (x < a + 1) {
      double term = 1 / a;
      double sum = term;
      for (int n = 1; n < 10_000 && Math.abs(term) > Math.abs(sum) * 1e-16; n++) {
        term *= x / (a + n);
        sum += term;
      }
      return sum * Math.exp(logPrefix);
    }
    double tiny = 1e-300;
    double b = x + 1 - a;
    double c = 1 / tiny;
    double d = 1 / b;
    double h = d;
    for (int i = 1; i < 10_000; i++) {
      double an = -i * (i - a);
      b += 2;
      d = an * d + b;
      d = Math.abs(d) < tiny ? tiny : d;
      c = b + an / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < 1e-16) {
        break;
      }
    }
    return 1 - Math.exp(logPrefix) * h;
  }

  /** ln Γ(x) for x > 0: Lanczos (g = 7, 9 terms), with reflection below 0.5. */
  static double logGamma(double x) {
    if (x < 0.5) {
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
    }
    double[] c = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
        771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
        9.9843695780195716e-6, 1.5056327351493116e-7};
    double z = x - 1;
    double sum = c[0];
    for (int i = 1; i < c.length; i++) {
      sum += c[i] / (z + i);
    }
    double t = z + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
  }
}
