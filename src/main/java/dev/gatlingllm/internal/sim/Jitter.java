package dev.gatlingllm.internal.sim;

import dev.gatlingllm.sim.SimulatorConfig;
import java.util.SplittableRandom;

/**
 * The jitter of one generation request: each call to {@link #apply} multiplies a delay by its
 * own uniform factor in {@code [1 - jitter, 1 + jitter]}. The factors come from a random
 * stream fixed by the configured seed and the request's arrival number, so a run repeats.
 */
public final class Jitter {

  private static final Jitter NONE = new Jitter(0, null);

  private final double fraction;
  /** Null without jitter, so the common case draws no random numbers. */
  private final SplittableRandom random;

  private Jitter(double fraction, SplittableRandom random) {
    this.fraction = fraction;
    this.random = random;
  }

  /** The jitter of request {@code number} (0-based arrival order) under {@code config}. */
  public static Jitter of(SimulatorConfig config, long number) {
    return config.jitter() > 0
        ? new Jitter(config.jitter(), new SplittableRandom(config.seed() * 0x9E3779B97F4A7C15L + number))
        : NONE;
  }

  /** {@code nanos} with the next jitter factor applied; 0 stays 0 and draws nothing. */
  public long apply(long nanos) {
    if (random == null || nanos == 0) {
      return nanos;
    }
    double factor = 1 + fraction * (2 * random.nextDouble() - 1);
    return Math.round(nanos * factor);
  }
}
