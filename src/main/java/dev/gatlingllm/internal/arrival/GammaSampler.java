package dev.gatlingllm.internal.arrival;

import java.util.SplittableRandom;

/**
 * Gamma-distributed draws from a seeded {@link SplittableRandom}.
 *
 * <p>Everything is built on {@code nextDouble()} alone (whose algorithm the JDK specifies), with
 * our own normal and gamma transforms, so a seed gives the same schedule on every JDK. Not
 * thread-safe: one sampler per schedule computation.
 */
final class GammaSampler {

  private final SplittableRandom random;

  GammaSampler(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /** One draw of Gamma(shape, scale); mean {@code shape * scale}. */
  double next(double shape, double scale) {
    if (shape == 1.0) {
      // Exponential: exact inversion is cheaper and better conditioned than the general method.
      return -Math.log(uniformOpenZero()) * scale;
    }
    if (shape < 1.0) {
      // Marsaglia–Tsang needs shape >= 1: Gamma(a) = Gamma(a + 1) * U^(1/a).
      return standardGamma(shape + 1.0) * Math.pow(uniformOpenZero(), 1.0 / shape) * scale;
    }
    return standardGamma(shape) * scale;
  }

  /** Marsaglia & Tsang (2000), "A simple method for generating gamma variables"; shape >= 1. */
  private double standardGamma(double shape) {
    double d = shape - 1.0 / 3.0;
    double c = 1.0 / Math.sqrt(9.0 * d);
    // Acceptance is above 95 % for every shape >= 1; the bound only guards against a broken RNG.
    for (int attempt = 0; attempt < 1_000_000; attempt++) {
      double x = normal();
      double t = 1.0 + c * x;
      if (t <= 0.0) {
        continue;
      }
      double v = t * t * t;
      double u = uniformOpenZero();
      double x2 = x * x;
      if (u < 1.0 - 0.0331 * x2 * x2 || Math.log(u) < 0.5 * x2 + d * (1.0 - v + Math.log(v))) {
        return d * v;
      }
    }
    throw new IllegalStateException("gamma sampler did not accept a draw for shape " + shape);
  }

  /** Standard normal by Box–Muller (one value per call, no hidden cached state). */
  private double normal() {
    double radius = Math.sqrt(-2.0 * Math.log(uniformOpenZero()));
    return radius * Math.cos(2.0 * Math.PI * random.nextDouble());
  }

  /** Uniform on (0, 1]: safe to take the logarithm of. */
  private double uniformOpenZero() {
    return 1.0 - random.nextDouble();
  }
}
