package dev.gatlingllm.internal.action;

import io.gatling.core.action.Action;
import io.gatling.core.structure.ChainBuilder;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.function.BiFunction;

/** Builders of the actions that are not requests, and the bridge to Gatling's Scala side. */
public final class LlmActions {

  private LlmActions() {}

  /** See {@code LlmDsl.awaitArrival()}. */
  public static ActionBuilder awaitArrival() {
    io.gatling.core.action.builder.ActionBuilder scala = scala(ArrivalAction::new);
    return () -> scala;
  }

  /**
   * One KO row named {@code name} with the reason as its message, for a run whose check
   * before the run failed (see {@link FailedCheckAction}).
   */
  public static ActionBuilder failedCheck(String name, String message) {
    io.gatling.core.action.builder.ActionBuilder scala =
        scala((ctx, next) -> new FailedCheckAction(name, message, ctx, next));
    return () -> scala;
  }

  /** A Scala action builder from a Java factory of (scenario context, next action). */
  public static io.gatling.core.action.builder.ActionBuilder scala(
      BiFunction<ScenarioContext, Action, Action> factory) {
    return new io.gatling.core.action.builder.ActionBuilder() {
      @Override
      public Action build(ScenarioContext ctx, Action next) {
        return factory.apply(ctx, next);
      }

      @Override
      public ChainBuilder toChainBuilder() {
        return io.gatling.core.action.builder.ActionBuilder.super.toChainBuilder();
      }
    };
  }
}
