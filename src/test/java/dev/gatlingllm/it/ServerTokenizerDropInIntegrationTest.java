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
import dev.gatlingllm.internal.sim.SimTokens;
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
 * The drop-in finds tokenizers as vLLM 0.29 does: random prompts re-aligned through the
 * server's /tokenize, so total_input_tokens is what the server counts, and the server's
 * /tokenize as the tokenizer when the named one cannot be had.
 */
@Timeout(180)
class ServerTokenizerDropInIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  private static Simulator simulator() {
    return Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1)).jitter(0).recordRequests(true).build());
  }

  /** The run folder a forked Gatling wrote under {@code results}: the one with index.html. */
  private static Path forkedRunFolder(Path results) throws IOException {
    try (Stream<Path> folders = Files.list(results)) {
      List<Path> runs = folders.filter(p -> Files.exists(p.resolve("index.html"))).toList();
      assertEquals(1, runs.size(), "one run folder: " + runs);
      return runs.get(0);
    }
  }

  /** The one result JSON at the top of a run folder. */
  private static JsonNode resultJson(Path runFolder) throws IOException {
    try (Stream<Path> files = Files.list(runFolder)) {
      List<Path> json = files.filter(p -> p.toString().endsWith(".json")).toList();
      assertEquals(1, json.size(), "one result JSON: " + json);
      return JSON.readTree(json.get(0).toFile());
    }
  }

  @Test
  void randomPromptsHaveTheServersExactLength() throws Exception {
    try (Simulator sim = simulator()) {
      CapturedBench.Run run = CapturedBench.run(results, "--model served-llm "
          + "--tokenizer datasets/tokenizers/gpt2 "
          + "--dataset-name random --random-input-len 37 --random-output-len 3 "
          + "--num-prompts 9 --request-rate inf --save-result --seed 5 --base-url "
          + sim.baseUrl());
      assertEquals(9, run.json().get("completed").asInt());
      assertEquals(37 * 9, run.json().get("total_input_tokens").asLong());
      // and the server saw exactly that many whitespace words in the prompts it was sent
      long words = sim.recordedRequests().stream()
          .filter(r -> r.path().equals("/v1/completions"))
          .mapToLong(r -> SimTokens.countPromptTokens(prompt(r))).sum();
      assertEquals(37 * 9, words);
      assertFalse(run.console().contains("no usable /tokenize"), run.console());
      assertTrue(run.console().contains("The server answers /tokenize: random prompts are "
          + "re-aligned to its token counts."), run.console());
    }
  }

  @Test
  void aServerWithoutTokenizeKeepsTheLocalLengthsAndSaysSoOnce() throws Exception {
    // answers every path with a completion stream: its /tokenize is no JSON
    try (StubLlmServer stub = new StubLlmServer()) {
      CapturedBench.Run run = CapturedBench.run(results, "--model stub "
          + "--tokenizer datasets/tokenizers/gpt2 --dataset-name random "
          + "--random-input-len 37 --random-output-len 3 --num-prompts 4 --request-rate inf "
          + "--save-result --seed 5 --base-url " + stub.baseUrl());
      assertEquals(37 * 4, run.json().get("total_input_tokens").asLong(), "GPT-2's lengths");
      String said = "The server has no usable /tokenize (";
      assertEquals(1, run.console().split(java.util.regex.Pattern.quote(said), -1).length - 1,
          run.console());
      assertTrue(run.console().contains("random prompts keep the lengths of tokenizer "
          + "datasets/tokenizers/gpt2."), run.console());
    }
  }

  @Test
  void aTokenizerThatCannotBeHadFallsBackToTheServers() throws Exception {
    Path home = Files.createDirectories(results.resolve("hf-home"));
    try (Simulator sim = simulator()) {
      ForkedGatling.Result forked = ForkedGatling.run(BenchServe.class, results,
          Map.of(CommandLine.ARGS_PROPERTY, "--model served-llm --tokenizer acme/not-cached "
              + "--dataset-name random --random-input-len 37 --random-output-len 3 "
              + "--num-prompts 6 --request-rate inf --save-result --seed 5 --base-url "
              + sim.baseUrl()),
          Map.of("HF_HUB_OFFLINE", "1", "HF_HOME", home.toString()),
          results.resolve("console.txt"));
      assertEquals(0, forked.exitCode(), forked.output());
      assertTrue(forked.output().contains("Tokenizer 'acme/not-cached' could not be loaded "
          + "(HF_HUB_OFFLINE is set and"), forked.output());
      assertTrue(forked.output().contains("; counting tokens with the server's /tokenize "
          + "instead."), forked.output());
      JsonNode json = resultJson(forkedRunFolder(results));
      assertEquals(6, json.get("completed").asInt());
      assertEquals(37 * 6, json.get("total_input_tokens").asLong());
      assertEquals("acme/not-cached", json.get("tokenizer_id").asText());
      long words = sim.recordedRequests().stream()
          .filter(r -> r.path().equals("/v1/completions"))
          .mapToLong(r -> SimTokens.countPromptTokens(prompt(r))).sum();
      assertEquals(37 * 6, words);
    }
  }

  @Test
  void aTokenizerThatCannotBeHadAndNoServerTokenizerIsRefusedAsBefore() throws Exception {
    Path home = Files.createDirectories(results.resolve("hf-home"));
    try (StubLlmServer stub = new StubLlmServer()) {
      ForkedGatling.Result forked = ForkedGatling.run(BenchServe.class, results,
          Map.of(CommandLine.ARGS_PROPERTY, "--model stub --tokenizer acme/not-cached "
              + "--dataset-name random --random-input-len 37 --num-prompts 2 --base-url "
              + stub.baseUrl()),
          Map.of("HF_HUB_OFFLINE", "1", "HF_HOME", home.toString()),
          results.resolve("console.txt"));
      assertTrue(forked.exitCode() != 0, forked.output());
      assertTrue(forked.output().contains("cannot load the tokenizer 'acme/not-cached': "
          + "HF_HUB_OFFLINE is set and"), forked.output());
      assertFalse(forked.output().contains("counting tokens with the server's"),
          forked.output());
      // the model check's GET /v1/models asks, and nothing is measured
      assertTrue(stub.requests().stream().map(r -> r.get(":path").get(0))
          .noneMatch(path -> path.startsWith("/v1/") && !path.equals("/v1/models")),
          "nothing measured");
    }
  }

  private static String prompt(RecordedRequest request) {
    try {
      return JSON.readTree(request.body()).get("prompt").asText();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
