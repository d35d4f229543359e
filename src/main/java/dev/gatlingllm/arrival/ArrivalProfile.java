package dev.gatlingllm.arrival;

import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.internal.arrival.ConcurrencyLimiter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

/**
 * How the requests of a run arrive, with the semantics of vLLM's {@code bench serve}:
 * all at once (rate {@code inf}, the default), a Poisson process ({@code burstiness} 1),
 * gamma-distributed gaps (any other burstiness), a linear or exponential ramp between two
 * integer rates, or the replay of recorded arrival times. Optionally a cap on requests in
 * flight. Immutable; build it with {@link #builder()}.
 *
 * <pre>{@code
 * ArrivalProfile poisson = ArrivalProfile.builder().numPrompts(1000).requestRate(20).seed(7).build();
 * ArrivalProfile ramp = ArrivalProfile.builder()
 *     .numPrompts(600).rampUp(RampUpStrategy.LINEAR, 1, 30).maxConcurrency(64).build();
 * ArrivalProfile replay = ArrivalProfile.builder()
 *     .replay(ArrivalTrace.fromBurstGptCsv(Path.of("BurstGPT_1.csv"))).numPrompts(5000)
 *     .replayTimeScale(0.5).build();
 * }</pre>
 */
public final class ArrivalProfile {

  /** vLLM's {@code --num-prompts} default. */
  public static final int DEFAULT_NUM_PROMPTS = 1000;

  private final int numPrompts;
  private final double requestRate;
  private final double burstiness;
  private final RampUpStrategy rampUpStrategy;
  private final int rampUpStartRps;
  private final int rampUpEndRps;
  private final long seed;
  private final Integer maxConcurrency;
  private final ArrivalTrace replayTrace;
  private final double replayTimeScale;

  private ArrivalProfile(Builder b, int numPrompts) {
    this.numPrompts = numPrompts;
    this.requestRate = b.requestRate;
    this.burstiness = b.burstiness;
    this.rampUpStrategy = b.rampUpStrategy;
    this.rampUpStartRps = b.rampUpStrategy == null ? 0 : b.rampUpStartRps;
    this.rampUpEndRps = b.rampUpStrategy == null ? 0 : b.rampUpEndRps;
    this.seed = b.seed;
    this.maxConcurrency = b.maxConcurrency;
    this.replayTrace = b.replayTrace;
    this.replayTimeScale = b.replayTimeScale == null ? 1.0 : b.replayTimeScale;
  }

  /** A builder with vLLM's defaults: 1000 requests, rate {@code inf}, burstiness 1, seed 0, no cap. */
  public static Builder builder() {
    return Builder.DEFAULTS;
  }

  /** Number of requests (arrivals) in the run. */
  public int numPrompts() {
    return numPrompts;
  }

  /** Requests per second; {@link Double#POSITIVE_INFINITY} when everything is sent at once or ramped. */
  public double requestRate() {
    return requestRate;
  }

  /** Gamma shape of the gaps: 1 is Poisson, below 1 burstier, above 1 more regular. */
  public double burstiness() {
    return burstiness;
  }

  /** The ramp, when the rate ramps. */
  public Optional<RampUpStrategy> rampUpStrategy() {
    return Optional.ofNullable(rampUpStrategy);
  }

  /** Rate of the first request of a ramp; empty without a ramp. */
  public OptionalInt rampUpStartRps() {
    return rampUpStrategy == null ? OptionalInt.empty() : OptionalInt.of(rampUpStartRps);
  }

  /** Rate of the last request of a ramp; empty without a ramp. */
  public OptionalInt rampUpEndRps() {
    return rampUpStrategy == null ? OptionalInt.empty() : OptionalInt.of(rampUpEndRps);
  }

  /** Seed of the gap sampler: same seed and parameters, same schedule. */
  public long seed() {
    return seed;
  }

  /** Most requests in flight at once; empty when unlimited. */
  public OptionalInt maxConcurrency() {
    return maxConcurrency == null ? OptionalInt.empty() : OptionalInt.of(maxConcurrency);
  }

