package dev.gatlingllm.internal.arrival;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * Test-side statistics, written independently of the sampler: the Gamma CDF through the
 * regularized lower incomplete gamma function P(a, x) (series below a + 1, Lentz's continued
 * fraction above, Lanczos log-gamma), and the one-sample Kolmogorov-Smirnov statistic. The
 * client-truth benchmark tests its sent gaps with them too.
 */
public final class GammaCdf {

  private static final double[] LANCZOS = {
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7
  };
  private static final double EPS = 1e-16;

  private GammaCdf() {}

  /** CDF of Gamma(shape, scale) at x. */
  public static double cdf(double shape, double scale, double x) {
    return regularizedLowerGamma(shape, x / scale);
  }

  static DoubleUnaryOperator of(double shape, double scale) {
    return x -> cdf(shape, scale, x);
  }

  /** P(a, x) = γ(a, x) / Γ(a). */
  static double regularizedLowerGamma(double a, double x) {
    if (x <= 0) {
      return 0.0;
    }
    double logPrefix = -x + a * Math.log(x) - logGamma(a);
    if (x < a + 1) {
      double term = 1.0 / a;
      double sum = term;
      for (int n = 1; n < 10_000; n++) {
        term *= x / (a + n);
        sum += term;
        if (Math.abs(term) < Math.abs(sum) * EPS) {
          break;
        }
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
      if (Math.abs(d) < tiny) {
        d = tiny;
      }
      c = b + an / c;
      if (Math.abs(c) < tiny) {
        c = tiny;
      }
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < EPS) {
        break;
      }
    }
    return 1.0 - Math.exp(logPrefix) * h;
  }

  /** ln Γ(x) for x > 0 (Lanczos, g = 7). */
  static double logGamma(double x) {
    if (x < 0.5) {
      return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
    }
    x -= 1;
    double sum = LANCZOS[0];
    for (int i = 1; i < LANCZOS.length; i++) {
      sum += LANCZOS[i] / (x + i);
    }
    double t = x + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
  }

  /** sup |F_n(x) - F(x)| of the sample against the CDF. */
  public static double ksStatistic(double[] sample, DoubleUnaryOperator cdf) {
    double[] sorted = sample.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double d = 0;
    for (int i = 0; i < n; i++) {
      double f = cdf.applyAsDouble(sorted[i]);
      d = Math.max(d, Math.max(f - (double) i / n, (double) (i + 1) / n - f));
    }
    return d;
  }

  /** Asymptotic KS critical value at significance alpha: sqrt(-ln(alpha / 2) / 2) / sqrt(n). */
  public static double ksCritical(double alpha, int n) {
    return Math.sqrt(-Math.log(alpha / 2) / 2) / Math.sqrt(n);
  }
}
