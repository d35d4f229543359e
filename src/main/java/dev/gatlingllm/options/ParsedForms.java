package dev.gatlingllm.options;

import dev.gatlingllm.internal.metrics.GoodputSlo;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.SteadyStateOptions;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions.Builder;
import java.util.List;

/**
 * What {@link ResultOptions} lends the reporters through {@link ResultOptionsAccess}: its
 * package-private parsed forms, read and set.
 */
final class ParsedForms implements ResultOptionsAccess.Hooks {

  @Override
  public List<Metric> percentileMetrics(ResultOptions options) {
    return options.percentileMetrics();
  }

  @Override
  public List<Metric> percentileMetrics(ResultOptions options, TaskType taskType) {
    return options.percentileMetrics(taskType);
  }

  @Override
  public GoodputSlo goodput(ResultOptions options) {
    return options.goodput();
  }

  @Override
  public SteadyStateOptions steadyState(ResultOptions options) {
    return options.steadyState();
  }

  @Override
  public Builder percentileMetrics(Builder builder, Metric... metrics) {
    return builder.percentileMetrics(metrics);
  }

  @Override
  public Builder goodput(Builder builder, GoodputSlo goodput) {
    return builder.goodput(goodput);
  }

  @Override
  public Builder steadyState(Builder builder, SteadyStateOptions options) {
    return builder.steadyState(options);
  }
}
