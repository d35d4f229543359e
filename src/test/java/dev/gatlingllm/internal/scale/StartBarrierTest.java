package dev.gatlingllm.internal.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Injectors that become ready at different times start together. */
class StartBarrierTest {

  private static final long S = 1_000_000_000L;

  @TempDir
  Path dir;

  @Test
  void allInjectorsGetTheLatestReadyTimePlusTheMargin() throws Exception {
    // ready at 100 s, 101.5 s and 103 s on the reference clock (threads start staggered)
    long[] readyAt = {100 * S, 101 * S + 500_000_000L, 103 * S};
    List<CompletableFuture<Instant>> injectors = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      int index = k;
      injectors.add(CompletableFuture.supplyAsync(() -> {
        sleep(index * 150);
        AtomicLong calls = new AtomicLong();
        // its ready time first, then later readings
        return StartBarrier.await(dir, new InjectorShare(index, 3), "hash",
            () -> readyAt[index] + calls.getAndIncrement() * 1_000_000L, Duration.ofSeconds(60));
      }));
    }
    Instant want = Instant.ofEpochSecond(106); // 103 s + 3 s
    for (CompletableFuture<Instant> injector : injectors) {
      assertEquals(want, injector.get());
    }
    assertEquals("hash " + (101 * S + 500_000_000L),
        Files.readString(dir.resolve("ready-1-of-3")).trim());
  }

  @Test
  void givesUpNamingTheInjectorsThatNeverCame() {
    AtomicLong now = new AtomicLong(50 * S);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> StartBarrier.await(dir, new InjectorShare(1, 3), "h",
            () -> now.getAndAdd(S), Duration.ofSeconds(5)));
    assertTrue(e.getMessage().contains("[0/3, 2/3] not ready after 5 s"), e.getMessage());
  }

  @Test
  void refusesAnotherBenchmarksOrAnEarlierRunsReadyFile() throws Exception {
    Files.writeString(dir.resolve("ready-0-of-2"), "otherhash0123456 " + 10 * S);
    IllegalStateException other = assertThrows(IllegalStateException.class,
        () -> StartBarrier.await(dir, new InjectorShare(1, 2), "thishash", () -> 20 * S,
            Duration.ofSeconds(60)));
    assertTrue(other.getMessage().contains("another benchmark's (settings otherhash012"),
        other.getMessage());
    Files.writeString(dir.resolve("ready-0-of-2"), "thishash " + 10 * S);
    IllegalStateException stale = assertThrows(IllegalStateException.class,
        () -> StartBarrier.await(dir, new InjectorShare(1, 2), "thishash", () -> 200 * S,
            Duration.ofSeconds(60)));
    assertTrue(stale.getMessage().contains("an earlier run's"), stale.getMessage());
    Files.writeString(dir.resolve("ready-0-of-2"), "garbage");
    assertTrue(assertThrows(IllegalStateException.class,
        () -> StartBarrier.await(dir, new InjectorShare(1, 2), "thishash", () -> 200 * S,
            Duration.ofSeconds(60))).getMessage().contains("not a ready file"));
  }

  @Test
  void aSingleInjectorPassesAtOnce() {
    assertEquals(Instant.ofEpochSecond(7, 250),
        StartBarrier.await(dir.resolve("new"), InjectorShare.WHOLE, "h", () -> 4 * S + 250,
            Duration.ofSeconds(1)));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
