package dev.gatlingllm.action;

import dev.gatlingllm.arrival.ArrivalClock;
import dev.gatlingllm.protocol.LlmComponents;
import dev.gatlingllm.protocol.LlmProtocolKey;
import io.gatling.commons.util.Clock;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.gatling.core.structure.ScenarioContext;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the virtual user until its arrival slot. Users are injected a little ahead of their
 * slots (Gatling's injector works in one-second ticks); the i-th user to get here takes slot
 * i and goes on {@link LlmRequestAction#PREPARE_LEAD_NANOS} before the schedule's time, with
 * that time saved in the session: the next request builds its body in that lead and is sent
 * at exactly the scheduled time, which it records next to its send time.
 */
final class ArrivalAction extends LlmAction {

  /** The benchmark's index of the user's request (its arrival slot), for its request id. */
  static final String REQUEST_INDEX_ATTRIBUTE = "gatling-llm.requestIndex";

  private static final Logger LOG = LoggerFactory.getLogger(ArrivalAction.class);

  private final LlmComponents components;
  private final ArrivalClock clock;
  private final AtomicBoolean warnedOverflow = new AtomicBoolean();

  ArrivalAction(ScenarioContext ctx, Action next) {
    this(ctx.protocolComponentsRegistry().components(LlmProtocolKey.INSTANCE),
        ctx.coreComponents().statsEngine(), ctx.coreComponents().clock(), next);
    // actions are built last to first: the request's warm-up is done by now
    components.awaitCommonStart();
  }

  /** The action over given components: the run's, or a rehearsal's (see {@link Rehearsal}). */
  ArrivalAction(LlmComponents components, StatsEngine statsEngine, Clock gatlingClock,
      Action next) {
    super("awaitArrival", next, statsEngine, gatlingClock);
    this.components = components;
    this.clock = components.arrivalClock().orElseThrow(() -> new IllegalArgumentException(
        "awaitArrival() needs an arrival profile: llm().arrivals(ArrivalProfile...)"));
  }

  @Override
  protected void run(Session session) {
    int slot = clock.claim();
    if (slot < 0) {
      if (warnedOverflow.compareAndSet(false, true)) {
        LOG.warn("more users than the {} arrival slots: the extra ones go on unpaced",
            clock.size());
      }
      next.$bang(session);
      return;
    }
    long due = clock.dueNanos(slot);
    Session paced = session.set(LlmRequestAction.SCHEDULED_NANOS_ATTRIBUTE, due)
        .set(REQUEST_INDEX_ATTRIBUTE, components.share().global(slot));
    components.pacer().awaitSlot(session.eventLoop(), due - LlmRequestAction.PREPARE_LEAD_NANOS,
        () -> next.$bang(paced));
  }
}
