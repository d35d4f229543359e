package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One small Gatling run per backend family against the simulator: the result JSON has vLLM's
 * file name and the metric set of the backend (the reduced one for pooling), and a reasoning
 * run adds the TTFC keys.
 */
@Timeout(120)
class BackendsIntegrationTest {

  @TempDir
  Path results;

  private JsonNode run(String kind, SimulatorConfig.Builder config, String fileLabel)
      throws IOException {
    try (Simulator sim = Simulator.start(config.ttft(Duration.ofMillis(10))
        .itl(Duration.ofMillis(3)).build())) {
      GatlingRunner.Result result = GatlingRunner.run(BackendsItSimulation.class, results,
          Map.of(BackendsItSimulation.BASE_URL, sim.baseUrl(), BackendsItSimulation.KIND, kind,
              "llm.resultsFolder", results.toString()));
      assertEquals(0, result.exitCode(), "every request succeeds");
      try (Stream<Path> files = Files.list(result.runFolder())) {
        List<Path> json = files.filter(p -> p.toString().endsWith(".json")).toList();
        assertEquals(1, json.size(), json.toString());
        String name = json.get(0).getFileName().toString();
        assertTrue(name.matches(fileLabel + "-infqps-served-llm-\\d{8}-\\d{6}\\.json"), name);
        return new ObjectMapper().readTree(json.get(0).toFile());
      }
    }
  }

  private static List<String> keys(JsonNode doc) {
    List<String> keys = new ArrayList<>();
    for (Iterator<String> it = doc.fieldNames(); it.hasNext(); ) {
      keys.add(it.next());
    }
    return keys;
  }

  /** vLLM's pooling result: no output tokens, goodput, peaks, TTFT, TPOT or ITL. */
  private static void assertPoolingKeys(JsonNode doc) {
    List<String> keys = keys(doc);
    for (String absent : List.of("total_output_tokens", "request_goodput", "output_throughput",
        "max_output_tokens_per_s", "max_concurrent_requests", "mean_ttft_ms", "mean_tpot_ms",
        "mean_itl_ms")) {
      assertFalse(keys.contains(absent), absent + " in " + keys);
    }
    int e2el = keys.indexOf("mean_e2el_ms");
    assertEquals(List.of("mean_e2el_ms", "median_e2el_ms", "std_e2el_ms", "p50_e2el_ms",
        "p99_e2el_ms"), keys.subList(e2el, e2el + 5));
    assertEquals(BackendsItSimulation.USERS, doc.get("completed").asInt());
    assertTrue(doc.get("mean_e2el_ms").asDouble() >= 10, "at least the simulator's 10 ms");
  }

  @Test
  void embeddingsRunReportsThePoolingMetricSetWithTheServersInputCounts() throws IOException {
    JsonNode doc = run("embeddings", StrictServer.builder(), "openai-embeddings-chat");
    assertPoolingKeys(doc);
    assertEquals("openai-embeddings-chat", doc.get("endpoint_type").asText());
    // "text number N" is 3 simulator tokens and the image counts one: 4 per request
    assertEquals(4L * BackendsItSimulation.USERS, doc.get("total_input_tokens").asLong());
  }

  @Test
  void rerankRunReportsThePoolingMetricSet() throws IOException {
    JsonNode doc = run("rerank", StrictServer.builder(), "vllm-rerank");
    assertPoolingKeys(doc);
    // (3 query tokens + 2 document tokens) for each of 3 documents
    assertEquals(15L * BackendsItSimulation.USERS, doc.get("total_input_tokens").asLong());
  }

  @Test
  void audioRunIsAGenerationRunWithStreamedTokens() throws IOException {
    JsonNode doc = run("audio", StrictServer.builder(), "openai-audio");
    assertEquals(BackendsItSimulation.USERS, doc.get("completed").asInt());
    assertEquals(5L * BackendsItSimulation.USERS, doc.get("total_output_tokens").asLong());
    assertTrue(doc.has("mean_ttft_ms") && doc.has("mean_itl_ms"), keys(doc).toString());
    assertFalse(doc.has("mean_ttfc_ms"), "no reasoning, no TTFC");
  }