  /** The recorded arrivals replayed instead of sampled ones, if any. */
  public Optional<ArrivalTrace> replayTrace() {
    return Optional.ofNullable(replayTrace);
  }

  /** Factor applied to every recorded gap (0.5 replays twice as fast); 1 without replay. */
  public double replayTimeScale() {
    return replayTimeScale;
  }

  /**
   * Computes the arrival offsets; deterministic for a given profile. The run's own code
   * calls {@link ArrivalSchedule#compute} itself: the schedule's type is internal.
   */
  ArrivalSchedule schedule() {
    return ArrivalSchedule.compute(this);
  }

  /** A fresh permit gate for one run: bounded by {@link #maxConcurrency()}, else a no-op. */
  ConcurrencyLimiter newLimiter() {
    return maxConcurrency == null
        ? ConcurrencyLimiter.unlimited()
        : ConcurrencyLimiter.bounded(maxConcurrency);
  }

  /**
   * The request rate the result states ({@code request_rate}): the one asked for (infinite
   * for all at once), or for a replay its mean rate over the trace (infinite when every
   * arrival is at 0).
   */
  public double resultRequestRate() {
    if (replayTrace == null) {
      return requestRate;
    }
    long span = schedule().lastOffsetNanos();
    return span == 0 ? Double.POSITIVE_INFINITY : numPrompts / (span / 1e9);
  }

  /**
   * The traffic keys of vLLM's result JSON, in its order: {@code request_rate} (a
   * {@link Double}, or the string {@code "inf"}), {@code burstiness}, {@code max_concurrency}
   * ({@link Integer} or null), and when ramping {@code ramp_up_strategy},
   * {@code ramp_up_start_rps}, {@code ramp_up_end_rps}. Then {@code seed}, which vLLM does
   * not write. A replay writes its mean rate as {@code request_rate}, null burstiness, and
   * {@code arrival_replay} ({@code source}, {@code time_scale}).
   */
  public Map<String, Object> resultParameters() {
    Map<String, Object> params = new LinkedHashMap<>();
    double rate = resultRequestRate();
    params.put("request_rate", Double.isInfinite(rate) ? "inf" : rate);
    params.put("burstiness", replayTrace != null ? null : burstiness);
    params.put("max_concurrency", maxConcurrency);
    if (rampUpStrategy != null) {
      params.put("ramp_up_strategy", rampUpStrategy.cliName());
      params.put("ramp_up_start_rps", rampUpStartRps);
      params.put("ramp_up_end_rps", rampUpEndRps);
    }
    params.put("seed", seed);
    if (replayTrace != null) {
      Map<String, Object> replay = new LinkedHashMap<>();
      replay.put("source", replayTrace.source());
      replay.put("time_scale", replayTimeScale);
      params.put("arrival_replay", replay);
    }
    return Collections.unmodifiableMap(params);
  }

  @Override
  public String toString() {
    return "ArrivalProfile" + resultParameters() + " numPrompts=" + numPrompts;
  }

  /**
   * Profiles are equal when they give the same schedule and cap: two profiles built alike
   * are one profile.
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof ArrivalProfile p && numPrompts == p.numPrompts
        && Double.compare(requestRate, p.requestRate) == 0
        && Double.compare(burstiness, p.burstiness) == 0
        && rampUpStrategy == p.rampUpStrategy && rampUpStartRps == p.rampUpStartRps
        && rampUpEndRps == p.rampUpEndRps && seed == p.seed
        && Objects.equals(maxConcurrency, p.maxConcurrency) && Objects.equals(replayTrace, p.replayTrace)
        && Double.compare(replayTimeScale, p.replayTimeScale) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(numPrompts, requestRate, burstiness, rampUpStrategy, rampUpStartRps,
        rampUpEndRps, seed, maxConcurrency, replayTrace,
        replayTimeScale);
  }

  /**
   * Immutable builder: every call returns a new builder; {@link #build()} validates with
   * vLLM's rules and names the bad value in its message.
   */
  public static final class Builder implements Cloneable {

    private static final Builder DEFAULTS = new Builder();

