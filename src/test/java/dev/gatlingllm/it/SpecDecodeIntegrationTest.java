package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
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
 * The speculative-decoding figures of a run, from the server's counters read before and
 * after it, against a simulator that proposes 3 tokens a draft and accepts the first 2. Each
 * request writes 9 tokens: the first from the prefill, then drafts of 3 tokens, 3 and 2 (the
 * last cut short), so 3 drafts, 9 proposed tokens and 2 + 2 + 1 = 5 accepted, at positions
 * 0, 0, 0 / 1, 1. Over 10 requests: 30 drafts, 90 proposed, 50 accepted; rate 50 / 90 =
 * 55.56 %, length 1 + 50 / 30 = 2.667, per position 30 / 30, 20 / 30, 0 / 30.
 */
@Timeout(180)
class SpecDecodeIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  private JsonNode run(Simulator sim, String backend) throws IOException {
    return run("--base-url " + sim.baseUrl(), backend);
  }

  private JsonNode run(String baseUrls, String backend) throws IOException {
    String args = "--backend " + backend + " --model served-llm "
        + "--tokenizer datasets/tokenizers/gpt2 --dataset-name random --random-input-len 16 "
        + "--random-output-len 9 --ignore-eos --num-prompts 10 --request-rate inf --seed 1 "
        + "--save-result " + baseUrls;
    GatlingRunner.Result result = GatlingRunner.run(BenchServe.class, results,
        Map.of(CommandLine.ARGS_PROPERTY, args, "llm.resultsFolder", results.toString()));
    assertEquals(0, result.exitCode());
    try (Stream<Path> files = Files.list(result.runFolder())) {
      List<Path> json = files.filter(p -> p.toString().endsWith(".json")
          && !p.toString().endsWith(".pytorch.json")).toList();
      assertEquals(1, json.size(), json.toString());
      return JSON.readTree(json.get(0).toFile());
    }
  }

  @Test
  void theRunsDraftsAreCountedFromTheServersCounters() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(5)).jitter(0).specDecode(3, 2).build())) {
      // the openai backend: vLLM reads the counters whatever the backend
      JsonNode doc = run(sim, "openai");
      assertEquals(10, doc.get("completed").asInt());
      assertEquals(30, doc.get("spec_decode_num_drafts").asLong(), doc.toString());
      assertEquals(90, doc.get("spec_decode_draft_tokens").asLong());
      assertEquals(50, doc.get("spec_decode_accepted_tokens").asLong());
      assertEquals(100.0 * 50 / 90, doc.get("spec_decode_acceptance_rate").asDouble(), 1e-9);
      assertEquals(1 + 50.0 / 30, doc.get("spec_decode_acceptance_length").asDouble(), 1e-9);
      JsonNode perPos = doc.get("spec_decode_per_position_acceptance_rates");
      assertEquals(3, perPos.size(), perPos.toString());
      assertEquals(1.0, perPos.get(0).asDouble(), 1e-9);
      assertEquals(20.0 / 30, perPos.get(1).asDouble(), 1e-9);
      assertEquals(0.0, perPos.get(2).asDouble(), 1e-9);
      // where vLLM writes them: after the peak figures, before the distributions
      List<String> keys = new java.util.ArrayList<>();
      doc.fieldNames().forEachRemaining(keys::add);
      assertEquals(keys.indexOf("max_concurrent_requests") + 1,
          keys.indexOf("spec_decode_acceptance_rate"), keys.toString());
      assertEquals(keys.indexOf("spec_decode_per_position_acceptance_rates") + 1,
          keys.indexOf("mean_ttft_ms"), keys.toString());
    }
  }

  @Test
  void theCountersOfEveryReplicaAreSummed() throws IOException {
    try (Simulator a = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(5)).jitter(0).specDecode(3, 2).build());
        Simulator b = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(20))
            .itl(Duration.ofMillis(5)).jitter(0).specDecode(3, 2).build())) {
      JsonNode doc = run("--base-url " + a.baseUrl() + " --base-url " + b.baseUrl(), "openai");
      // five requests each (round-robin): 15 drafts and 45 tokens proposed at each replica
      assertEquals(5, doc.get("per_url").get(0).get("completed").asInt(),
          doc.get("per_url").toString());
      assertEquals(5, doc.get("per_url").get(1).get("completed").asInt());
      assertEquals(30, doc.get("spec_decode_num_drafts").asLong(), doc.toString());
      assertEquals(90, doc.get("spec_decode_draft_tokens").asLong());
      assertEquals(50, doc.get("spec_decode_accepted_tokens").asLong());
      assertEquals(20.0 / 30, doc.get("spec_decode_per_position_acceptance_rates").get(1)
          .asDouble(), 1e-9);
    }
  }

  @Test
  void aServerWithoutSpeculativeDecodingGivesNoSuchKey() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(5)).jitter(0).build())) {
      JsonNode doc = run(sim, "vllm");
      assertEquals(10, doc.get("completed").asInt());
      assertFalse(doc.has("spec_decode_acceptance_rate"), doc.toString());
    }
  }
}
