package dev.gatlingllm.internal.client;

import io.netty.util.concurrent.FastThreadLocal;
import java.util.PriorityQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work with a due time that must not wait behind an event loop's batch of response decoding:
 * an arrival slot's send. The response pipeline stamps each read as it happens and decodes it
 * later, in a task per connection ({@code ResponseHandler}); a timer that comes due meanwhile
 * is only looked at by Netty once every task queued before it has run, so a send due during
 * a burst of reads went out after the whole burst was decoded. Work registered here runs
 * instead before the next connection's decoding once its time has come, or from its own
 * timer, whichever is first, and only once.
 *
 * <p>Per event-loop thread: {@link #register} is called on the loop that will run the work,
 * and {@link #runDue} by that loop's decoding tasks. Not for use from other threads.
 */
public final class UrgentWork {

  private static final Logger LOG = LoggerFactory.getLogger(UrgentWork.class);

  private static final FastThreadLocal<PriorityQueue<Handle>> PENDING = new FastThreadLocal<>() {
    @Override
    protected PriorityQueue<Handle> initialValue() {
      return new PriorityQueue<>();
    }
  };

  private UrgentWork() {}

  /**
   * Registers {@code work} to run on this thread at {@code atNanos} ({@link System#nanoTime()})
   * or soon after. The caller also arms a timer that runs the returned handle: the handle runs
   * {@code work} the first time it is run, from the timer or from {@link #runDue}, and does
   * nothing after.
   */
  public static Runnable register(long atNanos, Runnable work) {
    Handle handle = new Handle(atNanos, work);
    PENDING.get().add(handle);
    return handle;
  }

  /**
   * Runs, in time order, the registered work of this thread whose time has come. Called by
   * the response pipeline before each connection's decoding (and by anything else that runs
   * long on a loop); costs a thread-local lookup when nothing is registered.
   */
  public static void runDue() {
    PriorityQueue<Handle> pending = PENDING.getIfExists();
    if (pending == null || pending.isEmpty()) {
      return;
    }
    long now = System.nanoTime();
    Handle next;
    while ((next = pending.peek()) != null && next.atNanos - now <= 0) {
      pending.poll();
      next.run();
    }
  }

  /** How much registered work this thread holds (run or not): for tests. */
  static int pendingCount() {
    PriorityQueue<Handle> pending = PENDING.getIfExists();
    return pending == null ? 0 : pending.size();
  }

  private static final class Handle implements Runnable, Comparable<Handle> {
    private final long atNanos;
    private Runnable work;

    Handle(long atNanos, Runnable work) {
      this.atNanos = atNanos;
      this.work = work;
    }

    @Override
    public void run() {
      Runnable w = work;
      if (w == null) {
        return;
      }
      work = null;
      try {
        w.run();
      } catch (RuntimeException e) {
        // never let it break the decoding it ran ahead of
        LOG.error("urgent work failed: {}", e.toString(), e);
      }
      // Run by its timer it is usually the first still registered: drop the done ones now,
      // so that a thread whose decoding never runs does not keep them all.
      PriorityQueue<Handle> pending = PENDING.getIfExists();
      Handle head;
      while (pending != null && (head = pending.peek()) != null && head.work == null) {
        pending.poll();
      }
    }

    @Override
    public int compareTo(Handle other) {
      return Long.compare(atNanos - other.atNanos, 0);
    }
  }
}
