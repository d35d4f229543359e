package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.report.Merge;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.internal.scale.InjectorFacts;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conversations on two injector JVMs against one simulator, then merged: each conversation
 * stays on one injector (all its turns, checked against the simulator's log of sessions), the
 * injectors split the conversations half and half, every request id is unique, and the merged
 * result has the exact per-turn counts and prompt lengths of the whole benchmark.
 */
@Timeout(300)
class ConversationScaleOutIntegrationTest {

  private static final JsonMapper JSON = new JsonMapper();

  @TempDir
  Path work;

  @Test
  void eachConversationStaysOnOneInjectorAndTheMergeKeepsPerTurnFigures() throws Exception {
    List<RecordedRequest> received;
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(10))
        .itl(Duration.ofMillis(2)).recordRequests(true).build())) {
      Path barrier = work.resolve("barrier");
      Path project = Files.createDirectories(work.resolve("project"));
      List<CompletableFuture<ForkedGatling.Result>> injectors = new ArrayList<>();
      for (int k = 0; k < 2; k++) {
        Map<String, String> mine = new HashMap<>();
        mine.put(ConversationScaleOutItSimulation.BASE_URL, sim.baseUrl());
        mine.put("llm.injector", k + "/2");
        mine.put("llm.startBarrier", barrier.toString());
        mine.put("llm.clockOffset", "local");
        Path output = work.resolve("injector-" + k + ".out");
        injectors.add(CompletableFuture.supplyAsync(() -> {
          try {
            return ForkedGatling.run(ConversationScaleOutItSimulation.class,
                Path.of("target", "gatling"), mine, Map.of(), output, project, null);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }));
      }
      for (CompletableFuture<ForkedGatling.Result> injector : injectors) {
        ForkedGatling.Result r = injector.get();
        assertEquals(0, r.exitCode(), r.output());
      }
      received = sim.recordedRequests();
    }
    List<Path> logs;
    try (Stream<Path> files = Files.walk(work.resolve("project"))) {
      logs = files.filter(p -> p.getFileName().toString().equals(RecordLog.FILE_NAME)).sorted()
          .toList();
    }
    assertEquals(2, logs.size(), logs.toString());

    // request id -> the injector that sent it
    Map<String, Integer> injectorOf = new HashMap<>();
    for (Path log : logs) {
      RecordLogReader.Contents c = RecordLogReader.read(log);
      int index = InjectorFacts.fromJson((Map<?, ?>) c.settings().run().extras().get("injector"))
          .share().index();
      for (RequestRecord r : c.records()) {
        assertEquals(null, injectorOf.put(r.requestId(), index),
            "request ids are unique over the injectors: " + r.requestId());
      }
    }
    int turns = ConversationScaleOutItSimulation.CONVERSATIONS
        * ConversationScaleOutItSimulation.TURNS;
    assertEquals(turns, injectorOf.size());
    Map<String, Set<Integer>> injectorsOfSession = new HashMap<>();
    for (RecordedRequest r : received) {
      String session = r.header("X-Session-ID");
      if (session == null || r.header("x-request-id").startsWith("warmup-")) {
        continue; // the warm-up's requests (a rehearsed turn has a session of its own)
      }
      Integer injector = injectorOf.get(r.header("x-request-id"));
      assertNotNull(injector, "a record of every turn: " + r.header("x-request-id"));
      injectorsOfSession.computeIfAbsent(session, s -> new HashSet<>()).add(injector);
    }
    assertEquals(ConversationScaleOutItSimulation.CONVERSATIONS, injectorsOfSession.size());
    int[] perInjector = new int[2];
    injectorsOfSession.forEach((session, on) -> {
      assertEquals(1, on.size(), session + " ran on injectors " + on);
      perInjector[on.iterator().next()]++;
    });
    assertEquals(6, perInjector[0], "half of the conversations on injector 0");
    assertEquals(6, perInjector[1], "half of the conversations on injector 1");

    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    Merge.Merged merged = Merge.merge(logs, work.resolve("merged"), false, null, quiet);
    assertTrue(merged.outcome().ok());
    JsonNode doc = JSON.readTree(merged.outcome().resultFile().toFile());
    assertEquals(turns, doc.get("completed").asInt());
    assertEquals(ConversationScaleOutItSimulation.CONVERSATIONS, doc.get("num_prompts").asInt(),
        "the benchmark's conversations, not a share");
    JsonNode perTurn = doc.get("per_turn_metrics");
    assertNotNull(perTurn, doc.toString());
    assertEquals(ConversationScaleOutItSimulation.TURNS, perTurn.size());
    int in = ConversationScaleOutItSimulation.PER_TURN_INPUT;
    int out = ConversationScaleOutItSimulation.OUTPUT;
    for (int k = 0; k < perTurn.size(); k++) {
      JsonNode t = perTurn.get(k);
      assertEquals(k + 1, t.get("turn").asInt());
      assertEquals(ConversationScaleOutItSimulation.CONVERSATIONS, t.get("completed").asInt());
      assertEquals((k + 1) * in + k * out, t.get("mean_input_tokens").asDouble(), 1e-9,
          "turn " + (k + 1) + ": its messages and the answers before it");
    }
  }
}
