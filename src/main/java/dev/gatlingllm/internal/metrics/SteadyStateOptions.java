package dev.gatlingllm.internal.metrics;

import java.util.Objects;

/**
 * How the steady-state window of a run is chosen (issue 29, item 1). Two ways, one per kind of
 * load:
 * <ul>
 *   <li><b>closed loop</b> (a max concurrency with request rate {@code inf}, as
 *       {@code vllm-bench}): the window is detected from the records, from the first moment
 *       the requests in flight reach {@code ceil(threshold × max concurrency)} to the last
 *       moment they fall below it (see {@link SteadyState});</li>
 *   <li><b>open loop</b> (any other run, or a closed loop with detection off): no plateau to
 *       detect, so the user trims the warm-up and the cool-down, by time or by request count
 *       ({@link Trim}).</li>
 * </ul>
 * The defaults follow {@code vllm-bench}: closed-loop detection on, threshold 0.95, minimum
 * window {@code max(10 s, 0.1 × run duration)}; open-loop trimming off (no trim was asked).
 * A window shorter than the minimum is still reported, with a warning, as {@code vllm-bench}
 * does: a short plateau is a fact about the run the user should see, not a reason to hide it.
 *
 * @param closedLoop       detect the window of closed-loop runs ({@code --no-steady-state}
 *                         turns it off)
 * @param threshold        fraction of the max concurrency at which the window opens, in (0, 1]
 * @param minWindowSeconds shortest window reported without a warning; null = {@code max(10,
 *                         0.1 × run duration)}
 * @param trim             the open-loop window; null = none (open-loop runs get no
 *                         {@code steady_state})
 */
public record SteadyStateOptions(boolean closedLoop, double threshold, Double minWindowSeconds,
    Trim trim) {

  /** {@code vllm-bench}'s threshold: 95 % of the max concurrency. */
  public static final double DEFAULT_THRESHOLD = 0.95;

  /** Closed-loop detection on at 0.95, automatic minimum window, no open-loop trim. */
  public static final SteadyStateOptions DEFAULTS =
      new SteadyStateOptions(true, DEFAULT_THRESHOLD, null, null);

  public SteadyStateOptions {
    if (!(threshold > 0 && threshold <= 1)) {
      throw new IllegalArgumentException(
          "The steady-state threshold must be in (0, 1], got " + threshold);
    }
    if (minWindowSeconds != null && !(minWindowSeconds >= 0)) {
      throw new IllegalArgumentException(
          "The steady-state minimum window must be >= 0 seconds, got " + minWindowSeconds);
    }
  }

  /** The minimum window of a run of this duration (seconds). */
  public double minWindowSeconds(double runDurationSeconds) {
    return minWindowSeconds != null ? minWindowSeconds : Math.max(10.0, 0.1 * runDurationSeconds);
  }

  /** These options with another threshold. */
  public SteadyStateOptions withThreshold(double value) {
    return new SteadyStateOptions(closedLoop, value, minWindowSeconds, trim);
  }

  /** These options with a fixed minimum window (seconds); null = automatic. */
  public SteadyStateOptions withMinWindowSeconds(Double value) {
    return new SteadyStateOptions(closedLoop, threshold, value, trim);
  }

  /** These options with closed-loop detection on or off. */
  public SteadyStateOptions withClosedLoop(boolean value) {
    return new SteadyStateOptions(value, threshold, minWindowSeconds, trim);
  }

  /** These options with an open-loop trim; null = none. */
  public SteadyStateOptions withTrim(Trim value) {
    return new SteadyStateOptions(closedLoop, threshold, minWindowSeconds, value);
  }

  /** What a trim counts in. */
  public enum TrimUnit {
    /** Seconds: after the first successful start, before the last successful end. */
    SECONDS,
    /** Successful requests in start order: the first {@code start} and the last {@code end}. */
    REQUESTS
  }

  /**
   * The open-loop window: the warm-up ({@code start}) and the cool-down ({@code end}) left
   * out, both in {@code unit}. By requests, both must be whole numbers.
   */
  public record Trim(TrimUnit unit, double start, double end) {

    public Trim {
      Objects.requireNonNull(unit, "unit");
      if (!(start >= 0) || !(end >= 0) || Double.isInfinite(start) || Double.isInfinite(end)) {
        throw new IllegalArgumentException("A steady-state trim must be finite and >= 0, got "
            + "start " + start + ", end " + end);
      }
      if (unit == TrimUnit.REQUESTS && (start != Math.rint(start) || end != Math.rint(end))) {
        throw new IllegalArgumentException("A steady-state trim by requests must be whole "
            + "numbers, got start " + start + ", end " + end);
      }
    }

    /** Trim by time, in seconds. */
    public static Trim seconds(double start, double end) {
      return new Trim(TrimUnit.SECONDS, start, end);
    }

    /** Trim by count: the first {@code start} and the last {@code end} requests. */
    public static Trim requests(int start, int end) {
      return new Trim(TrimUnit.REQUESTS, start, end);
    }
  }
}
