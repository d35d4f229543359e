package dev.gatlingllm.internal.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntToDoubleFunction;

/**
 * numpy's mean / median / std / percentile on samples in seconds, reported in milliseconds
 * the way vLLM does ({@code np.mean(values or 0) * 1000}): an empty sample gives 0.
 */
final class Stats {

  private Stats() {}

  /** A sorted sample in seconds: {@code size} values, the i-th read by {@code at}. */
  private record Sorted(int size, IntToDoubleFunction at) {
    double get(int i) {
      return at.applyAsDouble(i);
    }
  }

  /** Statistics of seconds values; sorts the array in place. */
  static Distribution ofSeconds(double[] seconds, int count, double[] percentiles) {
    Arrays.sort(seconds, 0, count);
    return of(new Sorted(count, i -> seconds[i]), percentiles);
  }

  /**
   * Statistics of microsecond values, taken as the seconds {@code micros / 1e6} that the
   * result JSON holds; sorts the array in place (4 bytes per sample instead of 8).
   */
  static Distribution ofMicros(int[] micros, int count, double[] percentiles) {
    Arrays.sort(micros, 0, count);
    return of(new Sorted(count, i -> micros[i] / 1e6), percentiles);
  }

  private static Distribution of(Sorted s, double[] percentiles) {
    int n = s.size();
    List<PercentileValue> ps = new ArrayList<>(percentiles.length);
    if (n == 0) {
      for (double p : percentiles) {
        ps.add(new PercentileValue(p, 0.0));
      }
      return new Distribution(0.0, 0.0, 0.0, ps);
    }
    double mean = mean(s);
    for (double p : percentiles) {
      ps.add(new PercentileValue(p, percentile(s, p) * 1000));
    }
    return new Distribution(mean * 1000, median(s) * 1000, std(s, mean) * 1000, ps);
  }

  private static double mean(Sorted s) {
    return sum(s.size(), s::get) / s.size();
  }

  /** Population standard deviation (ddof 0), two-pass like numpy. */
  private static double std(Sorted s, double mean) {
    return Math.sqrt(sum(s.size(), i -> {
      double d = s.get(i) - mean;
      return d * d;
    }) / s.size());
  }

  /** Compensated (Neumaier) sum of n terms: as accurate as numpy's pairwise sum or better. */
  private static double sum(int n, IntToDoubleFunction term) {
    double sum = 0;
    double comp = 0;
    for (int i = 0; i < n; i++) {
      double x = term.applyAsDouble(i);
      double t = sum + x;
      comp += Math.abs(sum) >= Math.abs(x) ? (sum - t) + x : (x - t) + sum;
      sum = t;
    }
    return sum + comp;
  }

  private static double median(Sorted s) {
    int n = s.size();
    int mid = n / 2;
    return n % 2 == 1 ? s.get(mid) : (s.get(mid - 1) + s.get(mid)) / 2;
  }

  /** numpy's default ('linear') method: virtual index (n - 1) * p / 100, lerp of neighbours. */
  private static double percentile(Sorted s, double p) {
    int n = s.size();
    double virtual = (n - 1) * (p / 100);
    if (virtual >= n - 1) {
      return s.get(n - 1);
    }
    if (virtual <= 0) {
      return s.get(0);
    }
    int below = (int) Math.floor(virtual);
    double t = virtual - below;
    double a = s.get(below);
    double b = s.get(below + 1);
    double diff = b - a;
    // numpy's _lerp interpolates from the nearer end, which changes the last bit
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
  }
}
