package dev.gatlingllm.internal.servermetrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.StrictServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The speculative-decoding counters of several replicas, read together. */
class SpecDecodeCountersTest {

  @Test
  void twoReplicasCountersAreAddedPositionByPosition() {
    SpecDecodeCounters a = new SpecDecodeCounters(3, 9, 5, Map.of(0, 3.0, 1, 2.0));
    SpecDecodeCounters b = new SpecDecodeCounters(4, 12, 4, Map.of(0, 4.0));
    assertEquals(new SpecDecodeCounters(7, 21, 9, Map.of(0, 7.0, 1, 2.0)), a.plus(b));
  }

  @Test
  void everyReplicaIsReadAndAReplicaThatDoesNotAnswerLeavesNoFigure() throws Exception {
    String dead;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      dead = "http://127.0.0.1:" + free.getLocalPort() + "/metrics";
    }
    try (Simulator a = replica(); Simulator b = replica()) {
      URI first = URI.create(a.baseUrl() + "/metrics");
      URI second = URI.create(b.baseUrl() + "/metrics");
      Optional<SpecDecodeCounters> both = SpecDecodeCounters.fetch(List.of(first, second),
          Map.of(), false);
      // no request yet: every counter 0, at each of the 3 draft positions
      assertEquals(Optional.of(new SpecDecodeCounters(0, 0, 0, Map.of(0, 0.0, 1, 0.0, 2, 0.0))),
          both);
      assertEquals(List.of("GET /metrics"), paths(a));
      assertEquals(List.of("GET /metrics"), paths(b));
      // the sum without the second replica's counters would not be the run's
      assertTrue(SpecDecodeCounters.fetch(List.of(first, URI.create(dead)), Map.of(), false)
          .isEmpty());
    }
    // no replica has any: none, as with one server without speculative decoding
    try (Simulator plain = Simulator.start(StrictServer.builder().build())) {
      assertTrue(SpecDecodeCounters.fetch(List.of(URI.create(plain.baseUrl() + "/metrics"),
          URI.create(dead)), Map.of(), false).isEmpty());
    }
  }

  private static Simulator replica() {
    return Simulator.start(StrictServer.builder().specDecode(3, 2).recordRequests(true).build());
  }

  private static List<String> paths(Simulator sim) {
    return sim.recordedRequests().stream().map(r -> r.method() + " " + r.path()).toList();
  }
}
