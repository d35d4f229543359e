package dev.gatlingllm.arrival;

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
   * once: on {@code loop} at its slot, or on another loop that was sending when it came due
   * (then on that loop).
   */
  public void await(SlotPacer pacer, EventLoop loop, long dueNanos, Send send) {
    Objects.requireNonNull(send, "send");
    pending.add(new Pending(dueNanos, seq.getAndIncrement(), send));
    pacer.awaitSlot(loop, dueNanos, () -> sendDue(pacer, loop));
  }

  /**
   * Runs, on {@code loop} (the caller's), every registered send whose time has come, in
   * schedule order. It then goes on with the sends that come due within the time {@code
   * pacer} would wake a loop early for them, spinning for each (within the loop's spin
   * budget): this loop is awake and its code hot, where the slot's own loop would have to
   * be woken or switched to first. (In the client-truth benchmark this spin made no
   * difference that two or three runs could show; see docs/client-overhead.md.)
   */
  public void sendDue(SlotPacer pacer, EventLoop loop) {
    Pending first;
    while ((first = first()) != null && pacer.spinUntil(first.dueNanos)) {
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
