package dev.gatlingllm.internal.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConcurrencyLimiterTest {

  @Test
  void neverExceedsTheCapReachesItAndLosesNothingUnderConcurrentStress() throws Exception {
    int cap = 8;
    int requests = 20_000;
    BoundedConcurrencyLimiter limiter = ConcurrencyLimiter.bounded(cap);
    EventLoopGroup group = EventLoops.newGroup("nio", 3);
    ExecutorService submitters = Executors.newFixedThreadPool(2);
    try {
      AtomicInteger inFlight = new AtomicInteger();
      AtomicInteger maxSeen = new AtomicInteger();
      AtomicInteger violations = new AtomicInteger();
      AtomicInteger wrongThread = new AtomicInteger();
      CountDownLatch done = new CountDownLatch(requests);
      for (int s = 0; s < 2; s++) {
        int submitter = s;
        submitters.submit(() -> {
          SplittableRandom random = new SplittableRandom(submitter);
          for (int i = submitter; i < requests; i += 2) {
            EventLoop loop = group.next();
            long holdMicros = random.nextLong(200);
            Runnable request = () -> {
              if (!loop.inEventLoop()) {
                wrongThread.incrementAndGet();
              }
              int now = inFlight.incrementAndGet();
              maxSeen.accumulateAndGet(now, Math::max);
              if (now > cap) {
                violations.incrementAndGet();
              }
              loop.schedule(() -> {
                inFlight.decrementAndGet();
                limiter.release();
                done.countDown();
              }, holdMicros, TimeUnit.MICROSECONDS);
            };
            // Acquire from the request's own loop half of the time, from this thread otherwise.
            if (i % 4 < 2) {
              loop.execute(() -> limiter.acquire(loop, request));
            } else {
              limiter.acquire(loop, request);
            }
          }
        });
      }
      assertTrue(done.await(60, TimeUnit.SECONDS), done.getCount() + " requests never completed");
      assertEquals(0, violations.get(), "times more than " + cap + " were in flight");
      assertEquals(cap, maxSeen.get(), "the cap should be reached");
      assertEquals(cap, limiter.peakInFlight());
      assertEquals(0, wrongThread.get(), "permits delivered off the caller's loop");
      assertEquals(0, limiter.inFlight(), "permits leaked");
      assertEquals(0, limiter.waiting(), "waiters left behind");
    } finally {
      submitters.shutdownNow();
      EventLoops.shutdown(group);
    }
  }

  @Test
  void waitersGetPermitsInArrivalOrder() throws Exception {
    BoundedConcurrencyLimiter limiter = ConcurrencyLimiter.bounded(1);
    EventLoopGroup group = EventLoops.newGroup("nio", 2);
    try {
      List<Integer> order = Collections.synchronizedList(new ArrayList<>());
      CountDownLatch all = new CountDownLatch(6);
      CountDownLatch firstRan = new CountDownLatch(1);
      limiter.acquire(group.next(), () -> {
        order.add(0);
        all.countDown();
        firstRan.countDown();
      });
      for (int i = 1; i < 6; i++) {
        int id = i;
        EventLoop loop = group.next();
        limiter.acquire(loop, () -> {
          order.add(id);
          all.countDown();
          loop.execute(limiter::release);
        });
      }
      assertEquals(5, limiter.waiting());
      // The first holder's callback runs on its loop; release only once it has run, or the
      // next holder's callback (on the other loop) may record itself first.
      assertTrue(firstRan.await(10, TimeUnit.SECONDS));
      limiter.release();
      assertTrue(all.await(10, TimeUnit.SECONDS));
      assertEquals(List.of(0, 1, 2, 3, 4, 5), order);
    } finally {
      EventLoops.shutdown(group);
    }
  }

  @Test
  void aFreePermitRunsInlineOnTheCallersLoop() throws Exception {
    EventLoopGroup group = EventLoops.newGroup("nio", 1);
    try {
      EventLoop loop = group.next();
      for (ConcurrencyLimiter limiter :
          List.of(ConcurrencyLimiter.unlimited(), ConcurrencyLimiter.bounded(2))) {
        CompletableFuture<Boolean> inline = new CompletableFuture<>();
        loop.execute(() -> {
          AtomicBoolean ran = new AtomicBoolean();
          limiter.acquire(loop, () -> ran.set(true));
          inline.complete(ran.get());
        });
        assertTrue(inline.get(5, TimeUnit.SECONDS), limiter + " from its loop");
        CompletableFuture<Boolean> hop = new CompletableFuture<>();
        limiter.acquire(loop, () -> hop.complete(loop.inEventLoop()));
        assertTrue(hop.get(5, TimeUnit.SECONDS), limiter + " from a foreign thread");
      }
    } finally {
      EventLoops.shutdown(group);
    }
  }

  @Test
  void unmatchedReleaseIsABug() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> ConcurrencyLimiter.bounded(2).release());
    assertTrue(e.getMessage().contains("release() without a matching acquire()"));
  }

  @Test
  void capMustBePositive() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ConcurrencyLimiter.bounded(0));
    assertTrue(e.getMessage().contains("maxConcurrency must be >= 1, got 0"));
  }
}
