package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.StrictServer;
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
 * {@code gatling-llm bench serve --backend anthropic-messages} against the strict simulator
 * serving {@code served-llm} with two reasoning tokens: the requests go to
 * {@code /v1/messages} in the Messages API's shape with its headers, and the result JSON
 * counts the output tokens {@code message_delta} reported, times TTFT from the first thinking
 * delta and the time to the first answer chunk (TTFC) from the first text delta, and keeps the
 * thinking out of the answer text.
 */
@Timeout(120)
class MessagesDropInIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  @Test
  void aMessagesRunCountsThinkingApartFromTheAnswer() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(2)).jitter(0).reasoningTokens(2).recordRequests(true).build())) {
      String args = "--backend anthropic-messages --model served-llm --tokenizer "
          + "datasets/tokenizers/gpt2 --dataset-name random --random-input-len 32 "
          + "--random-output-len 4 --num-prompts 3 --seed 1 --save-result --save-detailed "
          // the key as OPENAI_API_KEY or --header gives it: also sent as x-api-key
          + "--header 'Authorization=Bearer sk-test' "
          + "--ready-check-timeout-sec 600 --base-url " + sim.baseUrl();
      GatlingRunner.Result result = GatlingRunner.run(BenchServe.class, results,
          Map.of(CommandLine.ARGS_PROPERTY, args, "llm.resultsFolder", results.toString()));
      assertEquals(0, result.exitCode());

      List<RecordedRequest> sent = StrictServer.runRequests(sim).stream()
          .filter(r -> !BenchServeIntegrationTest.isTokenizeCall(r.path())).toList();
      assertFalse(sent.isEmpty());
      int runs = 0;
      for (RecordedRequest r : sent) {
        assertEquals("/v1/messages", r.path());
        JsonNode body = JSON.readTree(r.body());
        assertEquals("served-llm", body.get("model").asText());
        assertTrue(body.get("messages").isArray(), r.bodyText());
        assertEquals("user", body.get("messages").get(0).get("role").asText(), r.bodyText());
        assertTrue(body.get("max_tokens").asInt() >= 1, r.bodyText());
        assertTrue(body.get("stream").asBoolean(), r.bodyText());
        runs += body.get("max_tokens").asInt() == 4 ? 1 : 0;
        // vLLM forces ignore_eos on for the random dataset; the Messages API has no such field
        for (String absent : List.of("prompt", "input", "max_completion_tokens",
            "stream_options", "ignore_eos")) {
          assertFalse(body.has(absent), absent + " in " + r.bodyText());
        }
        assertEquals("2023-06-01", r.header("anthropic-version"));
        assertEquals("sk-test", r.header("x-api-key"));
        assertEquals("Bearer sk-test", r.header("authorization"));
      }
      // the ready check's test request and the run's 3 ask 4 tokens
      assertEquals(4, runs, "requests asking 4 tokens");

      JsonNode doc;
      try (Stream<Path> files = Files.list(result.runFolder())) {
        List<Path> json = files.filter(p -> p.toString().endsWith(".json")).toList();
        assertEquals(1, json.size(), json.toString());
        assertTrue(json.get(0).getFileName().toString().startsWith("anthropic-messages-"),
            json.toString());
        doc = JSON.readTree(json.get(0).toFile());
      }
      assertEquals("anthropic-messages", doc.get("backend").asText());
      assertEquals("anthropic-messages", doc.get("endpoint_type").asText());
      assertEquals(3, doc.get("completed").asInt());
      assertEquals(0, doc.get("failed").asInt());
      // 4 tokens each, from message_delta's usage
      assertEquals(12, doc.get("total_output_tokens").asLong());
      assertTrue(doc.has("mean_ttft_ms") && doc.has("mean_itl_ms"), doc.toString());
      // the time to the first answer chunk is written only when reasoning came first
      assertTrue(doc.has("mean_ttfc_ms"), doc.toString());
      assertTrue(doc.get("mean_ttfc_ms").asDouble() >= doc.get("mean_ttft_ms").asDouble(),
          doc.toString());
      for (int i = 0; i < 3; i++) {
        // tokens 2 and 3 are the answer; tokens 0 and 1 were thinking
        assertEquals(" two three", doc.get("generated_texts").get(i).asText());
        assertEquals(4, doc.get("output_lens").get(i).asInt());
        // 4 chunks (2 thinking, 2 text): 3 ITLs
        assertEquals(3, doc.get("itls").get(i).size(), doc.get("itls").toString());
      }
    }
  }
}
