package dev.gatlingllm.internal.action;

import dev.gatlingllm.internal.arrival.ConcurrencyLimiter;
import dev.gatlingllm.internal.protocol.LlmComponents;
import dev.gatlingllm.internal.scale.InjectorShare;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import java.util.function.Consumer;

/**
 * At most a fixed number of conversations in flight ({@code vllm-bench}'s
 * {@code --multi-turn-concurrency}): a conversation takes a place before its first turn and
 * gives it back after its last, so it holds it through its think times; the others wait in
 * arrival order. The requests' own limit ({@code maxConcurrency}) still applies to each turn.
 * One per conversation step; on an injector of a scaled-out benchmark, its share of the
 * places.
 */
public final class ConversationSlots {

  /** Set while the user holds a place, so that only a holder gives one back. */
  private static final String HELD = "gatling-llm.conversationSlot";

  private final int places;
  private ConcurrencyLimiter limiter;

  public ConversationSlots(int places) {
    if (places < 1) {
      throw new IllegalArgumentException("conversations in flight must be >= 1, got " + places);
    }
    this.places = places;
  }

  /** The limiter, made on first use: the injector's share is known once the run is built. */
  private synchronized ConcurrencyLimiter limiter(InjectorShare share) {
    if (limiter == null) {
      limiter = ConcurrencyLimiter.bounded(share.maxConcurrency(places));
    }
    return limiter;
  }

  /** The action that waits for a place. */
  public Action enter(ScenarioContext ctx, Action next) {
    ConcurrencyLimiter gate = limiter(share(ctx));
    // the wait for a place is the run's cap, not the client's lateness: the first turn's
    // send lateness counts from the moment the place was given
    return action(ctx, "conversation slot", next, session ->
        gate.acquire(session.eventLoop(), () -> next.$bang(session.set(HELD, Boolean.TRUE)
            .set(LlmRequestAction.READY_NANOS_ATTRIBUTE, System.nanoTime()))));
  }

  /** The action that gives the place back. */
  public Action leave(ScenarioContext ctx, Action next) {
    ConcurrencyLimiter gate = limiter(share(ctx));
    return action(ctx, "conversation end", next, session -> {
      if (session.contains(HELD)) {
        gate.release();
      }
      next.$bang(session.remove(HELD));
    });
  }

  /** An action of this run's stats engine and clock that does {@code body} with a session. */
  private static Action action(ScenarioContext ctx, String name, Action next,
      Consumer<Session> body) {
    return new LlmAction(name, next, ctx.coreComponents().statsEngine(),
        ctx.coreComponents().clock()) {
      @Override
      protected void run(Session session) {
        body.accept(session);
      }
    };
  }

  /** This injector's share of the benchmark: all the places take of the run. */
  private static InjectorShare share(ScenarioContext ctx) {
    return LlmComponents.partsOf(ctx).setup().share();
  }
}
