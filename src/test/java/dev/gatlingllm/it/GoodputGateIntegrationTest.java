package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.testing.Disturbance;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code <name> goodput} rows that gate a build and the result JSON's goodput count
 * output tokens by one rule, also when the server sends no usage.
 */
@Timeout(120)
class GoodputGateIntegrationTest {

  @TempDir
  Path results;

  @Test
  void withoutUsageTheGateAndTheJsonCountTheSameTokens() throws Exception {
    // 4 tokens per chunk and no usage: a 5-8 token answer is 2 chunks 50 ms apart. Counted in
    // tokens its TPOT is at most 50 / 4 = 12.5 ms, counted in chunks it is 50 ms. The margin
    // to the 30 ms SLO allows for Nagle's algorithm on the stub's side (up to ~40 ms more),
    // not for a starved machine (seen in CI on a loaded host: 2 of 30 rows over the SLO), so a
    // try during which the machine's CPU was measured contended is run again (bounded).
    Disturbance.retryWhenDisturbed(3, 50, this::oneRun);
  }

  private void oneRun() throws IOException {
    try (StubLlmServer server = new StubLlmServer(Duration.ofMillis(20), Duration.ofMillis(50),
        4)) {
      GatlingRunner.Result result = GatlingRunner.run(ResultsItSimulation.class, results, Map.of(
          ResultsItSimulation.BASE_URL, server.baseUrl(),
          ResultsItSimulation.GOODPUT, "tpot:30",
          ResultsItSimulation.MIN_GOODPUT_PERCENT, "100",
          "llm.resultsFolder", results.toString()));

      assertEquals(0, result.exitCode(), "every goodput row is OK: the gate counted tokens");
      JsonNode doc;
      try (Stream<Path> files = Files.list(result.runFolder())) {
        doc = new ObjectMapper().readTree(files
            .filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow().toFile());
      }
      assertEquals(30, doc.get("completed").asInt());
      assertEquals(30, Math.round(doc.get("request_goodput").asDouble()
          * doc.get("duration").asDouble()), "the JSON counts every request good too");
      int tokens = 0;
      for (JsonNode n : doc.get("output_lens")) {
        tokens += n.asInt();
      }
      assertEquals(30 * 6, tokens, "4..8 tokens each, counted from the text by GPT-2");
      assertEquals("gpt2", doc.get("tokenizer_id").asText());
    }
  }
}
