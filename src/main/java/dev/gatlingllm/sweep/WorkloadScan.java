package dev.gatlingllm.sweep;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The even load scan (current vLLM's {@code serve_workload}, after guidellm's sweep): one run
 * at concurrency 1, one with everything at once, then {@code iters} evenly spaced loads
 * strictly between the two ends the first runs give.
 */
final class WorkloadScan {

  private WorkloadScan() {}

  /**
   * The loads between {@code low} and {@code high}: {@code low + (high − low)·k/(iters + 1)}
   * for k = 1..iters. Rates keep two decimals; concurrencies are rounded to whole numbers,
   * and repeats or values outside (low, high) are dropped.
   */
  static List<Number> points(SlaVariable variable, double low, double high, int iters) {
    if (iters < 1) {
      throw new IllegalArgumentException("--workload-iters must be at least 1, got " + iters);
    }
    Set<Number> out = new LinkedHashSet<>();
    if (!(high > low)) {
      return new ArrayList<>(out);
    }
    for (int k = 1; k <= iters; k++) {
      double v = low + (high - low) * k / (iters + 1);
      if (variable == SlaVariable.MAX_CONCURRENCY) {
        long c = Math.round(v);
        if (c > low && c < high) {
          out.add((int) c);
        }
      } else {
        double r = BigDecimal.valueOf(v).setScale(2, RoundingMode.HALF_EVEN).doubleValue();
        if (r > low && r < high && r > 0) {
          out.add(r);
        }
      }
    }
    return new ArrayList<>(out);
  }
}
