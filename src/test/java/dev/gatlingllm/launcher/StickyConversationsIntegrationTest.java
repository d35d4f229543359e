package dev.gatlingllm.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.StrictServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gatling-llm bench serve --multi-turn} with {@code --base-url} twice: every turn of a
 * conversation goes to the server that answered its first turn (whose prefix cache holds the
 * history, as vLLM's is per replica), counted per server and per conversation from what each
 * simulator received; the conversations themselves are spread by the strategy, and the
 * result's {@code per_url} counts each server's turns. Single requests still spread
 * ({@code ReplicasIntegrationTest}).
 */
@Timeout(300)
class StickyConversationsIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int CONVERSATIONS = 8;
  private static final int TURNS = 3;

  @TempDir
  Path dir;

  private static Simulator sim() {
    return Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1)).jitter(0).recordRequests(true).build());
  }

  /** Runs a multi-turn bench serve over both servers with {@code strategy}; the run folder. */
  private Path run(Simulator a, Simulator b, String strategy) throws Exception {
    return BenchServeInProcess.run(dir.resolve(strategy), List.of("bench", "serve",
        "--backend", "openai-chat", "--model", "served-llm", "--tokenizer", "gpt2",
        "--base-url", a.baseUrl(), "--base-url", b.baseUrl(), "--base-url-strategy", strategy,
        "--dataset-name", "random", "--multi-turn", "--multi-turn-num-turns",
        Integer.toString(TURNS), "--per-turn-input-len", "16", "--random-output-len", "4",
        "--num-prompts", Integer.toString(CONVERSATIONS), "--multi-turn-concurrency", "4",
        "--request-rate", "inf", "--seed", "1", "--save-result", "--result-filename",
        "result.json"));
  }

  /** Turns a server received, by conversation (its {@code X-Session-ID}). */
  private static Map<String, Integer> turnsBySession(Simulator sim) {
    Map<String, Integer> turns = new TreeMap<>();
    for (RecordedRequest r : StrictServer.runRequests(sim)) {
      if (r.path().equals("/v1/chat/completions")) {
        String session = r.header("X-Session-ID");
        assertNotNull(session, "every request is a turn: " + r.bodyText());
        turns.merge(session, 1, Integer::sum);
      }
    }
    return turns;
  }

  /**
   * Checks that no conversation met both servers and each sent all its turns; returns how many
   * conversations each server had.
   */
  private static int[] conversationsPerServer(Simulator a, Simulator b) {
    Map<String, Integer> onA = turnsBySession(a);
    Map<String, Integer> onB = turnsBySession(b);
    for (String session : onA.keySet()) {
      assertEquals(null, onB.get(session), session + " went to both servers: " + onA + onB);
    }
    Map<String, Integer> all = new HashMap<>(onA);
    all.putAll(onB);
    assertEquals(CONVERSATIONS, all.size(), all.toString());
    all.forEach((session, turns) -> assertEquals(TURNS, turns, session + "'s turns"));
    return new int[] {onA.size(), onB.size()};
  }

  @Test
  void roundRobinPlacesConversationsInTurnAndEachStaysOnItsServer() throws Exception {
    try (Simulator a = sim(); Simulator b = sim()) {
      Path run = run(a, b, "round-robin");
      // the first turns alternate (the later ones do not move round-robin's turn): 4 and 4
      int[] perServer = conversationsPerServer(a, b);
      assertEquals(4, perServer[0]);
      assertEquals(4, perServer[1]);
      JsonNode doc = JSON.readTree(run.resolve("result.json").toFile());
      assertEquals(CONVERSATIONS * TURNS, doc.get("completed").asInt());
      JsonNode perUrl = doc.get("per_url");
      assertEquals(a.baseUrl(), perUrl.get(0).get("url").asText());
      assertEquals(4 * TURNS, perUrl.get(0).get("completed").asInt(), perUrl.toString());
      assertEquals(4 * TURNS, perUrl.get(1).get("completed").asInt(), perUrl.toString());
      // the record log: every turn of a conversation says the server of its first turn
      Map<String, Integer> firstTurnTarget = new HashMap<>();
      List<RequestRecord> later = new ArrayList<>();
      for (RequestRecord r : RecordLogReader.read(run.resolve(RecordLog.FILE_NAME)).records()) {
        if (r.turn() == 1) {
          firstTurnTarget.put(r.requestId(), r.target());
        } else {
          later.add(r);
        }
      }
      assertEquals(CONVERSATIONS, firstTurnTarget.size());
      assertEquals(CONVERSATIONS * (TURNS - 1), later.size());
      for (RequestRecord r : later) {
        String first = r.requestId().substring(0, r.requestId().lastIndexOf("-turn"));
        assertEquals(firstTurnTarget.get(first), r.target(), r.requestId());
      }
    }
  }

  @Test
  void leastInFlightKeepsEachConversationOnOneServerToo() throws Exception {
    try (Simulator a = sim(); Simulator b = sim()) {
      Path run = run(a, b, "least-in-flight");
      int[] perServer = conversationsPerServer(a, b);
      JsonNode perUrl = JSON.readTree(run.resolve("result.json").toFile()).get("per_url");
      // each server's turns are its conversations' turns, whichever way they were placed
      assertEquals(perServer[0] * TURNS, perUrl.get(0).get("completed").asInt(),
          perUrl.toString());
      assertEquals(perServer[1] * TURNS, perUrl.get(1).get("completed").asInt(),
          perUrl.toString());
    }
  }
}
