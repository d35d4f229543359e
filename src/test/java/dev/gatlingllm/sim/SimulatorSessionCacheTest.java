package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.sim.SimCommand;
import dev.gatlingllm.sim.TestClient.Response;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A conversation's second turn on the simulator with the session cache: 1 ms of prefill per
 * prompt token, a first turn of 150 words, a second turn adding the 5-token answer and 5
 * words. Under the first turn's session it pays for its new words only; under a new session
 * or none, for all of them.
 */
class SimulatorSessionCacheTest {

  static final String QUESTION = "w ".repeat(150).trim();
  static final String TURN_1 = "{\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\""
      + QUESTION + "\"}]}";

  static String turn2(String answer) {
    return "{\"max_tokens\":5,\"min_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\""
        + QUESTION + "\"},{\"role\":\"assistant\",\"content\":\"" + answer
        + "\"},{\"role\":\"user\",\"content\":\"v v v v v\"}]}";
  }

  static long ttftMillis(Response r) {
    assertEquals(200, r.status(), r.body());
    return (r.chunks().get(0).nanos() - r.startNanos()) / 1_000_000;
  }

  @Test
  void aTurnWhoseHistoryWasServedPaysPrefillForItsNewTokensOnly() {
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().ttft(Duration.ofMillis(1))
            .prefillPerToken(Duration.ofMillis(1)).itl(Duration.ofMillis(1)).sessionCache(true)
            .build());
        TestClient c = new TestClient(sim.port())) {
      Response first = c.exchange("POST", "/v1/chat/completions", TURN_1,
          Map.of("X-Session-ID", "s1"));
      assertTrue(ttftMillis(first) >= 150, "turn 1 pays its 150 tokens: " + ttftMillis(first));
      String answer = first.json().get("choices").get(0).get("message").get("content").asText();
      long cached = ttftMillis(c.exchange("POST", "/v1/chat/completions", turn2(answer),
          Map.of("X-Session-ID", "s1")));
      long otherSession = ttftMillis(c.exchange("POST", "/v1/chat/completions", turn2(answer),
          Map.of("X-Session-ID", "s2")));
      long noSession = ttftMillis(c.exchange("POST", "/v1/chat/completions", turn2(answer),
          Map.of()));
      assertTrue(cached < 80, "turn 2 pays ~5 new tokens: " + cached + " ms");
      assertTrue(otherSession >= 155, "another session pays all: " + otherSession + " ms");
      assertTrue(noSession >= 155, "no session pays all: " + noSession + " ms");
    }
  }

  @Test
  void theCommandLineTurnsItOnWithSessionCacheAndSaysSoInItsHelp() {
    assertTrue(SimCommand.parse("--session-cache").sessionCache());
    assertEquals(false, SimCommand.parse("--port", "0").sessionCache(), "off by default");
    String help = SimCommand.usage().replaceAll("\\s+", " ");
    assertTrue(help.contains("--session-cache a prefix cache per conversation: a turn with "
        + "X-Session-ID"), help);
  }

  @Test
  void minTokensIsCheckedAsVllmChecksIt() {
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().build());
        TestClient c = new TestClient(sim.port())) {
      Response over = c.post("/v1/chat/completions", "{\"max_tokens\":3,\"min_tokens\":4,"
          + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
      SimulatorEndpointsTest.assertError(over, 400, "BadRequestError",
          "min_tokens must be less than or equal to max_tokens=3, got 4.");
      Response negative = c.post("/v1/chat/completions", "{\"max_tokens\":3,\"min_tokens\":-1,"
          + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
      SimulatorEndpointsTest.assertError(negative, 400, "BadRequestError",
          "min_tokens must be greater than or equal to 0, got -1.");
      Response held = c.post("/v1/chat/completions", "{\"max_tokens\":3,\"min_tokens\":3,"
          + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
      JsonNode usage = held.json().get("usage");
      assertEquals(3, usage.get("completion_tokens").asInt(), "the minimum holds");
    }
  }
}
