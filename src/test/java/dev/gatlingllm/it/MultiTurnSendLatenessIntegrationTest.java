package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The self-check's send lateness of a {@code --multi-turn} run is the client's own: a
 * conversation that arrives while {@code --multi-turn-concurrency} places are all taken waits
 * for one, and that wait is the cap the run asked for, not the client being late. Before the
 * fix, the first turn's lateness counted from its arrival: one place and six conversations
 * arriving 10 ms apart, each holding its place about 80 ms, gave a median "send lateness" of
 * over 100 ms.
 */
@Timeout(120)
class MultiTurnSendLatenessIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  @Test
  void theWaitForAConversationsPlaceIsNotSendLateness() throws Exception {
    GatlingRunner.Result result;
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(10)).itl(Duration.ofMillis(2)).model("lateness-model")
        .build())) {
      String args = "--backend openai-chat --base-url " + simulator.baseUrl()
          + " --model lateness-model --tokenizer datasets/tokenizers/gpt2"
          + " --dataset-name random --multi-turn --multi-turn-num-turns 2"
          + " --per-turn-input-len 8 --random-output-len 4 --num-prompts 6"
          + " --multi-turn-concurrency 1 --multi-turn-delay-ms 50 --request-rate 100"
          + " --seed 1 --save-result --disable-tqdm";
      result = GatlingRunner.run(MultiTurnBenchServe.class, results, Map.of(
          CommandLine.ARGS_PROPERTY, args, "llm.resultsFolder", results.toString()));
    }
    assertEquals(0, result.exitCode());
    // the conversations did wait for their place: the last first turn went out long after
    // its arrival (6 arrivals within 50 ms, each conversation ~80 ms long)
    long firstTurnsWaitedMs = GatlingRunner.captured().stream()
        .filter(r -> r.turn() == 1).mapToLong(RequestRecord::waitNanos).max().orElse(0)
        / 1_000_000;
    assertTrue(firstTurnsWaitedMs >= 200, "a conversation waited " + firstTurnsWaitedMs + " ms");

    JsonNode check;
    try (Stream<Path> files = Files.list(result.runFolder())) {
      Path json = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
      check = JSON.readTree(json.toFile()).get("client_self_check");
    }
    assertEquals(6, check.get("send_lateness_samples").asInt(), check.toString());
    // the client's own delay: timer and loop, a few ms on a busy machine, not the place's wait
    assertTrue(check.get("median_send_lateness_ms").asDouble() < 20, check.toString());
    assertTrue(check.get("max_send_lateness_ms").asDouble() < firstTurnsWaitedMs / 2.0,
        check.toString());
  }
}
