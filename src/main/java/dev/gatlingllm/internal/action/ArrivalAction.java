package dev.gatlingllm.internal.action;

import dev.gatlingllm.internal.protocol.LlmComponents;
import dev.gatlingllm.internal.protocol.RunPacing;
import dev.gatlingllm.internal.protocol.RunParts;
import dev.gatlingllm.internal.scale.InjectorShare;
import io.gatling.commons.util.Clock;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.gatling.core.structure.ScenarioContext;

/**
 * Holds the virtual user until its arrival slot ({@code awaitArrival()}): the wait placed
 * explicitly, for a scenario whose first request is not where the user should wait (see
 * {@link ArrivalGate}). Users are injected a little ahead of their slots (Gatling's injector
 * works in one-second ticks).
 */
final class ArrivalAction extends LlmAction {

  private final ArrivalGate gate;

  ArrivalAction(ScenarioContext ctx, Action next) {
    this(LlmComponents.partsOf(ctx), ctx.coreComponents().statsEngine(),
        ctx.coreComponents().clock(), next);
  }

  private ArrivalAction(RunParts run, StatsEngine statsEngine, Clock gatlingClock,
      Action next) {
    this(run.pacing(), run.setup().share(), statsEngine, gatlingClock, next);
    // actions are built last to first: the request's warm-up is done by now
    run.start().awaitCommonStart();
  }

  /**
   * The action over a run's pacing and injector share: the run's, or a rehearsal's (see
   * {@link Rehearsal}).
   */
  ArrivalAction(RunPacing pacing, InjectorShare share, StatsEngine statsEngine,
      Clock gatlingClock, Action next) {
    super("awaitArrival", next, statsEngine, gatlingClock);
    this.gate = new ArrivalGate(pacing, share);
  }

  @Override
  protected void run(Session session) {
    gate.await(session, next::$bang);
  }
}
