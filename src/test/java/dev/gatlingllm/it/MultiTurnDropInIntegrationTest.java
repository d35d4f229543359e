package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.testing.TeeOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
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
 * A {@code vllm-bench --multi-turn} command line through the drop-in against the simulator,
 * checked against the simulator's own log: every turn carries the conversation's session
 * header, one LoRA module per conversation, the think time between turns, at most
 * {@code --multi-turn-concurrency} conversations at once, nothing sent after a failed turn,
 * and per-turn figures in the result JSON and the console.
 */
@Timeout(180)
class MultiTurnDropInIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int CONVERSATIONS = 8;
  private static final int TURNS = 3;
  private static final int IN_FLIGHT = 3;
  private static final long DELAY_MS = 40;

  @TempDir
  Path results;

  @Test
  void conversationsRunTurnByTurnUnderTheirSessionAndModel() throws Exception {
    List<RecordedRequest> received;
    GatlingRunner.Result result;
    String console;
    PrintStream original = System.out;
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    System.setOut(new PrintStream(new TeeOutputStream(original, copy), true, StandardCharsets.UTF_8));
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).anyModel(true)
        .recordRequests(true).errorRate(0.15).seed(3).build())) {
      String args = "--backend openai-chat --base-url " + simulator.baseUrl()
          + " --model served-llm --tokenizer datasets/tokenizers/gpt2 --dataset-name random"
          + " --multi-turn --multi-turn-num-turns " + TURNS + " --per-turn-input-len 16"
          + " --random-output-len 4 --num-prompts " + CONVERSATIONS
          + " --multi-turn-concurrency " + IN_FLIGHT + " --multi-turn-delay-ms " + DELAY_MS
          + " --request-rate 40 --lora-modules lora-a lora-b --seed 2 --save-result"
          + " --disable-tqdm";
      result = GatlingRunner.run(MultiTurnBenchServe.class, results, Map.of(
          CommandLine.ARGS_PROPERTY, args, "llm.resultsFolder", results.toString()));
      // the turns: not the model check's GET /v1/models before the run
      received = simulator.recordedRequests().stream()
          .filter(r -> r.path().equals("/v1/chat/completions")).toList();
    } finally {
      Thread.interrupted();
      System.setOut(original);
      console = copy.toString(StandardCharsets.UTF_8);
    }
    assertEquals(0, result.exitCode(), console);
    assertTrue(console.contains("Multi-turn: 8 conversations (3 turns of 16 input and 4 output "
        + "tokens), conversation concurrency 3, delay between turns 40 ms"), console);

    Map<String, RequestRecord> byRequestId = new HashMap<>();
    for (RequestRecord r : GatlingRunner.captured()) {
      assertEquals(null, byRequestId.put(r.requestId(), r), "one id per turn: " + r.requestId());
    }
    Map<String, List<RecordedRequest>> bySession = new LinkedHashMap<>();
    for (RecordedRequest r : received) {
      String session = r.header("X-Session-ID");
      assertNotNull(session, "every request is a turn with its session: " + r.bodyText());
      bySession.computeIfAbsent(session, k -> new ArrayList<>()).add(r);
    }
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < CONVERSATIONS; i++) {
      ids.add("conv-" + i);
    }
    assertEquals(ids, bySession.keySet(), "--num-prompts counts conversations");

    int stopped = 0;
    List<long[]> spans = new ArrayList<>();
    for (Map.Entry<String, List<RecordedRequest>> session : bySession.entrySet()) {
      List<RecordedRequest> turns = session.getValue();
      assertTrue(turns.size() <= TURNS, session.getKey() + ": " + turns.size());
      Set<String> models = new HashSet<>();
      RequestRecord previous = null;
      for (int k = 0; k < turns.size(); k++) {
        JsonNode body = JSON.readTree(turns.get(k).bodyText());
        models.add(body.get("model").asText());
        assertEquals(1 + 2 * k, body.get("messages").size(), "turn " + (k + 1) + "'s history");
        RequestRecord record = byRequestId.get(turns.get(k).header("x-request-id"));
        assertNotNull(record, "a record of each turn the simulator received");
        assertEquals(k + 1, record.turn());
        if (k > 0) {
          assertEquals(turns.get(0).header("x-request-id") + "-turn" + (k + 1),
              record.requestId(), "a later turn's id: its conversation's first id and the turn");
        }
        if (previous != null) {
          assertTrue(previous.success(), "a turn is sent only after a successful one");
          long thinkNanos = turns.get(k).receivedNanos() - previous.endNanos();
          assertTrue(thinkNanos >= DELAY_MS * 1_000_000, "think time: " + thinkNanos / 1e6);
        }
        previous = record;
      }
      if (turns.size() < TURNS) {
        stopped++;
        assertFalse(previous.success(), "a conversation ends early only at a failed turn");
      }
      assertEquals(1, models.size(), "one model per conversation: " + models);
      assertTrue(Set.of("lora-a", "lora-b").containsAll(models), models.toString());
      spans.add(new long[] {turns.get(0).receivedNanos(),
          turns.get(turns.size() - 1).receivedNanos()});
    }
    assertTrue(stopped >= 1, "15% of the turns fail: some conversation stopped early");
    assertTrue(maxOverlap(spans) <= IN_FLIGHT, "conversations at once: " + maxOverlap(spans));

    JsonNode doc;
    try (Stream<Path> files = Files.list(result.runFolder())) {
      Path json = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
      doc = JSON.readTree(json.toFile());
    }
    JsonNode perTurn = doc.get("per_turn_metrics");
    assertEquals(TURNS, perTurn.size(), perTurn.toString());
    int total = 0;
    for (JsonNode t : perTurn) {
      total += t.get("completed").asInt() + t.get("failed").asInt();
    }
    assertEquals(received.size(), total, "every turn sent, counted by its turn");
    assertEquals(CONVERSATIONS, perTurn.get(0).get("completed").asInt()
        + perTurn.get(0).get("failed").asInt());
    // a turn's prompt: the earlier messages (16 tokens each) and answers (4 each), then its own
    assertEquals(16.0, perTurn.get(0).get("mean_input_tokens").asDouble(), 1e-9);
    assertEquals(36.0, perTurn.get(1).get("mean_input_tokens").asDouble(), 1e-9);
    assertEquals(56.0, perTurn.get(2).get("mean_input_tokens").asDouble(), 1e-9);
    assertEquals(received.size(), doc.get("completed").asInt() + doc.get("failed").asInt());
  }

  /** Most spans [first turn, last turn] that contain one instant. */
  private static int maxOverlap(List<long[]> spans) {
    int most = 0;
    for (long[] s : spans) {
      int open = 0;
      for (long[] t : spans) {
        if (t[0] <= s[0] && s[0] <= t[1]) {
          open++;
        }
      }
      most = Math.max(most, open);
    }
    return most;
  }
}
