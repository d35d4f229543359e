package dev.gatlingllm.internal.client;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Picks, for each request, which of the run's servers (base URLs, by index) it goes to, and
 * counts each server's requests in flight: from the pick until the request is over,
 * whatever its end (an answer, a failure, a timeout, a cancel). Thread-safe; one per client.
 * AIPerf assigns a URL per request in the same way ({@code --url} repeated). A request whose
 * server is already decided (a conversation's later turn, see {@link #take}) is counted
 * without a choice, so that the counts least-in-flight compares stay every request's.
 */
public abstract class TargetChooser {

  /** How a request's server is chosen, by the names of {@code --base-url-strategy}. */
  public enum Strategy {
    /** In turn: 0, 1, ..., n - 1, 0, ... (AIPerf's {@code round_robin}, its only one). */
    ROUND_ROBIN("round-robin"),
    /** The server with the fewest requests in flight; on a tie, the first in the list. */
    LEAST_IN_FLIGHT("least-in-flight");

    private final String flagValue;

    Strategy(String flagValue) {
      this.flagValue = flagValue;
    }

    /** The name the flag and the DSL take, and the result JSON writes. */
    public String flagValue() {
      return flagValue;
    }

    /**
     * The strategy named {@code name}: {@code round-robin} or {@code least-in-flight}, in
     * any case, with {@code _} for {@code -} as AIPerf spells {@code round_robin}.
     *
     * @throws IllegalArgumentException any other name, listing the two
     */
    public static Strategy parse(String name) {
      String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
      for (Strategy s : values()) {
        if (s.flagValue.equals(n)) {
          return s;
        }
      }
      throw new IllegalArgumentException("unknown base URL strategy '" + name
          + "': use round-robin or least-in-flight");
    }
  }

  private final AtomicIntegerArray inFlight;

  private TargetChooser(int targets) {
    this.inFlight = new AtomicIntegerArray(targets);
  }

  /** A chooser over {@code targets} servers (at least one). */
  public static TargetChooser of(Strategy strategy, int targets) {
    if (targets < 1) {
      throw new IllegalArgumentException("at least one target, got " + targets);
    }
    return strategy == Strategy.LEAST_IN_FLIGHT ? new LeastInFlight(targets)
        : new RoundRobin(targets);
  }

  /** How many servers it chooses among. */
  public int targets() {
    return inFlight.length();
  }

  /** The server of the next request, counted in flight from now. */
  public abstract int pick();

  /**
   * Counts a request for {@code target} in flight from now, without choosing: its server was
   * decided before (the one that served its conversation's first turn). Round-robin's turn
   * does not move, so the requests it places still alternate.
   *
   * @return {@code target}
   * @throws IndexOutOfBoundsException no such server
   */
  public final int take(int target) {
    inFlight.incrementAndGet(target);
    return target;
  }

  /** The request sent to {@code target} is over, however it ended. */
  public void done(int target) {
    inFlight.decrementAndGet(target);
  }

  /** Requests picked for {@code target} and not yet over. */
  public int inFlight(int target) {
    return inFlight.get(target);
  }

  private static final class RoundRobin extends TargetChooser {
    private final AtomicLong next = new AtomicLong();

    RoundRobin(int targets) {
      super(targets);
    }

    @Override
    public int pick() {
      int target = (int) Math.floorMod(next.getAndIncrement(), (long) targets());
      super.inFlight.incrementAndGet(target);
      return target;
    }
  }

  /**
   * The emptiest server. Two requests picking at once could both see the same server emptiest:
   * the count is only taken if it is still the value that was found least, else the scan is
   * done again, so every pick takes a server that was emptiest at that instant.
   */
  private static final class LeastInFlight extends TargetChooser {
    LeastInFlight(int targets) {
      super(targets);
    }

    @Override
    public int pick() {
      AtomicIntegerArray counts = super.inFlight;
      while (true) {
        int best = 0;
        int least = counts.get(0);
        for (int i = 1; i < counts.length(); i++) {
          int c = counts.get(i);
          if (c < least) {
            least = c;
            best = i;
          }
        }
        if (counts.compareAndSet(best, least, least + 1)) {
          return best;
        }
      }
    }
  }
}
