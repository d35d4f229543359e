package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.client.TargetChooser.Strategy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a request's replica is chosen, and each replica's count of requests in flight. */
class TargetChooserTest {

  @Test
  void roundRobinTakesEachInTurnWhateverIsInFlight() {
    TargetChooser c = TargetChooser.of(Strategy.ROUND_ROBIN, 3);
    List<Integer> picks = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      picks.add(c.pick());
    }
    assertEquals(List.of(0, 1, 2, 0, 1, 2, 0), picks);
    // 0 got three, 1 and 2 two each; nothing came back yet
    assertEquals(3, c.inFlight(0));
    assertEquals(2, c.inFlight(1));
    assertEquals(2, c.inFlight(2));
    c.done(1);
    c.done(1);
    // 1 is empty now, but round-robin does not care: 1 follows 0
    assertEquals(1, c.pick());
  }

  @Test
  void leastInFlightPicksTheEmptiestAndTheFirstOnATie() {
    TargetChooser c = TargetChooser.of(Strategy.LEAST_IN_FLIGHT, 3);
    // all empty: the first; then 1 and 2 (the first of the empty ones), then 0 again
    assertEquals(0, c.pick());
    assertEquals(1, c.pick());
    assertEquals(2, c.pick());
    assertEquals(0, c.pick());
    // in flight now 2, 1, 1
    c.done(0);
    c.done(0);
    // 0, 1, 1: 0 is the emptiest
    assertEquals(0, c.pick());
    // 1, 1, 1: a tie, the first
    assertEquals(0, c.pick());
    // 2, 1, 1: the first of the two least
    assertEquals(1, c.pick());
    assertEquals(2, c.pick());
    assertEquals(2, c.inFlight(0));
    assertEquals(2, c.inFlight(1));
    assertEquals(2, c.inFlight(2));
  }

  @Test
  void aSlowReplicaGetsFewerWithLeastInFlight() {
    TargetChooser c = TargetChooser.of(Strategy.LEAST_IN_FLIGHT, 2);
    // replica 1 never answers; replica 0 answers each request before the next is sent
    int toSlow = 0;
    for (int i = 0; i < 10; i++) {
      int t = c.pick();
      if (t == 0) {
        c.done(0);
      } else {
        toSlow++;
      }
    }
    // the first request is replica 0's (a tie); the second finds 0 empty again, and so on
    assertEquals(0, toSlow);
    assertEquals(0, c.inFlight(0));
  }

  @Test
  void aGivenServerIsCountedWithoutMovingRoundRobinsTurn() {
    TargetChooser c = TargetChooser.of(Strategy.ROUND_ROBIN, 3);
    assertEquals(0, c.pick());
    // three later turns of a conversation whose first went to 2
    assertEquals(2, c.take(2));
    assertEquals(2, c.take(2));
    assertEquals(2, c.take(2));
    assertEquals(3, c.inFlight(2));
    // the requests round-robin places still go 0, 1, 2 in turn
    assertEquals(1, c.pick());
    assertEquals(2, c.pick());
    assertEquals(0, c.pick());
    assertThrows(IndexOutOfBoundsException.class, () -> c.take(3));
  }

  @Test
  void leastInFlightSeesTheRequestsItDidNotPlace() {
    TargetChooser c = TargetChooser.of(Strategy.LEAST_IN_FLIGHT, 2);
    // two turns pinned to 0 are in flight: the next free choice is 1, twice, then a tie (0)
    c.take(0);
    c.take(0);
    assertEquals(1, c.pick());
    assertEquals(1, c.pick());
    assertEquals(0, c.pick());
    c.done(0);
    c.done(0);
    c.done(0);
    // 0 empty, 1 with two: the emptiest
    assertEquals(0, c.pick());
  }

  @Test
  void inFlightCountsComeBackFromEveryPick() throws Exception {
    TargetChooser c = TargetChooser.of(Strategy.LEAST_IN_FLIGHT, 4);
    List<Thread> threads = new ArrayList<>();
    for (int k = 0; k < 4; k++) {
      threads.add(new Thread(() -> {
        for (int i = 0; i < 10_000; i++) {
          c.done(c.pick());
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    for (int t = 0; t < 4; t++) {
      assertEquals(0, c.inFlight(t), "target " + t);
    }
  }

  @Test
  void strategiesAreNamedAsTheFlagTakesThem() {
    assertEquals(Strategy.ROUND_ROBIN, Strategy.parse("round-robin"));
    assertEquals(Strategy.ROUND_ROBIN, Strategy.parse("round_robin")); // AIPerf's spelling
    assertEquals(Strategy.LEAST_IN_FLIGHT, Strategy.parse("Least-In-Flight"));
    assertEquals("least-in-flight", Strategy.LEAST_IN_FLIGHT.flagValue());
    String message = assertThrows(IllegalArgumentException.class,
        () -> Strategy.parse("random")).getMessage();
    assertTrue(message.contains("round-robin or least-in-flight"), message);
    assertThrows(IllegalArgumentException.class, () -> TargetChooser.of(Strategy.ROUND_ROBIN, 0));
  }
}
