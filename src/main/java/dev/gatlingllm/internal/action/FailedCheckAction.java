package dev.gatlingllm.internal.action;

import dev.gatlingllm.internal.protocol.LlmProtocolKey;
import io.gatling.commons.stats.KO$;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import scala.Option;

/**
 * What a run does instead of its requests when a check before it failed: one KO row in
 * Gatling's statistics, with the reason as its message, so that Gatling's report says why
 * nothing was measured and an assertion on it fails the build. It also opens the run's
 * protocol components, so that the (empty) vLLM result is written too.
 */
final class FailedCheckAction extends LlmAction {

  private final String message;

  FailedCheckAction(String name, String message, ScenarioContext ctx, Action next) {
    super(name, next, ctx.coreComponents().statsEngine(), ctx.coreComponents().clock());
    this.message = message;
    ctx.protocolComponentsRegistry().components(LlmProtocolKey.INSTANCE);
  }

  @Override
  protected void run(Session session) {
    long now = clock.nowMillis();
    statsEngine.logResponse(session.scenario(), session.groups(), name(), now, now,
        KO$.MODULE$, Option.empty(), Option.apply(message));
    next.$bang(session.markAsFailed());
  }
}
