package dev.gatlingllm.internal.arrival;

import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands out the slots of one run's {@link ArrivalSchedule} in arrival order and says when
 * each is due. The i-th call to {@link #claim()} gets slot i, whichever user or thread makes
 * it; slot i is due at {@code start + offsetNanos(i)} on the {@link System#nanoTime()} clock.
 *
 * <p>The start is fixed once, either explicitly with {@link #start(long)} or by the first
 * claim: then it is the claim time plus the clock's anchor (see
 * {@link InjectionPlan#newClock()}, which sets the anchor so users injected by the plan are
 * ahead of their slots). Thread-safe; one clock per run.
 */
public final class ArrivalClock {

  private final ArrivalSchedule schedule;
  private final long anchorNanos;
  private final AtomicInteger nextSlot = new AtomicInteger();
  private final Object startLock = new Object();
  private volatile boolean started;
  private long startNanos;
  private Instant startInstant;

  ArrivalClock(ArrivalSchedule schedule, long anchorNanos) {
    this.schedule = Objects.requireNonNull(schedule, "schedule");
    this.anchorNanos = anchorNanos;
  }

  /** A clock whose start is the first claim: slot 0 is due {@code offsetNanos(0)} after it. */
  public static ArrivalClock of(ArrivalSchedule schedule) {
    return new ArrivalClock(schedule, 0L);
  }

  /**
   * The next slot in arrival order, or -1 once all {@link #size()} slots are handed out.
   * The first claim fixes the start if {@link #start(long)} did not.
   */
  public int claim() {
    int slot;
    do {
      slot = nextSlot.get();
      if (slot >= schedule.size()) {
        return -1;
      }
    } while (!nextSlot.compareAndSet(slot, slot + 1));
    if (!started) {
      start(System.nanoTime() + anchorNanos);
    }
    return slot;
  }

  /**
   * Fixes the start (a {@link System#nanoTime()} value) unless it is already fixed.
   *
   * @return true when this call fixed it
   */
  public boolean start(long startNanos) {
    synchronized (startLock) {
      if (started) {
        return false;
      }
      this.startNanos = startNanos;
      this.startInstant = Instant.now().minusNanos(System.nanoTime() - startNanos);
      this.started = true;
      return true;
    }
  }

  /** Whether the start is fixed. */
  public boolean isStarted() {
    return started;
  }

  /** The start on the {@link System#nanoTime()} clock. */
  public long startNanos() {
    requireStarted();
    return startNanos;
  }

  /** The start as a wall-clock instant (for {@link ArrivalSchedule#rpsChangeEventsJson}). */
  public Instant startInstant() {
    requireStarted();
    return startInstant;
  }

  /** When {@code slot} is due on the {@link System#nanoTime()} clock. */
  public long dueNanos(int slot) {
    requireStarted();
    return startNanos + schedule.offsetNanos(slot);
  }

  /** Number of slots handed out so far. */
  public int claimed() {
    return Math.min(nextSlot.get(), schedule.size());
  }

  /** Number of slots in the run. */
  public int size() {
    return schedule.size();
  }

  /** The schedule the slots come from. */
  public ArrivalSchedule schedule() {
    return schedule;
  }

  private void requireStarted() {
    if (!started) {
      throw new IllegalStateException("the arrival clock has not started: no slot was claimed yet");
    }
  }
}
