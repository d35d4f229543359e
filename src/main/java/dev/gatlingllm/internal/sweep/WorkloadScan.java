package dev.gatlingllm.internal.sweep;

import java.util.List;
import java.util.TreeSet;

/**
 * The even load scan of vLLM's {@code serve_workload}: a serial run (concurrency 1), a batch
 * run (concurrency = the number of prompts), then the loads evenly spaced between the values
 * those two runs give, {@code --workload-iters} levels counting the two ends.
 */
final class WorkloadScan {

  private WorkloadScan() {}

  /**
   * The loads between the ends, as vLLM places them: {@code linspace(serial, batch, iters)}
   * without its two ends, each rounded half to even (Python's {@code round}), de-duplicated and
   * sorted. A value may equal an end: vLLM runs it again at that load without the end's
   * concurrency. Loads below 1 (a server under 1 req/s at its batch end) are left out: no
   * benchmark runs at a rate or concurrency of 0.
   *
   * @param serial the serial run's estimate, rounded up
   * @param batch  the batch run's estimate, rounded down
   * @param iters  {@code --workload-iters}, at least 2
   */
  static List<Integer> points(int serial, int batch, int iters) {
    checkIters(iters);
    TreeSet<Integer> out = new TreeSet<>();
    // numpy's linspace: start + k · step, step = (stop − start) / (num − 1)
    double step = (double) (batch - serial) / (iters - 1);
    for (int k = 1; k < iters - 1; k++) {
      int v = (int) Math.rint(k * step + serial);
      if (v >= 1) {
        out.add(v);
      }
    }
    return List.copyOf(out);
  }

  static void checkIters(int iters) {
    if (iters < 2) {
      throw new IllegalArgumentException("--workload-iters counts the serial and the batch "
          + "runs, so it must be at least 2, got " + iters);
    }
  }
}
