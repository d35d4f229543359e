package dev.gatlingllm.internal.arrival;

import io.netty.channel.EventLoop;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Paced sends that have not gone out yet, in schedule order, shared by every event loop: the
 * first loop to reach a slot sends every send that is due by then, oldest slot first, each
 * exactly once.
 *
 * <p>Why: Gatling spreads users over several event loops, and each user waits for its slot
 * on its own loop. When two slots come due close together on two loops and the first loop is
 * busy (decoding a burst of reads), the second one used to send first, and the first slot
 * went out after it. At 1,000 req/s on one core that put 176 of 4,999 sent gaps below zero,
 * most of them among the schedule's gaps under 50 µs, which made the sent gaps fail a KS
 * test against the profile that the same send times, taken in order, passed much more
 * closely (see docs/client-overhead.md). A send taken by another loop goes out on that
 * loop's connections, as a request lent a connection does, and its completion runs there.
 *
 * <p>Thread-safe; lock-free (a skip list ordered by due time, then by arrival).
 */
public final class PacedSends {

  /** What a send does once taken: runs on {@code loop}, the loop that took it. */
  @FunctionalInterface
  public interface Send {
    /** Must not throw. */
    void run(EventLoop loop);
  }

  private record Pending(long dueNanos, long seq, Send send) { }

  private static final Comparator<Pending> SCHEDULE_ORDER = (a, b) -> {
    int byDue = Long.compare(a.dueNanos - b.dueNanos, 0); // nanoTime values: compare differences
    return byDue != 0 ? byDue : Long.compare(a.seq, b.seq);
  };

  private final ConcurrentSkipListSet<Pending> pending = new ConcurrentSkipListSet<>(
      SCHEDULE_ORDER);
  private final AtomicLong seq = new AtomicLong();

  /**
   * Registers {@code send} for {@code dueNanos} (a {@link System#nanoTime()} value) and has
   * {@code pacer} wake {@code loop} at that time to send whatever is due then. The send runs
   * once: on {@code loop} at its slot, or earlier on another loop whose own slot came due
   * after this one's (then on that loop).
   */
  public void await(SlotPacer pacer, EventLoop loop, long dueNanos, Send send) {
    Objects.requireNonNull(send, "send");
    pending.add(new Pending(dueNanos, seq.getAndIncrement(), send));
    pacer.awaitSlot(loop, dueNanos, () -> sendDue(loop));
  }

  /**
   * Runs, on {@code loop} (the caller's), every registered send whose time has come, in
   * schedule order, including those that come due while the earlier ones are sent. (Going on
   * to spin for sends due within the next 100 µs was tried: in an A/B of three runs each it
   * made the send lateness p99 at 1,000 req/s 0.17-0.22 ms instead of 0.15-0.16, with the
   * same KS distances, so it is not done.)
   */
  public void sendDue(EventLoop loop) {
    Pending first;
    while ((first = first()) != null && first.dueNanos - System.nanoTime() <= 0) {
      if (pending.remove(first)) { // another loop may have taken it in the meantime
        first.send.run(loop);
      }
    }
  }

  /** Sends registered and not taken yet. */
  public int pendingCount() {
    return pending.size();
  }

  private Pending first() {
    Iterator<Pending> it = pending.iterator();
    return it.hasNext() ? it.next() : null;
  }
}