    private Integer numPrompts;
    private double requestRate = Double.POSITIVE_INFINITY;
    private double burstiness = 1.0;
    private RampUpStrategy rampUpStrategy;
    private Integer rampUpStartRps;
    private Integer rampUpEndRps;
    private long seed;
    private Integer maxConcurrency;
    private ArrivalTrace replayTrace;
    private Double replayTimeScale;

    private Builder() {}

    /** A copy with {@code change} made to it; no builder is changed once it is returned. */
    private Builder with(Consumer<Builder> change) {
      try {
        Builder b = (Builder) clone();
        change.accept(b);
        return b;
      } catch (CloneNotSupportedException e) {
        throw new AssertionError(e); // a Cloneable's clone() does not throw it
      }
    }

    /** Number of requests; default 1000, or the trace length when replaying. Must be >= 1. */
    public Builder numPrompts(int numPrompts) {
      return with(b -> b.numPrompts = numPrompts);
    }

    /**
     * Requests per second (> 0), or {@link Double#POSITIVE_INFINITY} (the default) to send
     * every request at once. Not allowed together with a ramp or a replay.
     */
    public Builder requestRate(double requestsPerSecond) {
      return with(b -> b.requestRate = requestsPerSecond);
    }

    /** Gamma shape of the gaps (> 0; default 1 = Poisson). Ignored at rate {@code inf}. */
    public Builder burstiness(double burstiness) {
      return with(b -> b.burstiness = burstiness);
    }

    /** Ramp the rate from {@code startRps} (first request) to {@code endRps} (last request). */
    public Builder rampUp(RampUpStrategy strategy, int startRps, int endRps) {
      Objects.requireNonNull(strategy, "strategy");
      return with(b -> {
        b.rampUpStrategy = strategy;
        b.rampUpStartRps = startRps;
        b.rampUpEndRps = endRps;
      });
    }

    /** The ramp's shape; null removes the ramp. Needs both rates. */
    public Builder rampUpStrategy(RampUpStrategy strategy) {
      return with(b -> b.rampUpStrategy = strategy);
    }

    /** The ramp's shape by vLLM's name ({@code linear} or {@code exponential}). */
    public Builder rampUpStrategy(String strategy) {
      return rampUpStrategy(RampUpStrategy.fromCliName(strategy));
    }

    /** Rate of the first request of the ramp (vLLM's {@code --ramp-up-start-rps}). */
    public Builder rampUpStartRps(int startRps) {
      return with(b -> b.rampUpStartRps = startRps);
    }

    /** Rate of the last request of the ramp (vLLM's {@code --ramp-up-end-rps}). */
    public Builder rampUpEndRps(int endRps) {
      return with(b -> b.rampUpEndRps = endRps);
    }

    /** Seed of the gap sampler (default 0, like vLLM's {@code --seed}). */
    public Builder seed(long seed) {
      return with(b -> b.seed = seed);
    }

    /** Most requests in flight at once (>= 1); the rest wait client-side, in arrival order. */
    public Builder maxConcurrency(int maxConcurrency) {
      return with(b -> b.maxConcurrency = maxConcurrency);
    }

    /** Replay these recorded arrival times instead of sampling gaps. */
    public Builder replay(ArrivalTrace trace) {
      Objects.requireNonNull(trace, "trace");
      return with(b -> b.replayTrace = trace);
    }

    /** Multiplies every recorded gap (> 0; 0.5 replays twice as fast, 2 half as fast). */
    public Builder replayTimeScale(double factor) {
      return with(b -> b.replayTimeScale = factor);
    }

