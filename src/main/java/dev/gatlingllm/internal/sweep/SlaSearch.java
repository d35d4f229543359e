package dev.gatlingllm.internal.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * vLLM's SLA search over whole numbers: from the first value, double while the SLA holds
 * (up to the value that stands for "unlimited"), then bisect between the last value that
 * held and the first that did not, down to neighbours. The answer is the largest value that
 * held; 0 when none did.
 */
final class SlaSearch {

  /** One tested value. */
  record Step(int value, boolean passed, String phase) {}

  /** The answer and every value tested on the way, in order. */
  record Result(int value, int lowerBound, int upperBound, List<Step> steps,
      boolean capped) {}

  private SlaSearch() {}

  /**
   * @param init   the first value (the estimate from the unlimited run), at least 1
   * @param limit  the value standing for unlimited: doubling stops on reaching it
   * @param passes runs (or looks up) a value and says whether the SLA held there
   */
  static Result search(int init, int limit, IntPredicate passes) {
    if (init < 1) {
      throw new IllegalArgumentException("the SLA search starts at 1 or more, not " + init);
    }
    List<Step> steps = new ArrayList<>();
    int maxPassing = 0;
    int minFailing = 0;
    int value = init;
    while (true) {
      boolean ok = passes.test(value);
      steps.add(new Step(value, ok, "bounds"));
      if (!ok) {
        minFailing = value;
        break;
      }
      maxPassing = value;
      if (value >= limit) {
        break;
      }
      value = (int) Math.min((long) value * 2, limit);
    }
    if (minFailing == 0) {
      // held everywhere up to "unlimited": nothing to bisect
      return new Result(maxPassing, maxPassing, limit, steps, true);
    }
    int left = maxPassing;
    int right = minFailing;
    while (right - left > 1) {
      int mid = left + (right - left) / 2;
      boolean ok = passes.test(mid);
      steps.add(new Step(mid, ok, "bisect"));
      if (ok) {
        left = mid;
      } else {
        right = mid;
      }
    }
    return new Result(left, maxPassing, minFailing, steps, false);
  }
}
