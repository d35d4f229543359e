package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.arrival.ArrivalClock;
import dev.gatlingllm.internal.arrival.ConcurrencyLimiter;
import dev.gatlingllm.internal.arrival.InjectionPlan;
import dev.gatlingllm.internal.arrival.PacedSends;
import dev.gatlingllm.internal.arrival.SlotPacer;
import dev.gatlingllm.internal.scale.InjectorShare;
import java.util.Optional;

/**
 * When the run's requests go out: the arrival schedule's clock and the pacer that holds users
 * until their slot (with an arrival profile), the paced sends waiting for their slot, and the
 * cap on requests in flight. Made while the simulation is built; each copy of the run (the
 * run, a rehearsal) paces its own requests, over the run's one pacer.
 */
public final class RunPacing {

  private final ArrivalClock arrivalClock;
  private final SlotPacer pacer;
  /** Paced sends not gone out yet, in schedule order across the loops. */
  private final PacedSends pacedSends = new PacedSends();
  private final ConcurrencyLimiter limiter;

  private RunPacing(ArrivalClock arrivalClock, SlotPacer pacer, ConcurrencyLimiter limiter) {
    this.arrivalClock = arrivalClock;
    this.pacer = pacer;
    this.limiter = limiter;
  }

  /** The run's pacing: this injector's share of the protocol's arrival schedule, if any. */
  static RunPacing of(LlmProtocol protocol, InjectorShare share) {
    ArrivalClock clock = protocol.arrivals()
        .map(profile -> InjectionPlan.of(share.schedule(profile)).newClock())
        .orElse(null);
    return new RunPacing(clock, clock == null ? null : SlotPacer.create(),
        newLimiter(protocol, share));
  }

  /**
   * A rehearsal's pacing: its own {@code clock} (or none) and the same kind of limiter, not the
   * same one (the run's permits stay untouched), over the run's pacer.
   */
  RunPacing forRehearsal(ArrivalClock clock, LlmProtocol protocol, InjectorShare share) {
    return new RunPacing(clock, pacer, newLimiter(protocol, share));
  }

  /** The cap on requests in flight of this injector's share, or none. */
  private static ConcurrencyLimiter newLimiter(LlmProtocol protocol, InjectorShare share) {
    return protocol.maxConcurrency()
        .map(max -> (ConcurrencyLimiter) ConcurrencyLimiter.bounded(share.maxConcurrency(max)))
        .orElse(ConcurrencyLimiter.unlimited());
  }

  /** Slots of the arrival schedule; empty when no arrival profile was configured. */
  public Optional<ArrivalClock> arrivalClock() {
    return Optional.ofNullable(arrivalClock);
  }

  /** Holds users until their slot; null without an arrival profile. */
  public SlotPacer pacer() {
    return pacer;
  }

  /** Paced requests waiting for their slot, sent in schedule order by whichever loop is first. */
  public PacedSends pacedSends() {
    return pacedSends;
  }

  /** Gate in front of sending: bounded by the max concurrency, else a no-op. */
  public ConcurrencyLimiter limiter() {
    return limiter;
  }
}
