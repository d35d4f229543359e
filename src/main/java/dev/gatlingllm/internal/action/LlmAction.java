package dev.gatlingllm.internal.action;

import com.typesafe.scalalogging.Logger$;
import com.typesafe.scalalogging.Logger;
import io.gatling.commons.util.Clock;
import io.gatling.core.action.Action;
import io.gatling.core.action.BlockExit;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * Base of our Gatling actions, in plain Java. Gatling's {@code ChainableAction} cannot be
 * implemented from Java, so this class does its duties: leave the chain when a block must be
 * exited (tryMax, exitHereIf...), and never lose a virtual user: whatever the subclass throws,
 * the user is marked failed and passed on.
 */
abstract class LlmAction implements Action {

  private final String name;
  protected final Action next;
  protected final StatsEngine statsEngine;
  protected final Clock clock;
  private Logger logger = Logger$.MODULE$.apply(LoggerFactory.getLogger(getClass()));

  LlmAction(String name, Action next, StatsEngine statsEngine, Clock clock) {
    this.name = name;
    this.next = next;
    this.statsEngine = statsEngine;
    this.clock = clock;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final void execute(Session session) {
    Option<BlockExit> exit = BlockExit.mustExit(session);
    if (exit.isDefined()) {
      exit.get().exitBlock(statsEngine, clock.nowMillis());
      return;
    }
    try {
      run(session);
    } catch (Throwable t) {
      crashed(session, t);
    }
  }

  /** An unexpected error: logged with its stack, the user goes on marked failed. */
  protected final void crashed(Session session, Throwable t) {
    logger().underlying().error("'{}' crashed: {}", name, t.toString(), t);
    failBeforeSending(session, "crashed: " + t.getClass().getSimpleName());
  }

  /** The request could not be made: one crash entry in Gatling's stats, the user goes on. */
  protected final void failBeforeSending(Session session, String message) {
    statsEngine.logRequestCrash(session.scenario(), session.groups(), name, message);
    next.$bang(session.markAsFailed());
  }

  /**
   * Does the work and eventually passes a session to {@code next.$bang(..)} exactly once,
   * possibly later from an event loop callback.
   */
  protected abstract void run(Session session);

  @Override
  public Logger logger() {
    return logger;
  }

  @Override
  public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(Logger l) {
    this.logger = l;
  }
}
