package dev.gatlingllm.internal.options;

import dev.gatlingllm.internal.metrics.GoodputSlo;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.SteadyStateOptions;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.options.ResultOptions;
import java.util.List;
import java.util.Objects;

/**
 * The reporters' door into {@link ResultOptions}: the parsed forms of what a simulation gives
 * as words ({@code percentileMetrics("ttft,e2el")}, {@code goodput("ttft:500")}, the
 * steady-state settings), which are {@code internal.metrics} types. {@code ResultOptions}
 * keeps those members package-private so that users see only the words; the run's code
 * reads and sets the parsed forms here. The JDK's "shared secrets": {@code ResultOptions}'
 * static initializer installs the {@link Hooks}.
 */
public final class ResultOptionsAccess {

  /** What {@code dev.gatlingllm.options} lends, implemented there. */
  public interface Hooks {

    /** The metrics whose statistics are reported; null = the default for the task type. */
    List<Metric> percentileMetrics(ResultOptions options);

    /** The metrics reported for a run of that task type (vLLM's defaults when none given). */
    List<Metric> percentileMetrics(ResultOptions options, TaskType taskType);

    GoodputSlo goodput(ResultOptions options);

    SteadyStateOptions steadyState(ResultOptions options);

    ResultOptions.Builder percentileMetrics(ResultOptions.Builder builder, Metric... metrics);

    ResultOptions.Builder goodput(ResultOptions.Builder builder, GoodputSlo goodput);

    ResultOptions.Builder steadyState(ResultOptions.Builder builder, SteadyStateOptions options);
  }

  private static volatile Hooks lent;

  private ResultOptionsAccess() {}

  /**
   * Called once, by {@code ResultOptions}.
   *
   * @throws IllegalStateException on a second call
   */
  public static void install(Hooks hooks) {
    if (lent != null) {
      throw new IllegalStateException("the result options' hooks are installed already");
    }
    lent = Objects.requireNonNull(hooks, "hooks");
  }

  // options and their builders are made by ResultOptions' own methods, which installed the
  // hooks: every caller below holds one

  /** The metrics whose statistics are reported; null = the default for the task type. */
  public static List<Metric> percentileMetrics(ResultOptions options) {
    return lent.percentileMetrics(options);
  }

  /** The metrics reported for a run of that task type. */
  public static List<Metric> percentileMetrics(ResultOptions options, TaskType taskType) {
    return lent.percentileMetrics(options, taskType);
  }

  /** The goodput SLOs ({@code --goodput}); empty when none. */
  public static GoodputSlo goodput(ResultOptions options) {
    return lent.goodput(options);
  }

  /** How the steady-state window is chosen. */
  public static SteadyStateOptions steadyState(ResultOptions options) {
    return lent.steadyState(options);
  }

  /** The builder reporting these metrics' statistics. */
  public static ResultOptions.Builder percentileMetrics(ResultOptions.Builder builder,
      Metric... metrics) {
    return lent.percentileMetrics(builder, metrics);
  }

  /** The builder with these goodput SLOs. */
  public static ResultOptions.Builder goodput(ResultOptions.Builder builder, GoodputSlo goodput) {
    return lent.goodput(builder, goodput);
  }

  /** The builder with these steady-state settings. */
  public static ResultOptions.Builder steadyState(ResultOptions.Builder builder,
      SteadyStateOptions options) {
    return lent.steadyState(builder, options);
  }
}
