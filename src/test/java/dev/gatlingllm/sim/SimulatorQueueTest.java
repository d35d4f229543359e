package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.TestClient.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The running-slot cap: requests beyond it wait in FIFO order and the wait shows in TTFT. */
class SimulatorQueueTest {

  @Test
  void requestsBeyondMaxRunningQueueAndTheirTtftShowsTheWait() throws Exception {
    long ttftMs = 300;
    long itlMs = 10;
    int tokens = 5;
    long runMs = ttftMs + (tokens - 1) * itlMs;
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().maxRunning(2)
        .ttft(Duration.ofMillis(ttftMs)).itl(Duration.ofMillis(itlMs)).build())) {
      CountDownLatch connected = new CountDownLatch(6);
      List<Future<long[]>> ttfts = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        ttfts.add(pool.submit(() -> {
          try (TestClient client = new TestClient(sim.port())) {
            connected.countDown();
            connected.await(10, TimeUnit.SECONDS);
            Response r = client.post("/v1/completions", "{\"prompt\":\"p\",\"max_tokens\":" + tokens
                + ",\"stream\":true}");
            assertEquals(SimTokens.text(tokens), SimulatorStreamingTest.texts(r.contentEvents(), "text"));
            return new long[] {r.startNanos(), r.contentEvents().get(0).nanos()};
          }
        }));
      }
      List<long[]> sorted = new ArrayList<>();
      for (Future<long[]> f : ttfts) {
        sorted.add(f.get(30, TimeUnit.SECONDS));
      }
      // By first token. A wave starts when the previous one has finished, counted from the
      // first request's arrival: a client thread that started late (a loaded machine) waits
      // less than the whole of it, so the bound is from the earliest start.
      sorted.sort((a, b) -> Long.compare(a[1], b[1]));
      long earliest = sorted.stream().mapToLong(t -> t[0]).min().orElseThrow();

      assertEquals(6, sim.requestsReceived());
      assertEquals(6, sim.maxInFlight());
      assertEquals(2, sim.maxRunning());
      assertEquals(0, sim.inFlight());
      assertEquals(0, sim.running());
      assertEquals(0, sim.waiting());
      // Three waves of two: each wave starts when the previous one has fully finished.
      for (int i = 0; i < 6; i++) {
        long wave = i / 2;
        double min = ttftMs + wave * runMs;
        double sinceFirstStart = (sorted.get(i)[1] - earliest) / 1e6;
        double ttft = (sorted.get(i)[1] - sorted.get(i)[0]) / 1e6;
        assertTrue(sinceFirstStart >= min,
            "first token #" + i + " " + sinceFirstStart + " ms after the first start, expected >= " + min);
        assertTrue(ttft < min + 2000, "ttft #" + i + " = " + ttft + " ms");
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
