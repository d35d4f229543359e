package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.client.CancelAfter;
import java.util.SplittableRandom;

/**
 * Which requests of a run the client cancels on purpose, and when ({@code --cancel-fraction}
 * with {@code --cancel-after-tokens} or {@code --cancel-after-ms}): users who leave.
 *
 * <p>The choice is exact, not a coin per request as AIPerf's: the request indices are cut into
 * runs of about {@code 1 / fraction} consecutive indices (index {@code k} is in run
 * {@code floor(k * fraction)}), and one index of each run, picked from the seed, is cancelled.
 * So among the first {@code n} requests, {@code fraction * n} are chosen, to within one, and
 * the same seed picks the same requests; a coin would leave the count to chance (10 % of 100
 * requests with a coin is anything from 4 to 16 at two standard deviations).
 *
 * @param fraction the share of requests cancelled, 0 to 1
 * @param after    when a chosen request is cancelled
 * @param seed     picks the request of each run ({@code --seed})
 */
public record Cancellation(double fraction, CancelAfter after, long seed) {

  /** No request is cancelled. */
  public static final Cancellation NONE = new Cancellation(0, CancelAfter.NEVER, 0);

  public Cancellation {
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException("the cancel fraction is a share from 0 to 1, got "
          + fraction);
    }
    if (fraction > 0 && !after.cancels()) {
      throw new IllegalArgumentException("a cancel fraction needs a point to cancel at: after "
          + "N tokens or after T ms");
    }
  }

  /** Whether any request is cancelled. */
  public boolean cancels() {
    return fraction > 0;
  }

  /** When the request of index {@code index} (0-based) is cancelled: never, or {@link #after}. */
  public CancelAfter forRequest(long index) {
    return chosen(index) ? after : CancelAfter.NEVER;
  }

  /** Whether the request of index {@code index} is one of those cancelled. */
  public boolean chosen(long index) {
    if (fraction <= 0 || index < 0) {
      return false;
    }
    if (fraction >= 1) {
      return true;
    }
    long run = run(index);
    long first = index;
    while (first > 0 && run(first - 1) == run) {
      first--;
    }
    long last = index;
    while (run(last + 1) == run) {
      last++;
    }
    long picked = first + new SplittableRandom(seed ^ mix(run)).nextLong(last - first + 1);
    return picked == index;
  }

  /** The run of consecutive indices {@code index} belongs to. */
  private long run(long index) {
    return (long) Math.floor(index * fraction);
  }

  /** SplitMix64's finaliser: neighbouring runs get unrelated generators. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
