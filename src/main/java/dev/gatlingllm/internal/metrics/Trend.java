package dev.gatlingllm.internal.metrics;

/**
 * An ordinary least-squares line through points, with the t statistic of its slope: the
 * trend test of {@link OverSaturation}.
 *
 * @param n     number of points
 * @param slope fitted slope (y units per x unit); 0 when all x are equal
 * @param t     slope over its standard error, {@code b / sqrt(RSS / (n − 2) / Sxx)};
 *              +∞ for a rising line with no residual, NaN with fewer than 3 points or
 *              all x equal
 */
record Trend(int n, double slope, double t) {

  /** The trend of {@code y} over {@code x}, the first {@code n} values of each. */
  static Trend of(double[] x, double[] y, int n) {
    if (n < 3) {
      return new Trend(n, 0, Double.NaN);
    }
    double mx = 0;
    double my = 0;
    for (int i = 0; i < n; i++) {
      mx += x[i];
      my += y[i];
    }
    mx /= n;
    my /= n;
    double sxx = 0;
    double sxy = 0;
    double syy = 0;
    for (int i = 0; i < n; i++) {
      double dx = x[i] - mx;
      double dy = y[i] - my;
      sxx += dx * dx;
      sxy += dx * dy;
      syy += dy * dy;
    }
    return fit(n, sxx, sxy, syy, 0);
  }

  /**
   * Running sums of a sliding window of points, so that a run of {@code n} requests is tested
   * in {@code O(n)} whatever the window. Callers subtract a fixed origin from {@code x} so the
   * sums stay small enough for the centred sums to keep their precision.
   */
  static final class Sums {
    private int n;
    private double sx;
    private double sy;
    private double sxx;
    private double sxy;
    private double syy;

    void add(double x, double y) {
      n++;
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
      syy += y * y;
    }

    void remove(double x, double y) {
      n--;
      sx -= x;
      sy -= y;
      sxx -= x * x;
      sxy -= x * y;
      syy -= y * y;
    }

    int size() {
      return n;
    }

    /** The trend of the points now in the window, as {@link Trend#of}. */
    Trend trend() {
      if (n < 3) {
        return new Trend(n, 0, Double.NaN);
      }
      double cxx = sxx - sx * sx / n;
      double cxy = sxy - sx * sy / n;
      double cyy = syy - sy * sy / n;
      if (cyy <= 1e-12 * syy) {
        // y did not move: rounding left in the sums must not read as a trend
        return new Trend(n, 0, cxx > 1e-12 * sxx ? 0 : Double.NaN);
      }
      return fit(n, cxx, cxy, cyy, 1e-12 * sxx);
    }
  }

  /**
   * The line from centred sums: slope, and t from the residual sum of squares; no line when
   * the spread of x is at most {@code noise}.
   */
  private static Trend fit(int n, double sxx, double sxy, double syy, double noise) {
    // centred sums from running sums come out a hair off 0 for equal x: that is no spread
    if (sxx <= noise) {
      return new Trend(n, 0, Double.NaN);
    }
    double slope = sxy / sxx;
    double rss = Math.max(0, syy - slope * sxy);
    double se = Math.sqrt(rss / (n - 2) / sxx);
    double t = se > 0 ? slope / se : slope > 0 ? Double.POSITIVE_INFINITY
        : slope < 0 ? Double.NEGATIVE_INFINITY : 0;
    return new Trend(n, slope, t);
  }

  /**
   * Student's t quantile: the {@code t} with {@code P(T ≤ t) = p} for {@code df} degrees of
   * freedom, {@code p} in (0.5, 1). Found by bisection on the distribution function, which
   * is exact to the precision of the incomplete beta function (about 1e-12).
   */
  static double quantile(double p, double df) {
    if (!(p > 0.5 && p < 1) || !(df > 0)) {
      throw new IllegalArgumentException("quantile needs p in (0.5, 1) and df > 0, got p " + p
          + ", df " + df);
    }
    double lo = 0;
    double hi = 1;
    while (cdf(hi, df) < p) {
      hi *= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
      double mid = (lo + hi) / 2;
      if (cdf(mid, df) < p) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  /** {@code P(T ≤ t)} for {@code t ≥ 0}: {@code 1 − I_{df/(df+t²)}(df/2, 1/2) / 2}. */
  static double cdf(double t, double df) {
    double x = df / (df + t * t);
    return 1 - 0.5 * incompleteBeta(x, df / 2, 0.5);
  }

  /** The regularized incomplete beta function I_x(a, b), by its continued fraction. */
  private static double incompleteBeta(double x, double a, double b) {
    if (x <= 0) {
      return 0;
    }
    if (x >= 1) {
      return 1;
    }
    double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b)
        + a * Math.log(x) + b * Math.log1p(-x));
    // the fraction converges fast only below the mean a / (a + b); use the symmetry above it
    if (x < (a + 1) / (a + b + 2)) {
      return front * fraction(x, a, b) / a;
    }
    return 1 - front * fraction(1 - x, b, a) / b;
  }

  /** Lentz's evaluation of the incomplete beta continued fraction. */
  private static double fraction(double x, double a, double b) {
    double tiny = 1e-300;
    double c = 1;
    double d = 1 - (a + b) * x / (a + 1);
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 500; m++) {
      int m2 = 2 * m;
      double even = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
      d = 1 / nonZero(1 + even * d, tiny);
      c = nonZero(1 + even / c, tiny);
      h *= d * c;
      double odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
      d = 1 / nonZero(1 + odd * d, tiny);
      c = nonZero(1 + odd / c, tiny);
      double step = d * c;
      h *= step;
      if (Math.abs(step - 1) < 1e-15) {
        break;
      }
    }
    return h;
  }

  private static double nonZero(double v, double tiny) {
    return Math.abs(v) < tiny ? tiny : v;
  }

  /** ln Γ(z) for z > 0, Lanczos' approximation (g = 7, 9 terms; ~1e-15 relative). */
  private static double logGamma(double z) {
    if (z < 0.5) {
      return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
    }
    double[] g = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
        771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
        9.9843695780195716e-6, 1.5056327351493116e-7};
    z -= 1;
    double sum = g[0];
    for (int i = 1; i < g.length; i++) {
      sum += g[i] / (z + i);
    }
    double t = z + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
  }
}
