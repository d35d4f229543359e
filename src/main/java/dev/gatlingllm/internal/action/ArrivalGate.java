package dev.gatlingllm.internal.action;

import dev.gatlingllm.internal.arrival.ArrivalClock;
import dev.gatlingllm.internal.protocol.RunPacing;
import dev.gatlingllm.internal.scale.InjectorShare;
import io.gatling.core.session.Session;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a user the next slot of the run's arrival schedule and lets it go
 * {@link LlmRequestAction#PREPARE_LEAD_NANOS} before the slot, with the slot's time saved in
 * the session: the next request builds its body in that lead and is sent at exactly the
 * scheduled time, which it records next to its send time. Used where the user waits: the
 * explicit {@code awaitArrival()}, or the user's first request when it has not waited yet.
 */
final class ArrivalGate {

  /** The benchmark's index of the user's request (its arrival slot), for its request id. */
  static final String REQUEST_INDEX_ATTRIBUTE = "gatling-llm.requestIndex";
  /** Set once the user took a slot (or found none left): later requests are not held. */
  static final String ARRIVED_ATTRIBUTE = "gatling-llm.arrived";

  private static final Logger LOG = LoggerFactory.getLogger(ArrivalGate.class);

  private final RunPacing pacing;
  private final InjectorShare share;
  private final ArrivalClock clock;
  private final AtomicBoolean warnedOverflow = new AtomicBoolean();

  /**
   * The gate of a run: its pacing (schedule and pacer) and, for the request's index, this
   * injector's share of the benchmark; nothing else of the run.
   *
   * @throws IllegalArgumentException when the run has no arrival profile
   */
  ArrivalGate(RunPacing pacing, InjectorShare share) {
    this.pacing = pacing;
    this.share = share;
    this.clock = pacing.arrivalClock().orElseThrow(() -> new IllegalArgumentException(
        "awaitArrival() needs an arrival profile: give the protocol one, "
            + "llm().arrivals(profile), or remove awaitArrival()"));
  }

  /** Whether the user already took its slot. */
  static boolean arrived(Session session) {
    return session.contains(ARRIVED_ATTRIBUTE);
  }

  /** Takes the next slot for the user and hands it to {@code then} shortly before it. */
  void await(Session session, Consumer<Session> then) {
    int slot = clock.claim();
    Session arrived = session.set(ARRIVED_ATTRIBUTE, Boolean.TRUE);
    if (slot < 0) {
      if (warnedOverflow.compareAndSet(false, true)) {
        LOG.warn("more users than the {} arrival slots: the extra ones go on unpaced",
            clock.size());
      }
      then.accept(arrived);
      return;
    }
    long due = clock.dueNanos(slot);
    Session paced = arrived.set(LlmRequestAction.SCHEDULED_NANOS_ATTRIBUTE, due)
        .set(REQUEST_INDEX_ATTRIBUTE, share.global(slot));
    pacing.pacer().awaitSlot(session.eventLoop(),
        due - LlmRequestAction.PREPARE_LEAD_NANOS,
        () -> then.accept(paced));
  }
}
