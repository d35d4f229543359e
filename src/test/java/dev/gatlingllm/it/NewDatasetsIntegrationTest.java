package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The datasets of the newest {@code vllm bench serve}, each group as a pasted command line run
 * through the drop-in against the embedded simulator: every request of the shipped sample is
 * sent once and the result counts the tokens the dataset says.
 */
@Timeout(120)
class NewDatasetsIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String COMMON = "--model served-llm --tokenizer datasets/tokenizers/gpt2 "
      + "--save-result --seed 1 ";

  @TempDir
  static Path results;

  private static JsonNode bench(String args) throws IOException {
    GatlingRunner.Result run = GatlingRunner.run(BenchServe.class, results,
        Map.of(CommandLine.ARGS_PROPERTY, args, "llm.resultsFolder", results.toString()));
    assertEquals(0, run.exitCode(), args);
    try (Stream<Path> files = Files.list(run.runFolder())) {
      List<Path> json = files.filter(p -> p.toString().endsWith(".json")).toList();
      assertEquals(1, json.size(), "one result JSON: " + json);
      return JSON.readTree(json.get(0).toFile());
    }
  }

  private static Simulator recordingSimulator() {
    return Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(2))
        .itl(Duration.ofMillis(1)).jitter(0).recordRequests(true).build());
  }

  @Test
  void aMooncakeTraceIsSentWithItsLengthsAndSharedPrefixes() throws IOException {
    try (Simulator sim = recordingSimulator()) {
      JsonNode doc = bench(COMMON + "--dataset-name timed_trace --dataset-path "
          + "datasets/timed_trace/mooncake_sample.jsonl --timed-trace-sec-multiplier 0.001 "
          + "--base-url " + sim.baseUrl());
      assertEquals(10, doc.get("completed").asInt());
      assertEquals(0, doc.get("failed").asInt());
      // the sample's input_length column: 40+56+33+48+20+64+17+40+16+44
      assertEquals(378, doc.get("total_input_tokens").asLong());
      // its output_length column: 8+6+4+8+5+7+3+6+4+8 (the simulator sends max_tokens)
      assertEquals(59, doc.get("total_output_tokens").asLong());
      // the ready check sends the first prompt again: ten distinct prompts
      List<String> prompts = StrictServer.runRequests(sim).stream()
          .map(NewDatasetsIntegrationTest::prompt).distinct().toList();
      assertEquals(10, prompts.size());
      // strict prefixes of another prompt: lines 0 (40 tokens) and 9 (44) of line 3 (48),
      // all three hash ids [0, 1, 2]; line 1 (56) of line 5 (64), both [0, 1, 3, 4]
      long prefixes = prompts.stream().filter(p -> prompts.stream()
          .anyMatch(q -> q.length() > p.length() && q.startsWith(p))).count();
      assertEquals(3, prefixes, String.join("\n", prompts));
    }
  }

  @Test
  void speedBenchSendsItsSubsetToTheChatEndpoint() throws IOException {
    try (Simulator sim = recordingSimulator()) {
      JsonNode doc = bench(COMMON + "--backend openai-chat --dataset-name speed_bench "
          + "--dataset-path datasets/speed_bench --speed-bench-dataset-subset throughput_1k "
          + "--speed-bench-output-len 5 --num-prompts 3 --base-url " + sim.baseUrl());
      assertEquals(3, doc.get("completed").asInt());
      assertEquals(15, doc.get("total_output_tokens").asLong(), "3 requests of 5 tokens");
      assertTrue(StrictServer.runRequests(sim).stream().allMatch(
          r -> r.path().equals("/v1/chat/completions")));
    }
  }

  @Test
  void txtSlicesSendsPiecesOfTheFileAtTheRandomLengths() throws IOException {
    try (Simulator sim = recordingSimulator()) {
      JsonNode doc = bench(COMMON + "--dataset-name txt-slices --dataset-path "
          + "datasets/sonnet/sonnet.txt --random-input-len 30 --random-output-len 4 "
          + "--num-prompts 6 --base-url " + sim.baseUrl());
      assertEquals(6, doc.get("completed").asInt());
      assertEquals(24, doc.get("total_output_tokens").asLong(), "6 requests of 4 tokens");
      String sonnet = Files.readString(Path.of("datasets/sonnet/sonnet.txt"));
      long pieces = StrictServer.runRequests(sim).stream().map(NewDatasetsIntegrationTest::prompt)
          .filter(sonnet::contains).count();
      assertTrue(pieces >= 6, pieces + " requests sent a piece of the file");
    }
  }

  @Test
  void gsm8kAndHumanEvalFilesRunAsHfDatasets() throws IOException {
    try (Simulator sim = recordingSimulator()) {
      JsonNode gsm8k = bench(COMMON + "--dataset-name hf --dataset-path "
          + "datasets/hf/gsm8k_sample.jsonl --hf-name openai/gsm8k --num-prompts 4 "
          + "--no-oversample --base-url " + sim.baseUrl());
      assertEquals(4, gsm8k.get("completed").asInt());
      // the answers' GPT-2 tokens: 4 + 7 + 4 + 4 (HfCodeAndMathTest)
      assertEquals(19, gsm8k.get("total_output_tokens").asLong());
      JsonNode humanEval = bench(COMMON + "--dataset-name hf --dataset-path "
          + "datasets/hf/humaneval_sample.jsonl --num-prompts 3 --no-oversample --base-url "
          + sim.baseUrl());
      assertEquals(3, humanEval.get("completed").asInt());
      assertEquals(12, humanEval.get("total_output_tokens").asLong(), "4 + 6 + 2");
    }
  }

  @Test
  void customImageAndAudioPartsReachTheChatEndpoint() throws IOException {
    try (Simulator sim = recordingSimulator()) {
      JsonNode images = bench(COMMON + "--backend openai-chat --dataset-name custom_image "
          + "--dataset-path datasets/custom_media/custom_image_sample.jsonl "
          + "--custom-ensure-client-side-data --custom-output-len 3 --num-prompts 3 "
          + "--base-url " + sim.baseUrl());
      assertEquals(3, images.get("completed").asInt());
      JsonNode audio = bench(COMMON + "--backend openai-chat --dataset-name custom_audio "
          + "--dataset-path datasets/custom_media/custom_audio_sample.jsonl "
          + "--custom-output-len 3 --num-prompts 2 --base-url " + sim.baseUrl());
      assertEquals(2, audio.get("completed").asInt());
      // the two-image line and the two-clip line, as content parts after the text
      assertTrue(StrictServer.runRequests(sim).stream().anyMatch(
          r -> r.bodyText().split("data:image/jpeg;base64,", -1).length == 3));
      assertTrue(StrictServer.runRequests(sim).stream().anyMatch(
          r -> r.bodyText().split("\"input_audio\"", -1).length >= 3));
    }
  }

  private static String prompt(RecordedRequest r) {
    try {
      return JSON.readTree(r.bodyText()).get("prompt").asText();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
