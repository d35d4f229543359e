package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.metrics.TaskType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What was run: the parameters vLLM writes at the head of its result JSON and uses in the
 * default file name. Immutable; build it with {@link #builder(String)}.
 *
 * <pre>{@code
 * RunInfo run = RunInfo.builder("meta-llama/Llama-3.1-8B-Instruct")
 *     .backend("openai-chat")
 *     .numPrompts(1000)
 *     .requestRate(10)
 *     .maxConcurrency(64)
 *     .build();
 * }</pre>
 */
public final class RunInfo {

  /** The ramps {@code --ramp-up-strategy} names, as vLLM's choices list them. */
  public static final List<String> RAMP_UP_STRATEGIES = List.of("linear", "exponential");

  private final String backend;
  private final String endpointType;
  private final TaskType taskType;
  private final String modelId;
  private final String tokenizerId;
  private final Integer numPrompts;
  private final double requestRate;
  private final Double burstiness;
  private final Map<String, Object> arrivalReplay;
  private final Integer maxConcurrency;
  private final String rampUpStrategy;
  private final Double rampUpStartRps;
  private final Double rampUpEndRps;
  private final List<Map<String, Object>> rpsChangeEvents;
  private final long seed;
  private final boolean seedGiven;
  private final Map<String, Object> extras;
  /** The builder this was built from: builders copy on every change, so it can be reused. */
  private final Builder source;

  private RunInfo(Builder b) {
    this.backend = b.backend;
    this.endpointType = b.endpointType != null ? b.endpointType : b.backend;
    this.taskType = b.taskType;
    this.modelId = b.modelId;
    this.tokenizerId = b.tokenizerId != null ? b.tokenizerId : b.modelId;
    this.numPrompts = b.numPrompts;
    this.requestRate = b.requestRate;
    this.burstiness = b.arrivalReplay != null ? null : b.burstiness;
    this.arrivalReplay = b.arrivalReplay;
    this.maxConcurrency = b.maxConcurrency;
    this.rampUpStrategy = b.rampUpStrategy;
    this.rampUpStartRps = b.rampUpStartRps;
    this.rampUpEndRps = b.rampUpEndRps;
    this.rpsChangeEvents = b.rpsChangeEvents;
    this.seed = b.seed;
    this.seedGiven = b.seedGiven;
    this.extras = Collections.unmodifiableMap(new LinkedHashMap<>(b.extras));
    this.source = b;
  }

  /** A builder for a run against {@code modelId} (the {@code --model} value). */
  public static Builder builder(String modelId) {
    return new Builder(modelId);
  }

  /** vLLM's {@code --backend} ({@code openai}, {@code openai-chat}, {@code vllm}, ...). */
  public String backend() {
    return backend;
  }

  /** Written as {@code endpoint_type}; vLLM writes the backend there, which is the default. */
  public String endpointType() {
    return endpointType;
  }

  /**
   * Which metric set the result has: generation unless {@link Builder#taskType} says
   * embedding. The backend name is only a label and never changes it.
   */
  public TaskType taskType() {
    return taskType;
  }

  public String modelId() {
    return modelId;
  }

  /** The tokenizer's name; the model id unless set. */
  public String tokenizerId() {
    return tokenizerId;
  }

  /** Number of prompts of the run; null means "the number of recorded requests". */
  public Integer numPrompts() {
    return numPrompts;
  }

  /** Requests per second; {@code +Infinity} when everything is sent at once. */
  public double requestRate() {
    return requestRate;
  }

  /** Gamma shape of the inter-arrival times; null for a replay of recorded arrivals. */
  public Double burstiness() {
    return burstiness;
  }

  /**
   * The replayed trace as the result JSON's {@code arrival_replay}: {@code source} and
   * {@code time_scale}; null when arrivals were not replayed.
   */
  public Map<String, Object> arrivalReplay() {
    return arrivalReplay;
  }

  /** Client-side cap on requests in flight; null when unbounded. */
  public Integer maxConcurrency() {
    return maxConcurrency;
  }

  /** {@code linear} or {@code exponential}; null without ramp-up. */
  public String rampUpStrategy() {
    return rampUpStrategy;
  }

  public Double rampUpStartRps() {
    return rampUpStartRps;
  }

  public Double rampUpEndRps() {
    return rampUpEndRps;
  }

  /** Rate steps of a ramp-up as the result JSON holds them, {@code rps} and {@code timestamp}. */
  public List<Map<String, Object>> rpsChangeEvents() {
    return rpsChangeEvents;
  }

  public long seed() {
    return seed;
  }

  /**
   * Whether the seed was given: an arrival profile's seed is written to the result JSON
   * (after the traffic keys) so that a run can be repeated; vLLM does not write it.
   */
  public boolean seedGiven() {
    return seedGiven;
  }

  /**
   * Keys of this plugin's own written after vLLM's (e.g. {@code client_self_check}), in the
   * order they were added.
   */
  public Map<String, Object> extras() {
    return extras;
  }

  /** A builder holding this run's values, to add to them. */
  public Builder toBuilder() {
    return source;
  }

  /** Immutable builder: every call returns a new builder; values are checked as they are set. */
  public static final class Builder {

    private String backend = "openai";
    private String endpointType;
    private TaskType taskType = TaskType.GENERATION;
    private String modelId;
    private String tokenizerId;
    private Integer numPrompts;
    private double requestRate = Double.POSITIVE_INFINITY;
    private double burstiness = 1.0;
    private Map<String, Object> arrivalReplay;
    private Integer maxConcurrency;
    private String rampUpStrategy;
    private Double rampUpStartRps;
    private Double rampUpEndRps;
    private List<Map<String, Object>> rpsChangeEvents = List.of();
    private long seed;
    private boolean seedGiven;
    private LinkedHashMap<String, Object> extras = new LinkedHashMap<>();

    private Builder(String modelId) {
      this.modelId = nonBlank(modelId, "modelId");
    }

    /** A copy of this builder with {@code change} applied: builders never change in place. */
    private Builder with(Consumer<Builder> change) {
      Builder b = copy();
      change.accept(b);
      return b;
    }

    private Builder copy() {
      Builder b = new Builder(modelId);
      b.backend = backend;
      b.endpointType = endpointType;
      b.taskType = taskType;
      b.tokenizerId = tokenizerId;
      b.numPrompts = numPrompts;
      b.requestRate = requestRate;
      b.burstiness = burstiness;
      b.arrivalReplay = arrivalReplay;
      b.maxConcurrency = maxConcurrency;
      b.rampUpStrategy = rampUpStrategy;
      b.rampUpStartRps = rampUpStartRps;
      b.rampUpEndRps = rampUpEndRps;
      b.rpsChangeEvents = rpsChangeEvents;
      b.seed = seed;
      b.seedGiven = seedGiven;
      b.extras = new LinkedHashMap<>(extras);
      return b;
    }

    /** vLLM's {@code --backend}, written as a label; default {@code openai}. */
    public Builder backend(String backend) {
      return with(b -> b.backend = nonBlank(backend, "backend"));
    }

    /** Overrides {@code endpoint_type} (default: the backend, as vLLM writes it). */
    public Builder endpointType(String endpointType) {
      return with(b -> b.endpointType = nonBlank(endpointType, "endpointType"));
    }

    /**
     * Generation (default) or embedding metrics; vLLM picks the embedding set for its pooling
     * backends, here it is always this explicit choice.
     */
    public Builder taskType(TaskType taskType) {
      return with(b -> b.taskType = Objects.requireNonNull(taskType, "taskType"));
    }

    public Builder tokenizerId(String tokenizerId) {
      return with(b -> b.tokenizerId = nonBlank(tokenizerId, "tokenizerId"));
    }

    public Builder numPrompts(int numPrompts) {
      if (numPrompts < 0) {
        throw new IllegalArgumentException("numPrompts must be >= 0, got " + numPrompts);
      }
      return with(b -> b.numPrompts = numPrompts);
    }

    /** Requests per second, {@code > 0}; {@link Double#POSITIVE_INFINITY} (default) = all at once. */
    public Builder requestRate(double requestRate) {
      if (!(requestRate > 0)) {
        throw new IllegalArgumentException("requestRate must be > 0 (or infinity), got "
            + PyFormat.repr(requestRate));
      }
      return with(b -> b.requestRate = requestRate);
    }

    /** Gamma shape of the inter-arrival times, {@code > 0}; 1 (default) is Poisson. */
    public Builder burstiness(double burstiness) {
      if (!(burstiness > 0)) {
        throw new IllegalArgumentException("A positive burstiness factor is expected, but given "
            + PyFormat.repr(burstiness));
      }
      return with(b -> b.burstiness = burstiness);
    }

    /**
     * Arrivals replayed from a recorded trace: the result JSON gets {@code "burstiness": null}
     * (no gap was sampled) and {@code "arrival_replay": {"source": ..., "time_scale": ...}}.
     */
    public Builder replay(String source, double timeScale) {
      if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
        throw new IllegalArgumentException("replay time scale must be a positive number, got "
            + PyFormat.repr(timeScale));
      }
      return with(b -> {
        Map<String, Object> replay = new LinkedHashMap<>();
        replay.put("source", nonBlank(source, "replay source"));
        replay.put("time_scale", timeScale);
        b.arrivalReplay = Collections.unmodifiableMap(replay);
      });
    }

    /** Cap on requests in flight, {@code > 0}; null (default) = unbounded. */
    public Builder maxConcurrency(Integer maxConcurrency) {
      if (maxConcurrency != null && maxConcurrency <= 0) {
        throw new IllegalArgumentException("maxConcurrency must be greater than 0, got "
            + maxConcurrency);
      }
      return with(b -> b.maxConcurrency = maxConcurrency);
    }

    /**
     * A ramped request rate from {@code startRps} to {@code endRps} (vLLM's
     * {@code --ramp-up-strategy/-start-rps/-end-rps}); excludes an explicit request rate.
     */
    public Builder rampUp(String strategy, double startRps, double endRps) {
      if (!RAMP_UP_STRATEGIES.contains(strategy)) {
        throw new IllegalArgumentException("Unknown ramp-up strategy '" + strategy
            + "': allowed are " + String.join(" and ",
                RAMP_UP_STRATEGIES.stream().map(n -> "\"" + n + "\"").toList()));
      }
      if (startRps < 0 || endRps < 0) {
        throw new IllegalArgumentException("Ramp-up start and end RPS must be non-negative, got "
            + PyFormat.repr(startRps) + " and " + PyFormat.repr(endRps));
      }
      if (startRps > endRps) {
        throw new IllegalArgumentException("Ramp-up start RPS must be less than end RPS, got "
            + PyFormat.repr(startRps) + " > " + PyFormat.repr(endRps));
      }
      if ("exponential".equals(strategy) && startRps == 0) {
        throw new IllegalArgumentException("For exponential ramp-up, the start RPS cannot be 0.");
      }
      return with(b -> {
        b.rampUpStrategy = strategy;
        b.rampUpStartRps = startRps;
        b.rampUpEndRps = endRps;
      });
    }

    /**
     * The rate steps of a ramped schedule (written when ramping), stamped as vLLM stamps them
     * (the arrival schedule's {@code rpsChangeEventsJson}), or exactly as a result JSON held
     * them (how a record log restores them).
     */
    public Builder rpsChangeEvents(List<Map<String, Object>> events) {
      return with(b -> b.rpsChangeEvents = List.copyOf(events));
    }

    public Builder seed(long seed) {
      return with(b -> {
        b.seed = seed;
        b.seedGiven = true;
      });
    }

    /** An extra top-level key of the result JSON; the value must be JSON-writable. */
    public Builder extra(String key, Object value) {
      return with(b -> b.extras.put(nonBlank(key, "key"), Objects.requireNonNull(value, "value")));
    }

    /** This builder without the extra {@code key} (the merge moves some into a list). */
    public Builder withoutExtra(String key) {
      return with(b -> b.extras.remove(key));
    }

    /** Checks the combination (ramp-up excludes a finite request rate and a replay) and builds. */
    public RunInfo build() {
      if (rampUpStrategy != null && arrivalReplay != null) {
        throw new IllegalArgumentException("A replay of recorded arrivals has no ramp-up");
      }
      if (rampUpStrategy != null && requestRate != Double.POSITIVE_INFINITY) {
        throw new IllegalArgumentException("When using ramp-up, do not specify a request rate "
            + "(got " + PyFormat.repr(requestRate) + "): the rate is controlled by the ramp-up "
            + "parameters.");
      }
      return new RunInfo(this);
    }

    private static String nonBlank(String value, String what) {
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(what + " must not be blank, got "
            + (value == null ? "null" : "'" + value + "'"));
      }
      return value;
    }
  }
}
