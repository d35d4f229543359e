package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.dataset.Conversation;
import dev.gatlingllm.dataset.SyntheticConversations;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conversations through a real Gatling run, checked against what the simulator received:
 * turn k carries exactly the answers the client got for turns 1..k-1, every turn has the
 * conversation's session header and one model, turns are apart by the think time, a failed
 * turn ends its conversation, and the per-turn figures reach the JSON and the summary.
 */
@Timeout(180)
class ConversationIntegrationTest {

  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  @Test
  void everyTurnCarriesTheRealHistoryUnderOneSessionAndModel() throws Exception {
    List<RecordedRequest> received;
    GatlingRunner.Result result;
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(2)).anyModel(true)
        .recordRequests(true).errorRate(0.1).build())) {
      result = GatlingRunner.run(ConversationItSimulation.class, results, Map.of(
          ConversationItSimulation.BASE_URL, simulator.baseUrl(),
          "llm.resultsFolder", results.toString()));
      received = simulator.recordedRequests();
    }
    List<RequestRecord> records = GatlingRunner.captured();
    Map<String, RequestRecord> byRequestId = new HashMap<>();
    records.forEach(r -> byRequestId.put(r.requestId(), r));
    List<Conversation> sampled = SyntheticConversations.builder()
        .count(ConversationItSimulation.CONVERSATIONS).turns(ConversationItSimulation.TURNS)
        .perTurnInputLen(ConversationItSimulation.PER_TURN_INPUT)
        .outputLen(ConversationItSimulation.OUTPUT).seed(5).sample(Tokenizer.gpt2()).all();
    Map<String, Conversation> conversations = new HashMap<>();
    sampled.forEach(c -> conversations.put(c.id(), c));

    // the simulator's requests of each session, in the order it received them (the warm-up's
    // carry no session, or, rehearsing a turn through the run's action, a one-turn
    // conversation of their own under a warmup- request id)
    Map<String, List<RecordedRequest>> bySession = new LinkedHashMap<>();
    for (RecordedRequest r : received) {
      if (r.header("X-Session-ID") != null && !r.header("x-request-id").startsWith("warmup-")) {
        bySession.computeIfAbsent(r.header("X-Session-ID"), k -> new ArrayList<>()).add(r);
      }
    }
    assertEquals(conversations.keySet(), bySession.keySet(), "every conversation, by its id");
    int sent = 0;
    int stopped = 0;
    Set<String> models = new HashSet<>();
    for (Map.Entry<String, List<RecordedRequest>> session : bySession.entrySet()) {
      Conversation conversation = conversations.get(session.getKey());
      List<RecordedRequest> turns = session.getValue();
      String model = null;
      RequestRecord previous = null;
      for (int k = 0; k < turns.size(); k++) {
        JsonNode body = JSON.readTree(turns.get(k).bodyText());
        RequestRecord record = byRequestId.get(turns.get(k).header("x-request-id"));
        assertNotNull(record, "a record of each request the simulator received");
        assertEquals(k + 1, record.turn());
        assertEquals(4, body.get("max_completion_tokens").asInt());
        assertEquals(4, body.get("min_tokens").asInt(), "the output length holds without ignore_eos");
        if (model == null) {
          model = body.get("model").asText();
        }
        assertEquals(model, body.get("model").asText(), "one model per conversation");
        JsonNode messages = body.get("messages");
        assertEquals(2 + 2 * k, messages.size());
        assertEquals("Be brief.", messages.get(0).get("content").asText());
        for (int j = 0; j <= k; j++) {
          assertEquals("user", messages.get(1 + 2 * j).get("role").asText());
          assertEquals(conversation.turns().get(j).prompt(),
              messages.get(1 + 2 * j).get("content").asText());
        }
        for (int j = 0; j < k; j++) {
          RequestRecord answered = byRequestId.get(turns.get(j).header("x-request-id"));
          assertEquals("assistant", messages.get(2 + 2 * j).get("role").asText());
          assertEquals(answered.generatedText(), messages.get(2 + 2 * j).get("content").asText(),
              "turn " + (k + 1) + " carries the real answer of turn " + (j + 1));
        }
        if (previous != null) {
          // from the answer's end at the client to the next turn's arrival at the server
          long thinkNanos = turns.get(k).receivedNanos() - previous.endNanos();
          assertTrue(thinkNanos >= ConversationItSimulation.THINK_MS * 1_000_000
                  && thinkNanos < 2_000_000_000L,
              "think time between turns: " + thinkNanos / 1e6 + " ms");
        }
        assertTrue(record.success() || k == turns.size() - 1,
            "no turn is sent after a failed one");
        previous = record;
      }
      models.add(model);
      sent += turns.size();
      if (turns.size() < ConversationItSimulation.TURNS) {
        stopped++;
        assertFalse(previous.success(), "a conversation ends early only at a failed turn");
      }
    }
    assertTrue(Set.of("lora-a", "lora-b").containsAll(models), models.toString());
    assertTrue(stopped >= 1, "10% of the requests fail: some conversation stopped early");
    assertEquals(sent, records.size());

    // per-turn figures: every conversation sends turn 1; turn 2 carries 12 + 4 + 12 tokens
    JsonNode doc = JSON.readTree(ConversationItSimulation.outcome.resultFile().toFile());
    JsonNode perTurn = doc.get("per_turn_metrics");
    assertEquals(3, perTurn.size());
    JsonNode first = perTurn.get(0);
    assertEquals(1, first.get("turn").asInt());
    assertEquals(6, first.get("completed").asInt() + first.get("failed").asInt());
    int total = 0;
    for (JsonNode t : perTurn) {
      total += t.get("completed").asInt() + t.get("failed").asInt();
      assertTrue(t.has("p99_ttft_ms") && t.has("median_itl_ms") && t.has("mean_e2el_ms")
          && t.has("std_tpot_ms"), t.toString());
    }
    assertEquals(sent, total);
    assertEquals(doc.get("completed").asInt() + doc.get("failed").asInt(), total,
        "the whole run counts every turn");
    assertEquals(12.0, first.get("mean_input_tokens").asDouble(), 1e-9);
    assertEquals(28.0, perTurn.get(1).get("mean_input_tokens").asDouble(), 1e-9);
    assertEquals(44.0, perTurn.get(2).get("mean_input_tokens").asDouble(), 1e-9);

    String summary = ConversationItSimulation.outcome.summary();
    assertTrue(summary.contains("================ Per-Turn Results ================"), summary);
    assertTrue(summary.contains("Turn  Completed Failed    Prompt tok"), summary);
    assertTrue(summary.contains("---------------TTFT by turn (ms)----------------"), summary);
    assertTrue(summary.contains("Turn  Mean      Median    P50       P99"), summary);

    // Gatling's rows per turn index: the simulation's assertions on turns 1 and 3 held
    assertEquals(0, result.exitCode(), "assertions on 'talk turn 3 TTFT' and 'talk turn 1'");
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