    /**
     * Validates and builds.
     *
     * @throws IllegalArgumentException naming the first bad value and what is allowed
     */
    public ArrivalProfile build() {
      if (numPrompts != null && numPrompts < 1) {
        throw new IllegalArgumentException("numPrompts must be >= 1, got " + numPrompts);
      }
      if (!(requestRate > 0)) {
        throw new IllegalArgumentException("requestRate must be > 0 (requests per second) or "
            + "Double.POSITIVE_INFINITY to send all requests at once, got " + requestRate);
      }
      if (!(burstiness > 0) || Double.isInfinite(burstiness)) {
        throw new IllegalArgumentException("burstiness must be a positive finite number "
            + "(1 = Poisson process, < 1 burstier, > 1 more regular), got " + burstiness);
      }
      if (maxConcurrency != null && maxConcurrency < 1) {
        throw new IllegalArgumentException(
            "maxConcurrency must be >= 1 when set, got " + maxConcurrency);
      }
      validateRamp();
      int resolvedCount = numPrompts == null ? DEFAULT_NUM_PROMPTS : numPrompts;
      if (replayTrace != null) {
        resolvedCount = validateReplay();
      } else if (replayTimeScale != null) {
        throw new IllegalArgumentException("replayTimeScale " + replayTimeScale
            + " is set but nothing is replayed; add replay(trace) or remove replayTimeScale");
      }
      return new ArrivalProfile(this, resolvedCount);
    }

    private void validateRamp() {
      if (rampUpStrategy == null) {
        if (rampUpStartRps != null || rampUpEndRps != null) {
          throw new IllegalArgumentException("rampUpStartRps/rampUpEndRps (" + rampUpStartRps
              + "/" + rampUpEndRps + ") are set without rampUpStrategy; "
              + "choose 'linear' or 'exponential'");
        }
        return;
      }
      String name = rampUpStrategy.cliName();
      if (Double.isFinite(requestRate)) {
        throw new IllegalArgumentException("requestRate " + requestRate
            + " cannot be combined with the " + name + " ramp-up: the ramp controls the rate; "
            + "remove requestRate (it must stay inf, like vLLM's --request-rate)");
      }
      if (rampUpStartRps == null || rampUpEndRps == null) {
        throw new IllegalArgumentException("the " + name + " ramp-up needs both rampUpStartRps "
            + "and rampUpEndRps, got start=" + rampUpStartRps + ", end=" + rampUpEndRps);
      }
      if (rampUpStartRps < 0 || rampUpEndRps < 0) {
        throw new IllegalArgumentException("rampUpStartRps and rampUpEndRps must be >= 0, got start="
            + rampUpStartRps + ", end=" + rampUpEndRps);
      }
      if (rampUpStartRps > rampUpEndRps) {
        throw new IllegalArgumentException("rampUpStartRps (" + rampUpStartRps
            + ") must be <= rampUpEndRps (" + rampUpEndRps + ")");
      }
      if (rampUpStrategy == RampUpStrategy.EXPONENTIAL && rampUpStartRps == 0) {
        throw new IllegalArgumentException(
            "the exponential ramp-up needs rampUpStartRps > 0, got 0");
      }
      if (rampUpEndRps == 0) {
        // vLLM accepts this and then divides by a zero rate; no request could ever be sent.
        throw new IllegalArgumentException("the " + name + " ramp-up needs rampUpEndRps > 0, got 0");
      }
      if (replayTrace != null) {
        throw new IllegalArgumentException("the " + name + " ramp-up cannot be combined with "
            + "replay of " + replayTrace.source() + ": a replay has its own timing");
      }
    }

    private int validateReplay() {
      if (Double.isFinite(requestRate)) {
        throw new IllegalArgumentException("requestRate " + requestRate + " cannot be combined "
            + "with replay of " + replayTrace.source() + ": a replay has its own timing");
      }
      if (burstiness != 1.0) {
        throw new IllegalArgumentException("burstiness " + burstiness + " cannot be combined "
            + "with replay of " + replayTrace.source() + ": a replay has its own timing");
      }
      if (replayTimeScale != null && (!(replayTimeScale > 0) || replayTimeScale.isInfinite())) {
        throw new IllegalArgumentException(
            "replayTimeScale must be a positive finite factor, got " + replayTimeScale);
      }
      if (numPrompts == null) {
        return replayTrace.size();
      }
      if (numPrompts > replayTrace.size()) {
        throw new IllegalArgumentException("numPrompts " + numPrompts + " exceeds the "
            + replayTrace.size() + " arrivals of " + replayTrace.source()
            + "; use at most " + replayTrace.size());
      }
      return numPrompts;
    }
  }
}
