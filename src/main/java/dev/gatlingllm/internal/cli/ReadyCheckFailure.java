package dev.gatlingllm.internal.cli;

import dev.gatlingllm.internal.action.LlmActions;
import io.gatling.javaapi.core.ActionBuilder;

/**
 * What a run whose ready check failed does instead of the benchmark: one KO row named
 * {@value #NAME} in Gatling's statistics, with the reason as its message, so that Gatling's
 * report says why nothing was measured and the assertion on it fails the build; the (empty)
 * vLLM result is written too.
 */
public final class ReadyCheckFailure {

  public static final String NAME = "ready check";

  private ReadyCheckFailure() {}

  public static ActionBuilder builder(String message) {
    return LlmActions.failedCheck(NAME, message);
  }
}
