package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Each test runs on its own fresh thread: the registry is per thread. */
class UrgentWorkTest {

  private final List<String> ran = new ArrayList<>();

  private static void onFreshThread(ThrowingRunnable body) throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        body.run();
        done.complete(null);
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    });
    t.start();
    done.get(10, TimeUnit.SECONDS);
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void runDueRunsWhatHasComeDueInTimeOrderAndLeavesTheRest() throws Exception {
    onFreshThread(() -> {
      long now = System.nanoTime();
      UrgentWork.register(now - 1_000, () -> ran.add("b"));
      UrgentWork.register(now + 60_000_000_000L, () -> ran.add("later"));
      UrgentWork.register(now - 5_000, () -> ran.add("a"));

      UrgentWork.runDue();

      assertEquals(List.of("a", "b"), ran);
      assertEquals(1, UrgentWork.pendingCount(), "the future one stays registered");
    });
  }

  @Test
  void workRunsOnceWhicheverComesFirst() throws Exception {
    onFreshThread(() -> {
      long past = System.nanoTime() - 1_000;
      Runnable byTimerFirst = UrgentWork.register(past, () -> ran.add("timer first"));
      byTimerFirst.run(); // its timer
      UrgentWork.runDue(); // then the decoding: nothing more
      Runnable byDecodingFirst = UrgentWork.register(past, () -> ran.add("decoding first"));
      UrgentWork.runDue();
      byDecodingFirst.run(); // its timer, late: nothing more

      assertEquals(List.of("timer first", "decoding first"), ran);
      assertEquals(0, UrgentWork.pendingCount());
    });
  }

  @Test
  void workRunByItsTimerIsDroppedEvenIfNothingEverDecodes() throws Exception {
    onFreshThread(() -> {
      long now = System.nanoTime();
      List<Runnable> timers = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        timers.add(UrgentWork.register(now + i, () -> { }));
      }
      timers.forEach(Runnable::run); // in time order, as timers fire

      assertEquals(0, UrgentWork.pendingCount());
    });
  }

  @Test
  void failingWorkDoesNotStopTheRest() throws Exception {
    onFreshThread(() -> {
      long past = System.nanoTime() - 1_000;
      UrgentWork.register(past - 1, () -> {
        throw new IllegalStateException("boom");
      });
      UrgentWork.register(past, () -> ran.add("after"));

      UrgentWork.runDue();

      assertEquals(List.of("after"), ran);
    });
  }
}
