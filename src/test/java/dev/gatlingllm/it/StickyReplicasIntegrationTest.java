package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.StrictServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DSL's {@code conversation(...)} over two replicas: every turn of a conversation reaches
 * the server of its first turn, counted from what each simulator received, while the single
 * requests of the same users are still placed in turn with the conversations' first turns.
 */
@Timeout(180)
class StickyReplicasIntegrationTest {

  @TempDir
  Path results;

  /**
   * What one server received of the run: turns by conversation, and single requests (the
   * warm-up's, which go first as {@code warmup-<n>}, left out).
   */
  private record Received(Map<String, Integer> turnsBySession, int singles) {}

  private static Received received(Simulator sim) {
    Map<String, Integer> turns = new HashMap<>();
    int singles = 0;
    for (RecordedRequest r : StrictServer.runRequests(sim)) {
      if (r.header("x-request-id").startsWith("warmup-")) {
        continue;
      }
      String session = r.header("X-Session-ID");
      if (session != null) {
        turns.merge(session, 1, Integer::sum);
      } else if (r.bodyText().contains(StickyReplicasItSimulation.SINGLE_PROMPT)) {
        singles++;
      } else {
        throw new AssertionError("neither a turn nor the single request: " + r.bodyText());
      }
    }
    return new Received(turns, singles);
  }

  @Test
  void aConversationStaysOnItsFirstServerAndSingleRequestsStillTakeTheirTurn() throws Exception {
    Received a;
    Received b;
    try (Simulator first = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
            .itl(Duration.ofMillis(1)).recordRequests(true).build());
         Simulator second = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
            .itl(Duration.ofMillis(1)).recordRequests(true).build())) {
      GatlingRunner.Result result = GatlingRunner.run(StickyReplicasItSimulation.class,
          results, Map.of(StickyReplicasItSimulation.FIRST_URL, first.baseUrl(),
              StickyReplicasItSimulation.SECOND_URL, second.baseUrl(),
              "llm.resultsFolder", results.toString()));
      assertEquals(0, result.exitCode());
      a = received(first);
      b = received(second);
    }
    for (String session : a.turnsBySession().keySet()) {
      assertEquals(null, b.turnsBySession().get(session),
          session + " reached both servers: " + a + " " + b);
    }
    Map<String, Integer> all = new HashMap<>(a.turnsBySession());
    all.putAll(b.turnsBySession());
    assertEquals(StickyReplicasItSimulation.USERS, all.size(), all.toString());
    all.forEach((session, turns) ->
        assertEquals(StickyReplicasItSimulation.TURNS, turns, session + "'s turns"));
    assertEquals(StickyReplicasItSimulation.USERS, a.singles() + b.singles());
    // round-robin placed 12 requests in turn (6 first turns, 6 singles), in whatever order
    // they came: 6 on each server, the later turns aside
    assertEquals(6, a.turnsBySession().size() + a.singles(), a + " " + b);
    assertEquals(6, b.turnsBySession().size() + b.singles(), a + " " + b);
  }
}
