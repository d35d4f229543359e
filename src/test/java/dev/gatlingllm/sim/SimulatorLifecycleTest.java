package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.sim.Jitter;
import dev.gatlingllm.internal.sim.JitterTest;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.TestClient.Response;
import io.netty.channel.epoll.Epoll;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** Slots freed by leaving clients, start and stop, transports, jitter and stats resets. */
class SimulatorLifecycleTest {

  static final String LONG_STREAM = "{\"prompt\":\"p\",\"max_tokens\":500,\"stream\":true}";
  static final String SHORT_STREAM = "{\"prompt\":\"p\",\"max_tokens\":2,\"stream\":true}";

  /** Polls {@code condition} every 10 ms for at most 5 s. */
  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(10);
    }
  }

  static SimulatorConfig.Builder slowStreams() {
    // 500 tokens at 20 ms: a stream that would hold its slot for 10 s.
    return SimulatorConfig.builder().maxRunning(1).ttft(Duration.ofMillis(20)).itl(Duration.ofMillis(20));
  }

  @Test
  void clientHangingUpMidStreamFreesItsRunningSlot() throws Exception {
    try (Simulator sim = Simulator.start(slowStreams().build())) {
      TestClient leaver = new TestClient(sim.port());
      leaver.write("POST", "/v1/completions", LONG_STREAM, Map.of());
      assertEquals(200, leaver.readHead(System.nanoTime()).status());
      await("the stream runs", () -> sim.running() == 1);
      Thread.sleep(100);
      leaver.close();
      await("the slot is free", () -> sim.running() == 0 && sim.inFlight() == 0);

      try (TestClient next = new TestClient(sim.port())) {
        Response r = next.post("/v1/completions", SHORT_STREAM);
        assertTrue(r.complete());
        double ttftMs = (r.contentEvents().get(0).nanos() - r.startNanos()) / 1e6;
        assertTrue(ttftMs < 2000, "did not wait for the abandoned stream: " + ttftMs);
      }
      assertEquals(1, sim.maxRunning());
    }
  }

  @Test
  void queuedClientHangingUpLeavesTheQueue() throws Exception {
    try (Simulator sim = Simulator.start(slowStreams().build());
        TestClient runner = new TestClient(sim.port())) {
      runner.write("POST", "/v1/completions", LONG_STREAM, Map.of());
      await("the first stream runs", () -> sim.running() == 1);
      TestClient queued = new TestClient(sim.port());
      queued.write("POST", "/v1/completions", LONG_STREAM, Map.of());
      await("the second one waits", () -> sim.waiting() == 1);
      assertEquals(2, sim.inFlight());
      queued.close();
      await("the queue is empty", () -> sim.waiting() == 0 && sim.inFlight() == 1);
      assertEquals(1, sim.running());
      assertEquals(2, sim.maxInFlight());
    }
  }

  @Test
  void closeStopsAcceptingCutsOpenStreamsAndIsIdempotent() throws Exception {
    Simulator sim = Simulator.start(slowStreams().build());
    int port = sim.port();
    assertEquals("http://127.0.0.1:" + port, sim.baseUrl());
    TestClient streaming = new TestClient(port);
    streaming.write("POST", "/v1/completions", LONG_STREAM, Map.of());
    await("the stream runs", () -> sim.running() == 1);

    sim.close();
    sim.close();

    Response cut = streaming.read(System.nanoTime());
    assertFalse(cut.complete());
    streaming.close();
    assertThrows(ConnectException.class, () -> {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
      }
    });
  }

  @Test
  void aTakenPortIsReportedClearly() {
    try (Simulator first = Simulator.start(SimulatorConfig.defaults())) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> Simulator.start(SimulatorConfig.builder().port(first.port()).build()));
      assertTrue(e.getMessage().startsWith("simulator cannot listen on 127.0.0.1:" + first.port()),
          e.getMessage());
    }
  }

  @Test
  void bothTransportsServe() {
    for (SimulatorConfig.Transport t : SimulatorConfig.Transport.values()) {
      if (t == SimulatorConfig.Transport.EPOLL && !Epoll.isAvailable()) {
        continue;
      }
      try (Simulator sim = Simulator.start(SimulatorConfig.builder().transport(t)
          .ttft(Duration.ofMillis(1)).itl(Duration.ofMillis(1)).build());
          TestClient c = new TestClient(sim.port())) {
        SimulatorConfig.Transport expected = t == SimulatorConfig.Transport.AUTO
            ? (Epoll.isAvailable() ? SimulatorConfig.Transport.EPOLL : SimulatorConfig.Transport.NIO)
            : t;
        assertEquals(expected, sim.transport());
        assertEquals(SimTokens.text(2),
            SimulatorStreamingTest.texts(c.post("/v1/completions", SHORT_STREAM).contentEvents(), "text"));
      }
    }
  }

  @Test
  void jitterDelaysEachFirstTokenByItsSeededFactor() {
    // TTFT 200 ms with jitter 0.9 may come anywhere in 20..380 ms. With seed 115 the plan
    // gives request 0 about 373 ms and request 1 about 56 ms (see JitterTest for the function).
    SimulatorConfig config = SimulatorConfig.builder().jitter(0.9).seed(115)
        .ttft(Duration.ofMillis(200)).itl(Duration.ZERO).build();
    double planned0 = Jitter.of(config, 0).apply(200_000_000L) / 1e6;
    double planned1 = Jitter.of(config, 1).apply(200_000_000L) / 1e6;
    assertTrue(planned0 > 370 && planned1 < 60, planned0 + " / " + planned1);
    try (Simulator sim = Simulator.start(config);
        TestClient c = new TestClient(sim.port())) {
      double ttft0 = ttftMillis(c.post("/v1/completions", SHORT_STREAM));
      double ttft1 = ttftMillis(c.post("/v1/completions", SHORT_STREAM));
      // The client cannot see a token before the server's plan sends it: without the jitter
      // request 0 would come after about 200 ms, well short of its 373.
      assertTrue(ttft0 >= planned0, "request 0: " + ttft0 + " ms, planned " + planned0);
      assertTrue(ttft1 >= planned1, "request 1: " + ttft1 + " ms, planned " + planned1);
      assertTrue(ttft1 < ttft0, "request 1 was planned 317 ms sooner: " + ttft1 + " vs " + ttft0);
    }
  }

  private static double ttftMillis(Response r) {
    assertTrue(r.complete());
    return (r.contentEvents().get(0).nanos() - r.startNanos()) / 1e6;
  }

  @Test
  void resetStatsRestartsTheFaultSequence() {
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().errorRate(0.5)
        .ttft(Duration.ZERO).itl(Duration.ZERO).build());
        TestClient c = new TestClient(sim.port())) {
      assertEquals(200, c.post("/v1/completions", SHORT_STREAM).status());
      assertEquals(500, c.post("/v1/completions", SHORT_STREAM).status());
      assertEquals(2, sim.requestsReceived());
      assertEquals(1, sim.faultsInjected(Fault.HTTP_ERROR));
      sim.resetStats();
      assertEquals(0, sim.requestsReceived());
      assertEquals(0, sim.faultsInjected(Fault.HTTP_ERROR));
      assertEquals(0, sim.maxInFlight());
      assertEquals(200, c.post("/v1/completions", SHORT_STREAM).status());
      assertEquals(500, c.post("/v1/completions", SHORT_STREAM).status());
    }
  }

}
