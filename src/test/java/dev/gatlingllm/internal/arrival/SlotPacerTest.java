package dev.gatlingllm.internal.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.client.UrgentWork;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Behaviour, not precision (precision is the benchmark's job): every callback runs on the
 * loop it was given, never before its deadline, and exactly once.
 */
class SlotPacerTest {

  static Iterable<String> kinds() {
    return EventLoops.availableKinds();
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void runsEveryCallbackOnItsLoopNeverEarly(String kind) throws Exception {
    runSlots(kind, SlotPacer.create());
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void withoutSpinBudgetStillNeverEarly(String kind) throws Exception {
    runSlots(kind, SlotPacer.create(Duration.ofMillis(1), 0.0));
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void withoutWakingEarlyStillNeverEarly(String kind) throws Exception {
    runSlots(kind, SlotPacer.create(Duration.ZERO, 0.1));
  }

  private static void runSlots(String kind, SlotPacer pacer) throws Exception {
    EventLoopGroup group = EventLoops.newGroup(kind, 2);
    try {
      int n = 300;
      SplittableRandom random = new SplittableRandom(7);
      CountDownLatch done = new CountDownLatch(n);
      AtomicInteger early = new AtomicInteger();
      AtomicInteger wrongThread = new AtomicInteger();
      AtomicInteger runs = new AtomicInteger();
      long base = System.nanoTime() + 20_000_000;
      for (int i = 0; i < n; i++) {
        EventLoop loop = group.next();
        long due = base + random.nextLong(300_000_000);
        Runnable then = () -> {
          if (System.nanoTime() - due < 0) {
            early.incrementAndGet();
          }
          if (!loop.inEventLoop()) {
            wrongThread.incrementAndGet();
          }
          runs.incrementAndGet();
          done.countDown();
        };
        // Half from the loop itself (as the action does), half from a foreign thread.
        if (i % 2 == 0) {
          loop.execute(() -> pacer.awaitSlot(loop, due, then));
        } else {
          pacer.awaitSlot(loop, due, then);
        }
      }
      assertTrue(done.await(20, TimeUnit.SECONDS), done.getCount() + " callbacks never ran");
      Thread.sleep(20);
      assertEquals(0, early.get(), "callbacks that ran before their deadline");
      assertEquals(0, wrongThread.get(), "callbacks that ran off their loop");
      assertEquals(n, runs.get(), "callbacks run");
    } finally {
      EventLoops.shutdown(group);
    }
  }

  /**
   * A loop decoding a burst of reads runs one task per connection. A slot that comes due in
   * the middle of the burst goes out before the next connection's decoding, not after the
   * last one: with 40 tasks of 250 µs and the slot due 3 ms in, it runs after about 12.
   */
  @ParameterizedTest
  @MethodSource("kinds")
  void aSlotDueDuringABurstOfDecodingGoesOutBetweenConnections(String kind) throws Exception {
    EventLoopGroup group = EventLoops.newGroup(kind, 1);
    try {
      EventLoop loop = group.next();
      int tasks = 40;
      AtomicInteger decoded = new AtomicInteger();
      CompletableFuture<Integer> decodedBefore = new CompletableFuture<>();
      CompletableFuture<Long> late = new CompletableFuture<>();
      loop.execute(() -> {
        long due = System.nanoTime() + 3_000_000;
        SlotPacer.create().awaitSlot(loop, due, () -> {
          late.complete(System.nanoTime() - due);
          decodedBefore.complete(decoded.get());
        });
        for (int i = 0; i < tasks; i++) {
          loop.execute(() -> {
            UrgentWork.runDue(); // as ResponseHandler's decoding task does first
            long until = System.nanoTime() + 250_000;
            while (System.nanoTime() - until < 0) {
              Thread.onSpinWait();
            }
            decoded.incrementAndGet();
          });
        }
      });
      int before = decodedBefore.get(10, TimeUnit.SECONDS);
      assertTrue(before < 20, "the slot waited for " + before + " of " + tasks + " tasks");
      assertTrue(late.get() >= 0, "never early");
    } finally {
      EventLoops.shutdown(group);
    }
  }

  @Test
  void aPastDeadlineRunsInlineOnTheLoop() throws Exception {
    EventLoopGroup group = EventLoops.newGroup("nio", 1);
    try {
      EventLoop loop = group.next();
      CompletableFuture<Boolean> ranInline = new CompletableFuture<>();
      loop.execute(() -> {
        AtomicBoolean ran = new AtomicBoolean();
        SlotPacer.create().awaitSlot(loop, System.nanoTime() - 1_000_000, () -> ran.set(true));
        ranInline.complete(ran.get());
      });
      assertTrue(ranInline.get(5, TimeUnit.SECONDS));

      CompletableFuture<Boolean> onLoop = new CompletableFuture<>();
      SlotPacer.create().awaitSlot(loop, System.nanoTime() - 1_000_000,
          () -> onLoop.complete(loop.inEventLoop()));
      assertTrue(onLoop.get(5, TimeUnit.SECONDS), "a foreign caller's callback runs on the loop");
    } finally {
      EventLoops.shutdown(group);
    }
  }

  @Test
  void invalidSettingsAreRejected() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SlotPacer.create(Duration.ofMillis(11), 0.1)).getMessage()
        .contains("wakeEarly must be between 0 and 10 ms, got PT0.011S"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SlotPacer.create(Duration.ofMillis(-1), 0.1)).getMessage().contains("wakeEarly"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SlotPacer.create(Duration.ZERO, 1.5)).getMessage()
        .contains("maxSpinShare must be in [0, 1], got 1.5"));
  }
}
