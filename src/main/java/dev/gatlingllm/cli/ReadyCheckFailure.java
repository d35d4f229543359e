package dev.gatlingllm.cli;

import com.typesafe.scalalogging.Logger;
import com.typesafe.scalalogging.Logger$;
import dev.gatlingllm.protocol.LlmProtocolKey;
import io.gatling.commons.stats.KO$;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ChainBuilder;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * What a run whose ready check failed does instead of the benchmark: one KO row named
 * {@value #NAME} in Gatling's statistics, with the reason as its message, so that Gatling's
 * report says why nothing was measured and the assertion on it fails the build. It also
 * opens the run's protocol components, so that the (empty) vLLM result is written too.
 */
final class ReadyCheckFailure implements Action {

  static final String NAME = "ready check";

  private final ScenarioContext ctx;
  private final Action next;
  private final String message;
  private Logger logger = Logger$.MODULE$.apply(LoggerFactory.getLogger(ReadyCheckFailure.class));

  private ReadyCheckFailure(ScenarioContext ctx, Action next, String message) {
    this.ctx = ctx;
    this.next = next;
    this.message = message;
    ctx.protocolComponentsRegistry().components(LlmProtocolKey.INSTANCE);
  }

  static ActionBuilder builder(String message) {
    io.gatling.core.action.builder.ActionBuilder scala =
        new io.gatling.core.action.builder.ActionBuilder() {
          @Override
          public Action build(ScenarioContext ctx, Action next) {
            return new ReadyCheckFailure(ctx, next, message);
          }

          @Override
          public ChainBuilder toChainBuilder() {
            return io.gatling.core.action.builder.ActionBuilder.super.toChainBuilder();
          }
        };
    return () -> scala;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void execute(Session session) {
    long now = ctx.coreComponents().clock().nowMillis();
    ctx.coreComponents().statsEngine().logResponse(session.scenario(), session.groups(), NAME,
        now, now, KO$.MODULE$, Option.empty(), Option.apply(message));
    next.$bang(session.markAsFailed());
  }

  @Override
  public Logger logger() {
    return logger;
  }

  @Override
  public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(Logger l) {
    this.logger = l;
  }
}
