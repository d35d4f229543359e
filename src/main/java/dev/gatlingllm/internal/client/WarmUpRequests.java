package dev.gatlingllm.internal.client;

import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Real requests before the measured run, through the same client, event loops and
 * connection pools the run will use. {@code concurrency} streams run side by side, each
 * sending its share of the requests one after another, spread over the loops the way
 * Gatling spreads its users: when they end, every loop's pool holds the connections it will
 * need and the response path is compiled. Nothing of it is recorded.
 *
 * <p>Called from the thread that builds the simulation, never from an event loop: it waits.
 */
public final class WarmUpRequests {

  /**
   * What the warm-up saw.
   *
   * @param sent          requests sent
   * @param failed        requests that failed
   * @param firstError    the first failure's message; null when none failed
   * @param chunks        content chunks received over all requests
   * @param meanNanos     mean end-to-end latency of the successful requests; 0 when none
   * @param elapsedNanos  wall time of the whole warm-up
   * @param finished      false when it was still running when the wait ended
   */
  public record Outcome(int sent, int failed, String firstError, long chunks, long meanNanos,
      long elapsedNanos, boolean finished) {}

  private WarmUpRequests() {}

  /**
   * Sends {@code requests} requests, at most {@code concurrency} at a time, and waits for
   * them (at most {@code maxWait}).
   *
   * @param request the {@code i}-th request to send
   */
  public static Outcome run(LlmClient client, List<EventLoop> loops, IntFunction<LlmRequest> request,
      int requests, int concurrency, Duration maxWait) {
    return run(client, loops, request, requests, concurrency, maxWait, r -> { });
  }

  /**
   * {@link #run(LlmClient, List, IntFunction, int, int, Duration)}, handing each finished
   * request's record to {@code onRecord} on its event loop, as a run hands it to its store.
   */
  public static Outcome run(LlmClient client, List<EventLoop> loops, IntFunction<LlmRequest> request,
      int requests, int concurrency, Duration maxWait, Consumer<RequestRecord> onRecord) {
    if (requests <= 0) {
      return new Outcome(0, 0, null, 0, 0, 0, true);
    }
    int streams = Math.max(1, Math.min(concurrency, requests));
    CountDownLatch done = new CountDownLatch(requests);
    AtomicInteger next = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    AtomicLong chunks = new AtomicLong();
    AtomicLong okNanos = new AtomicLong();
    AtomicInteger ok = new AtomicInteger();
    AtomicReference<String> firstError = new AtomicReference<>();
    long start = System.nanoTime();
    for (int s = 0; s < streams; s++) {
      EventLoop loop = loops.get(s % loops.size());
      Runnable[] stream = new Runnable[1];
      stream[0] = () -> {
        int i = next.getAndIncrement();
        if (i >= requests) {
          return;
        }
        client.send(loop, request.apply(i), (RequestRecord r) -> {
          chunks.addAndGet(r.chunkMicros().length);
          if (r.success()) {
            ok.incrementAndGet();
            okNanos.addAndGet(r.latencyNanos());
          } else {
            failed.incrementAndGet();
            firstError.compareAndSet(null, r.error());
          }
          onRecord.accept(r);
          done.countDown();
          stream[0].run();
        });
      };
      loop.execute(stream[0]);
    }
    boolean finished;
    try {
      finished = done.await(maxWait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      finished = false;
    }
    int good = ok.get();
    return new Outcome(Math.min(next.get(), requests), failed.get(), firstError.get(),
        chunks.get(), good == 0 ? 0 : okNanos.get() / good, System.nanoTime() - start, finished);
  }
}
