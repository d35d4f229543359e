package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gatling-llm bench serve --backend openai-responses} (vLLM's Rust client's Responses
 * API backend) against the simulator: the requests go to {@code /v1/responses} with the
 * prompt as {@code input}, and the result JSON names the backend and counts the tokens the
 * completed events reported.
 */
@Timeout(120)
class ResponsesDropInIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  @Test
  void aPastedResponsesCommandLineRunsGreen() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1)).jitter(0).recordRequests(true).build())) {
      String args = "--backend openai-responses --model served-llm --tokenizer "
          + "datasets/tokenizers/gpt2 --dataset-name random --random-input-len 32 "
          + "--random-output-len 4 --num-prompts 3 --num-warmups 2 --seed 1 --save-result "
          // vLLM 0.29 skips the ready check by default (timeout 0): ask for it, it is tested
          + "--ready-check-timeout-sec 600 --base-url "
          + sim.baseUrl();
      GatlingRunner.Result result = GatlingRunner.run(BenchServe.class, results,
          Map.of(CommandLine.ARGS_PROPERTY, args, "llm.resultsFolder", results.toString()));
      assertEquals(0, result.exitCode());

      // (the model list is asked for after the warm-up)
      List<RecordedRequest> sent = sim.recordedRequests().stream()
          .filter(r -> !r.path().equals("/v1/models"))
          // the speculative-decoding counters, read before and after the run
          .filter(r -> !r.path().equals("/metrics"))
          // random prompts are re-aligned through /tokenize and /detokenize first
          .filter(r -> !BenchServeIntegrationTest.isTokenizeCall(r.path())).toList();
      // the ready check's test request, the warm-up's probe and its 2 requests (sent only
      // when the probe's Responses stream was read as a success), the run's 3
      assertEquals(1 + 1 + 2 + 3, sent.size());
      int runs = 0;
      for (RecordedRequest r : sent) {
        assertEquals("/v1/responses", r.path());
        JsonNode body = JSON.readTree(r.body());
        assertTrue(body.get("input").isTextual(), r.bodyText());
        assertTrue(body.get("max_output_tokens").asInt() >= 1, r.bodyText());
        runs += body.get("max_output_tokens").asInt() == 4 ? 1 : 0;
        assertTrue(body.get("stream").asBoolean(), r.bodyText());
        assertEquals("served-llm", body.get("model").asText());
        for (String absent : List.of("prompt", "messages", "max_tokens", "stream_options")) {
          assertFalse(body.has(absent), absent + " in " + r.bodyText());
        }
      }

      assertTrue(runs >= 4, "the test request and the run's requests ask 4 tokens: " + runs);

      JsonNode doc;
      try (Stream<Path> files = Files.list(result.runFolder())) {
        List<Path> json = files.filter(p -> p.toString().endsWith(".json")).toList();
        assertEquals(1, json.size(), json.toString());
        assertTrue(json.get(0).getFileName().toString().startsWith("openai-responses-"),
            json.toString());
        doc = JSON.readTree(json.get(0).toFile());
      }
      assertEquals("openai-responses", doc.get("backend").asText());
      assertEquals("openai-responses", doc.get("endpoint_type").asText());
      assertEquals(3, doc.get("completed").asInt());
      assertEquals(0, doc.get("failed").asInt());
      assertEquals(12, doc.get("total_output_tokens").asLong());
      // the dataset's own prompt lengths, as vLLM counts them
      assertEquals(96, doc.get("total_input_tokens").asLong());
      assertTrue(doc.has("mean_ttft_ms") && doc.has("mean_itl_ms"), doc.toString());
    }
  }
}
