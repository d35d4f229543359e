package dev.gatlingllm.internal.sweep;

/**
 * Mean, sample standard deviation, extremes and Student-t confidence interval of one point's
 * repeated runs. The interval is mean ± t(1 − α/2, n − 1) · s / √n, with s the sample standard
 * deviation (n − 1 in the denominator: the runs are a sample of the runs one could make); one
 * run has no spread and no interval.
 */
record Stats(int n, double mean, double std, double ciLow, double ciHigh, double min,
    double max) {

  /** The statistics of {@code values} at the given two-sided confidence (0.95 for 95 %). */
  public static Stats of(double[] values, double confidence) {
    int n = values.length;
    if (n == 0) {
      return new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
          Double.NaN);
    }
    double sum = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      sum += v;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    double mean = sum / n;
    if (n == 1) {
      return new Stats(1, mean, Double.NaN, Double.NaN, Double.NaN, min, max);
    }
    double squares = 0;
    for (double v : values) {
      squares += (v - mean) * (v - mean);
    }
    double std = Math.sqrt(squares / (n - 1));
    double half = tQuantile(1 - (1 - confidence) / 2, n - 1) * std / Math.sqrt(n);
    return new Stats(n, mean, std, mean - half, mean + half, min, max);
  }

  /** Whether an interval exists (two runs or more). */
  public boolean hasInterval() {
    return n > 1;
  }

  /**
   * The coefficient of variation, std / |mean|: the spread as a fraction of the level, so
   * that a throughput and a latency can be compared. NaN without a spread or at a mean of 0.
   */
  public double cv() {
    return hasInterval() && mean != 0 ? std / Math.abs(mean) : Double.NaN;
  }

  /** The quantile {@code p} (0.5 < p < 1) of Student's t with {@code df} degrees of freedom. */
  static double tQuantile(double p, int df) {
    if (!(p > 0.5 && p < 1) || df < 1) {
      throw new IllegalArgumentException("t quantile needs 0.5 < p < 1 and df >= 1");
    }
    double lo = 0;
    double hi = 1;
    while (tCdf(hi, df) < p) {
      hi *= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
      double mid = (lo + hi) / 2;
      if (tCdf(mid, df) < p) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  /** P(T ≤ t) for t ≥ 0: 1 − I_x(df/2, 1/2) / 2 with x = df / (df + t²). */
  static double tCdf(double t, int df) {
    double x = df / (df + t * t);
    return 1 - 0.5 * regularizedBeta(x, df / 2.0, 0.5);
  }

  /** I_x(a, b) by its continued fraction (modified Lentz), using the symmetry when faster. */
  static double regularizedBeta(double x, double a, double b) {
    if (x <= 0) {
      return 0;
    }
    if (x >= 1) {
      return 1;
    }
    if (x > (a + 1) / (a + b + 2)) {
      return 1 - regularizedBeta(1 - x, b, a);
    }
    double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b)
        + a * Math.log(x) + b * Math.log1p(-x)) / a;
    double tiny = 1e-300;
    double f = 1;
    double c = 1;
    double d = 0;
    for (int i = 0; i <= 400; i++) {
      int m = i / 2;
      double numerator;
      if (i == 0) {
        numerator = 1;
      } else if (i % 2 == 0) {
        numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
      } else {
        numerator = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
      }
      d = 1 + numerator * d;
      d = Math.abs(d) < tiny ? tiny : d;
      d = 1 / d;
      c = 1 + numerator / c;
      c = Math.abs(c) < tiny ? tiny : c;
      double step = c * d;
      f *= step;
      if (Math.abs(1 - step) < 1e-15) {
        break;
      }
    }
    return front * (f - 1);
  }

  /** ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms). */
  static double logGamma(double x) {
    double[] g = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
        771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
        9.9843695780195716e-6, 1.5056327351493116e-7};
    if (x < 0.5) {
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
    }
    x -= 1;
    double sum = g[0];
    for (int i = 1; i < g.length; i++) {
      sum += g[i] / (x + i);
    }
    double t = x + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
  }
}
