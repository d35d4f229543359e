package dev.gatlingllm.internal.selfcheck;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's garbage-collection pauses that ended inside a window, from the collectors'
 * JMX notifications (the JVM posts one per collection, with its duration).
 *
 * <p>Which collections ended inside the window is decided by their ids, not their times:
 * a collection's id is its collector's count once it ends, so the window holds the ids
 * above each collector's count at the start, up to its count at the end. (The times in the
 * notifications are on another clock than the JVM's uptime: tens of ms apart here.) The
 * same counts tell the end of the window how many notifications are still under way: the
 * JVM delivers them on its own thread, here up to 150 ms after the collection.
 *
 * <p>What counts as a pause: every collection except those the JVM reports as a concurrent
 * <i>cycle</i> (ZGC's and Shenandoah's "Cycles" collectors, action "end of GC cycle"),
 * which run beside the application rather than stopping it; their pauses are reported by
 * the "Pauses" collectors, which count. JMX gives durations in whole milliseconds, so a
 * young collection of a few hundred µs may read as 0 ms.
 */
final class GcPauses implements NotificationListener {

  /** The longest the end of the window waits for notifications still under way. */
  private static final long DELIVERY_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** The collectors that post notifications (all of HotSpot's do). */
  private final List<GarbageCollectorMXBean> collectors = new ArrayList<>();
  /** Each collector's count when the window opened: later ids are inside. */
  private final long[] startCounts;

  // Guarded by this: written on the JMX notification thread, read by stop().
  /** Each collector's count when the window closed, MAX_VALUE while open. */
  private final long[] stopCounts;
  private long delivered;
  private int pauses;
  private long totalMs;
  private long maxMs;
  private boolean stopped;

  private GcPauses() {
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (collector instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(this, null, null);
        collectors.add(collector);
      }
    }
    stopCounts = new long[collectors.size()];
    Arrays.fill(stopCounts, Long.MAX_VALUE);
    // Counted after registering, so every collection these counts leave out is notified.
    startCounts = counts();
  }

  /** Starts listening; the window opens now. */
  static GcPauses start() {
    return new GcPauses();
  }

  @Override
  public void handleNotification(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
        .equals(notification.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    int collector = indexOf(info.getGcName());
    if (collector < 0) {
      return;
    }
    GcInfo gc = info.getGcInfo();
    boolean pause = !info.getGcAction().contains("cycle");
    synchronized (this) {
      if (gc.getId() <= startCounts[collector] || gc.getId() > stopCounts[collector]) {
        return;
      }
      delivered++;
      if (pause) {
        pauses++;
        totalMs += gc.getDuration();
        maxMs = Math.max(maxMs, gc.getDuration());
      }
      notifyAll();
    }
  }

  /**
   * Closes the window now and stops listening, after waiting (up to 1 s) for the
   * notifications of collections that ended before now. Idempotent.
   */
  synchronized Figures stop() {
    if (!stopped) {
      stopped = true;
      // Read under the lock: a notification handled before this has an id within these.
      long[] end = counts();
      long expected = 0;
      for (int i = 0; i < end.length; i++) {
        stopCounts[i] = end[i];
        expected += end[i] - startCounts[i];
      }
      long deadline = System.nanoTime() + DELIVERY_WAIT_NANOS;
      for (long left = DELIVERY_WAIT_NANOS; delivered < expected && left > 0;
          left = deadline - System.nanoTime()) {
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      for (GarbageCollectorMXBean collector : collectors) {
        try {
          ((NotificationEmitter) collector).removeNotificationListener(this);
        } catch (ListenerNotFoundException alreadyGone) {
          // Nothing to remove.
        }
      }
    }
    return new Figures(pauses, totalMs, maxMs);
  }

  private int indexOf(String collectorName) {
    for (int i = 0; i < collectors.size(); i++) {
      if (collectors.get(i).getName().equals(collectorName)) {
        return i;
      }
    }
    return -1;
  }

  private long[] counts() {
    long[] counts = new long[collectors.size()];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = Math.max(0, collectors.get(i).getCollectionCount());
    }
    return counts;
  }

  /** Pauses that ended in the window: how many, their total and longest, in ms. */
  record Figures(int pauses, long totalMs, long maxMs) {}
}
