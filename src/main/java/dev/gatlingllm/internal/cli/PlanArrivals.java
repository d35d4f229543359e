package dev.gatlingllm.internal.cli;

import static dev.gatlingllm.internal.cli.BenchChecks.flagged;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.arrival.ArrivalTrace;
import dev.gatlingllm.arrival.RampUpStrategy;
import java.util.List;
import java.util.Optional;

/**
 * The run's arrivals from vLLM's flags ({@code --request-rate}, {@code --burstiness}, the
 * ramp-up and {@code --max-concurrency}): their checks in the words of the flags, and the
 * {@link ArrivalProfile} they make. {@link BenchPlan} calls both; nothing here keeps state.
 */
final class PlanArrivals {

  private PlanArrivals() {}

  /**
   * Refuses arrival flags that cannot make a profile, in the words of the flags.
   *
   * @param selfTimed whether a {@code timed_trace} is replayed at its own timestamps
   */
  static void check(BenchArgs args, boolean selfTimed) {
    if (args.has("max-concurrency") && args.integer("max-concurrency").orElseThrow() < 1) {
      throw new IllegalArgumentException("--max-concurrency must be >= 1, got "
          + args.integer("max-concurrency").orElseThrow());
    }
    checkValues(args);
    // what the flags alone do not show (a replay with a rate...) is refused by the profile
    flagged("arrival flags", () -> profile(args, selfTimed, 1, Optional.empty()));
  }

  /**
   * Each arrival flag's value, refused in the words of the flag the user typed: the arrival
   * profile checks the same values again, but names them as the DSL does ({@code
   * requestRate}, {@code Double.POSITIVE_INFINITY}).
   */
  private static void checkValues(BenchArgs args) {
    double rate = args.decimal("request-rate").orElseThrow();
    if (!(rate > 0)) {
      throw new IllegalArgumentException("--request-rate must be > 0, or inf to send "
          + "everything at once; got " + args.value("request-rate").orElseThrow().strip());
    }
    double burstiness = args.decimal("burstiness").orElseThrow();
    if (!(burstiness > 0) || Double.isInfinite(burstiness)) {
      throw new IllegalArgumentException("--burstiness must be a finite number > 0 (1: "
          + "Poisson arrivals, below 1 burstier, above 1 more regular); got "
          + args.value("burstiness").orElseThrow().strip());
    }
    if (!args.has("ramp-up-strategy")) {
      return;
    }
    String strategy = args.value("ramp-up-strategy").orElseThrow();
    try {
      RampUpStrategy.fromCliName(strategy);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--ramp-up-strategy must be linear or exponential; "
          + "got " + strategy, e);
    }
    for (String flag : List.of("ramp-up-start-rps", "ramp-up-end-rps")) {
      if (args.has(flag) && args.integer(flag).orElseThrow() < 0) {
        throw new IllegalArgumentException("--" + flag + " must be >= 0; got "
            + args.integer(flag).orElseThrow());
      }
    }
    if (args.has("ramp-up-start-rps") && args.has("ramp-up-end-rps")) {
      int start = args.integer("ramp-up-start-rps").orElseThrow();
      int end = args.integer("ramp-up-end-rps").orElseThrow();
      if (start > end) {
        throw new IllegalArgumentException("--ramp-up-start-rps (" + start
            + ") must be <= --ramp-up-end-rps (" + end + ")");
      }
      if (end == 0) {
        throw new IllegalArgumentException("--ramp-up-end-rps must be > 0; got 0");
      }
      if (start == 0 && strategy.strip().equalsIgnoreCase("exponential")) {
        throw new IllegalArgumentException("--ramp-up-strategy exponential needs "
            + "--ramp-up-start-rps > 0 (it multiplies the rate); got 0");
      }
    }
  }

  /**
   * The arrival profile of the sampled requests: a {@code timed_trace} replayed at its own
   * timestamps ({@code selfTimes}, in seconds) unless {@code --no-self-timed}, else vLLM's
   * rate, ramp and burstiness.
   */
  static ArrivalProfile profile(BenchArgs args, boolean selfTimed, int numPrompts,
      Optional<double[]> selfTimes) {
    ArrivalProfile.Builder b = ArrivalProfile.builder().numPrompts(numPrompts)
        .seed(args.integer("seed").orElseThrow())
        .burstiness(args.decimal("burstiness").orElseThrow());
    double rate = args.decimal("request-rate").orElseThrow();
    if (selfTimed && selfTimes.isPresent()) {
      if (Double.isFinite(rate) || args.has("ramp-up-strategy")) {
        throw new IllegalArgumentException("timed_trace is replayed at its own timestamps: "
            + "--request-rate and --ramp-up-strategy need --no-self-timed");
      }
      b = b.replay(ArrivalTrace.ofSeconds(selfTimes.get()));
    } else if (args.has("ramp-up-strategy")) {
      if (!Double.isInfinite(rate)) {
        throw new IllegalArgumentException("When using ramp-up, do not specify "
            + "--request-rate: the ramp-up flags set the rate. Remove --request-rate " + rate);
      }
      if (!args.has("ramp-up-start-rps") || !args.has("ramp-up-end-rps")) {
        throw new IllegalArgumentException("When using --ramp-up-strategy, both "
            + "--ramp-up-start-rps and --ramp-up-end-rps must be specified");
      }
      b = b.rampUp(RampUpStrategy.fromCliName(args.value("ramp-up-strategy").orElseThrow()),
          args.integer("ramp-up-start-rps").orElseThrow(),
          args.integer("ramp-up-end-rps").orElseThrow());
    } else {
      if (args.has("ramp-up-start-rps") || args.has("ramp-up-end-rps")) {
        throw new IllegalArgumentException("--ramp-up-start-rps and --ramp-up-end-rps need "
            + "--ramp-up-strategy linear or exponential");
      }
      b = b.requestRate(rate);
    }
    if (args.has("max-concurrency")) {
      b = b.maxConcurrency(args.integer("max-concurrency").orElseThrow());
    }
    return b.build();
  }
}
