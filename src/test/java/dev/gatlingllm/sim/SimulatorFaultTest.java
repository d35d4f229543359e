package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.TestClient.Event;
import dev.gatlingllm.sim.TestClient.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Each fault kind at rate 0.2 over 50 requests hits exactly requests 4, 9, ..., 49, and
 * shows on the wire the way the docs say.
 */
class SimulatorFaultTest {

  static final List<Integer> EVERY_FIFTH = List.of(4, 9, 14, 19, 24, 29, 34, 39, 44, 49);
  static final String STREAM = "{\"prompt\":\"p\",\"max_tokens\":6,\"stream\":true}";

  /** Sends 50 streaming requests one after the other and returns those matching {@code hit}. */
  static List<Integer> run(SimulatorConfig.Builder config, Fault kind, Predicate<Response> hit) {
    List<Integer> hits = new ArrayList<>();
    try (Simulator sim = Simulator.start(config.ttft(Duration.ofMillis(1)).itl(Duration.ofMillis(1)).build())) {
      TestClient client = new TestClient(sim.port());
      for (int i = 0; i < 50; i++) {
        Response r = client.post("/v1/completions", STREAM);
        if (hit.test(r)) {
          hits.add(i);
        }
        if (!r.complete() || "close".equals(r.header("connection"))) {
          client.close();
          client = new TestClient(sim.port());
        }
      }
      client.close();
      assertEquals(50, sim.requestsReceived());
      assertEquals(10, sim.faultsInjected(kind));
    }
    return hits;
  }

  static boolean normal(Response r) {
    List<Event> events = r.events();
    return r.status() == 200 && r.complete() && events.size() == 7
        && events.get(6).data().equals("[DONE]")
        && SimulatorStreamingTest.texts(events.subList(0, 6), "text").equals(SimTokens.text(6));
  }

  @Test
  void httpErrorsAreAnsweredWithVllmsErrorJson() {
    List<Integer> hits = run(SimulatorConfig.builder().errorRate(0.2), Fault.HTTP_ERROR, r -> {
      if (r.status() != 500) {
        assertTrue(normal(r));
        return false;
      }
      JsonNode error = r.json().get("error");
      assertEquals("InternalServerError", error.get("type").asText());
      assertEquals(500, error.get("code").asInt());
      assertTrue(error.get("param").isNull());
      return true;
    });
    assertEquals(EVERY_FIFTH, hits);
  }

  @Test
  void disconnectsCutTheStreamAfterHalfTheChunksWithoutTerminator() {
    List<Integer> hits = run(SimulatorConfig.builder().disconnectRate(0.2), Fault.DISCONNECT, r -> {
      if (r.complete()) {
        assertTrue(normal(r));
        return false;
      }
      List<Event> events = r.events();
      assertEquals(3, events.size(), "6 chunks, cut after 3");
      assertFalse(events.stream().anyMatch(e -> e.data().equals("[DONE]")));
      return true;
    });
    assertEquals(EVERY_FIFTH, hits);
  }

  @Test
  void inBandErrorsFollowSomeChunksAndEndWithDone() {
    List<Integer> hits = run(SimulatorConfig.builder().inBandErrorRate(0.2), Fault.IN_BAND_ERROR, r -> {
      assertTrue(r.complete());
      List<Event> events = r.events();
      if (!events.get(events.size() - 2).data().startsWith("{\"error\"")) {
        assertTrue(normal(r));
        return false;
      }
      assertEquals(5, events.size(), "3 content chunks, error, [DONE]");
      assertEquals(SimTokens.text(3), SimulatorStreamingTest.texts(events.subList(0, 3), "text"));
      JsonNode error = events.get(3).json().get("error");
      assertEquals("InternalServerError", error.get("type").asText());
      assertEquals(500, error.get("code").asInt());
      assertEquals("[DONE]", events.get(4).data());
      return true;
    });
    assertEquals(EVERY_FIFTH, hits);
  }

  @Test
  void stallsPauseMidStreamThenFinishNormally() {
    Function<Response, Long> longestGapMs = r -> {
      List<Event> content = r.contentEvents();
      long max = 0;
      for (int i = 1; i < content.size(); i++) {
        max = Math.max(max, content.get(i).nanos() - content.get(i - 1).nanos());
      }
      return max / 1_000_000;
    };
    List<Long> stalledGaps = new ArrayList<>();
    List<Integer> hits = run(SimulatorConfig.builder().stallRate(0.2).stallDuration(Duration.ofMillis(250)),
        Fault.STALL, r -> {
          assertTrue(normal(r));
          // Unstalled gaps are 1 ms, stalled ones 251 ms. Timers aim at planned instants, so a late chunk 3
          // shortens the stalled gap a little; the end of the stream cannot come early.
          long gap = longestGapMs.apply(r);
          if (gap >= 125) {
            stalledGaps.add(gap);
            long third = r.contentEvents().get(2).nanos();
            long fourth = r.contentEvents().get(3).nanos();
            assertEquals(gap, (fourth - third) / 1_000_000, "the pause is after chunk 3");
            long latency = r.contentEvents().get(5).nanos() - r.startNanos();
            assertTrue(latency / 1e6 >= 1 + 5 + 250, "latency " + latency / 1e6);
            return true;
          }
          return false;
        });
    assertEquals(EVERY_FIFTH, hits);
    assertEquals(10, stalledGaps.size());
  }

  @Test
  void inBandPlusDisconnectOnOneRequestSendsTheErrorThenHangsUp() {
    List<Integer> hits = run(SimulatorConfig.builder().inBandErrorRate(0.2).disconnectRate(0.2),
        Fault.IN_BAND_ERROR, r -> {
          if (r.complete()) {
            assertTrue(normal(r));
            return false;
          }
          List<Event> events = r.events();
          assertEquals(4, events.size(), "3 content chunks then the error, no [DONE]");
          assertTrue(events.get(3).data().startsWith("{\"error\""));
          return true;
        });
    assertEquals(EVERY_FIFTH, hits);
  }

  @Test
  void nonStreamedRequestsFailAsAWhole() {
    String body = "{\"prompt\":\"p\",\"max_tokens\":4}";
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().inBandErrorRate(0.5)
        .disconnectRate(0.25).ttft(Duration.ofMillis(1)).itl(Duration.ofMillis(1)).build())) {
      List<String> outcomes = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        try (TestClient client = new TestClient(sim.port())) {
          try {
            Response r = client.post("/v1/completions", body);
            outcomes.add(r.status() == 200 ? "ok" : r.status() + ":" + r.json().get("error").get("type").asText());
          } catch (java.io.UncheckedIOException e) {
            outcomes.add("closed");
          }
        }
      }
      // in-band hits 1, 3, 5; disconnect hits 3 (and wins there, closing without an answer).
      assertEquals(List.of("ok", "500:InternalServerError", "ok", "closed", "ok",
          "500:InternalServerError"), outcomes);
    }
  }
}
