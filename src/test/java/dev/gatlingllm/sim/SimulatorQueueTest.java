package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
      List<Future<Long>> ttfts = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        ttfts.add(pool.submit(() -> {
          try (TestClient client = new TestClient(sim.port())) {
            connected.countDown();
            connected.await(10, TimeUnit.SECONDS);
            Response r = client.post("/v1/completions", "{\"prompt\":\"p\",\"max_tokens\":" + tokens
                + ",\"stream\":true}");
            assertEquals(SimTokens.text(tokens), SimulatorStreamingTest.texts(r.contentEvents(), "text"));
            return r.contentEvents().get(0).nanos() - r.startNanos();
          }
        }));
      }
      List<Long> sorted = new ArrayList<>();
      for (Future<Long> f : ttfts) {
        sorted.add(f.get(30, TimeUnit.SECONDS));
      }
      sorted.sort(null);

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
        double got = sorted.get(i) / 1e6;
        assertTrue(got >= min, "ttft #" + i + " = " + got + " ms, expected >= " + min);
        assertTrue(got < min + 2000, "ttft #" + i + " = " + got + " ms");
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
