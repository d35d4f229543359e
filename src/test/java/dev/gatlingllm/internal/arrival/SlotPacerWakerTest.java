package dev.gatlingllm.internal.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * NIO loops are woken by the pacer's own waker thread (their timers are millisecond-coarse).
 * Two behaviours that matter whatever the precision: a far slot does run, and an early slot
 * queued after a later one is not held up behind it.
 */
class SlotPacerWakerTest {

  @Test
  void anEarlierSlotQueuedAfterALaterOneRunsFirstAndOnTime() throws Exception {
    EventLoopGroup group = EventLoops.newGroup("nio", 1);
    try {
      EventLoop loop = group.next();
      SlotPacer pacer = SlotPacer.create();
      List<String> order = new CopyOnWriteArrayList<>();
      long[] ranAt = new long[2];
      CountDownLatch done = new CountDownLatch(2);
      long now = System.nanoTime();
      long late = now + TimeUnit.MILLISECONDS.toNanos(1_500);
      long early = now + TimeUnit.MILLISECONDS.toNanos(100);
      pacer.awaitSlot(loop, late, () -> {
        ranAt[1] = System.nanoTime();
        order.add("late");
        done.countDown();
      });
      pacer.awaitSlot(loop, early, () -> {
        ranAt[0] = System.nanoTime();
        order.add("early");
        done.countDown();
      });
      assertTrue(done.await(10, TimeUnit.SECONDS), "both slots ran");
      assertEquals(List.of("early", "late"), order);
      assertTrue(ranAt[0] >= early && ranAt[1] >= late, "never before the deadline");
      // The early slot must not wait for the late one's wake-up 1.4 s later.
      assertTrue(ranAt[0] < late - TimeUnit.MILLISECONDS.toNanos(500),
          "early slot ran " + (ranAt[0] - early) / 1_000_000 + " ms late");
    } finally {
      EventLoops.shutdown(group);
    }
  }
}