  @Test
  void reasoningRunAddsTtfcAfterVllmsKeysAndPrintsIt() throws IOException {
    PrintStream out = System.out;
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    JsonNode doc;
    System.setOut(new PrintStream(console, true));
    try {
      doc = run("reasoning", StrictServer.builder().reasoningTokens(3), "openai-chat");
      dev.gatlingllm.internal.protocol.RunResultsAccess.printPendingSummary();
    } finally {
      System.setOut(out);
    }
    List<String> keys = keys(doc);
    int ttfc = keys.indexOf("mean_ttfc_ms");
    assertEquals(List.of("mean_ttfc_ms", "median_ttfc_ms", "std_ttfc_ms", "p50_ttfc_ms",
        "p99_ttfc_ms"), keys.subList(ttfc, ttfc + 5));
    assertTrue(ttfc > keys.indexOf("p99_e2el_ms"), "after vLLM's own keys: " + keys);
    // the answer comes after the 3 reasoning tokens (their exact spacing is checked by
    // ReasoningStreamTest, on a quieter single request)
    assertTrue(doc.get("median_ttfc_ms").asDouble() > doc.get("median_ttft_ms").asDouble() + 2,
        doc.toString());
    assertEquals(6L * BackendsItSimulation.USERS, doc.get("total_output_tokens").asLong(),
        "reasoning tokens are output tokens");
    String text = console.toString();
    assertTrue(text.contains("Time to First Content Token") && text.contains("Mean TTFC (ms):"),
        text);
  }

  /**
   * Responses with 5 output tokens sent 2 per delta (3 deltas): the output count can only come
   * from the completed event's usage; the input count is the simulator's 5 words of input plus
   * 2 of instructions.
   */
  @Test
  void responsesRunTakesItsTokenCountsFromTheCompletedEvent() throws IOException {
    PrintStream out = System.out;
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    JsonNode doc;
    System.setOut(new PrintStream(console, true));
    try {
      doc = run("responses", StrictServer.builder().tokensPerChunk(2), "openai-responses");
      dev.gatlingllm.internal.protocol.RunResultsAccess.printPendingSummary();
    } finally {
      System.setOut(out);
    }
    assertEquals("openai-responses", doc.get("backend").asText());
    assertEquals("openai-responses", doc.get("endpoint_type").asText());
    assertEquals(BackendsItSimulation.USERS, doc.get("completed").asInt());
    assertEquals(5L * BackendsItSimulation.USERS, doc.get("total_output_tokens").asLong());
    assertEquals(7L * BackendsItSimulation.USERS, doc.get("total_input_tokens").asLong());
    assertTrue(doc.get("mean_ttft_ms").asDouble() >= 10, "at least the simulator's 10 ms");
    // timed from the deltas (their exact spacing: ResponsesEventsTest, on hand-built times)
    assertTrue(doc.get("mean_itl_ms").asDouble() > 0 && doc.get("mean_tpot_ms").asDouble() > 0,
        doc.toString());
    String text = console.toString();
    assertTrue(Pattern.compile("Total generated tokens:\\s+" + 5 * BackendsItSimulation.USERS
        + "\\s").matcher(text).find(), text);
  }

  @Test
  void randomMmRunSendsItsImagesThroughChat() throws IOException {
    JsonNode doc = run("random-mm", StrictServer.builder(), "openai-chat");
    assertEquals(BackendsItSimulation.USERS, doc.get("completed").asInt());
    assertEquals(12L * BackendsItSimulation.USERS, doc.get("total_input_tokens").asLong(),
        "the dataset's text length");
    assertEquals(3L * BackendsItSimulation.USERS, doc.get("total_output_tokens").asLong());
  }

  @Test
  void randomRerankRunIsAPoolingRun() throws IOException {
    JsonNode doc = run("random-rerank", StrictServer.builder(), "vllm-rerank");
    assertPoolingKeys(doc);
  }
}
