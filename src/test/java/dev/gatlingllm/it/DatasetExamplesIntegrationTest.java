package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.burstGpt;
import static dev.gatlingllm.LlmDsl.custom;
import static dev.gatlingllm.LlmDsl.dataset;
import static dev.gatlingllm.LlmDsl.hf;
import static dev.gatlingllm.LlmDsl.prefixRepetition;
import static dev.gatlingllm.LlmDsl.random;
import static dev.gatlingllm.LlmDsl.shareGpt;
import static dev.gatlingllm.LlmDsl.sonnet;
import static dev.gatlingllm.LlmDsl.specBench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.dataset.DatasetSpec;
import dev.gatlingllm.dataset.SampleRequest;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.simulations.datasets.AsrSimulation;
import dev.gatlingllm.simulations.datasets.BurstGptSimulation;
import dev.gatlingllm.simulations.datasets.CustomSimulation;
import dev.gatlingllm.simulations.datasets.HfParquetSimulation;
import dev.gatlingllm.simulations.datasets.PrefixRepetitionSimulation;
import dev.gatlingllm.simulations.datasets.RandomSimulation;
import dev.gatlingllm.simulations.datasets.ShareGptSimulation;
import dev.gatlingllm.simulations.datasets.SonnetSimulation;
import dev.gatlingllm.simulations.datasets.SpecBenchSimulation;
import dev.gatlingllm.simulations.datasets.VisionArenaSimulation;
import dev.gatlingllm.simulations.datasets.VllmFlagsSimulation;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every dataset example under {@code simulations/.../datasets} runs as a user would run it
 * (no base URL: it starts its own embedded simulator) and must pass its own assertions, write
 * the HTML report and one vLLM result JSON whose counts match the dataset it sampled.
 */
@Timeout(120)
class DatasetExamplesIntegrationTest {

  @TempDir
  static Path results;

  private static Tokenizer gpt2;

  @BeforeAll
  static void loadTokenizer() {
    gpt2 = Tokenizer.gpt2();
  }

  @AfterAll
  static void closeTokenizer() {
    gpt2.close();
  }

  /**
   * Example, its dataset (the example's own options, repeated here: a change there shows as a
   * count that no longer matches), the number of prompts it must send (from its options or
   * file).
   */
  static Stream<Arguments> examples() {
    return Stream.of(
        arguments(RandomSimulation.class,
            random().inputLen(128).outputLen(32).numPrompts(40).seed(0), 40, "random"),
        arguments(ShareGptSimulation.class,
            shareGpt("datasets/sharegpt/sharegpt_sample.json").numPrompts(30).seed(1), 30,
            "sharegpt"),
        arguments(SonnetSimulation.class, sonnet("datasets/sonnet/sonnet.txt").inputLen(300)
            .prefixLen(100).outputLen(32).numPrompts(20), 20, "sonnet"),
        arguments(BurstGptSimulation.class,
            burstGpt("datasets/burstgpt/burstgpt_sample.csv").numPrompts(40), 40, "burstgpt"),
        // allPrompts(): every one of the file's 40 lines
        arguments(CustomSimulation.class,
            custom("datasets/custom/custom_sample.jsonl").allPrompts(), 40, "custom"),
        arguments(PrefixRepetitionSimulation.class, prefixRepetition().prefixLen(96)
            .suffixLen(32).numPrefixes(4).outputLen(16).numPrompts(40), 40,
            "prefix_repetition"),
        arguments(HfParquetSimulation.class, hf("datasets/hf/sharegpt_vicuna_sample.parquet")
            .hfName("Aeala/ShareGPT_Vicuna_unfiltered").numPrompts(30), 30, "hf"),
        arguments(VllmFlagsSimulation.class, dataset(VllmFlagsSimulation.DEFAULT_ARGS.split(" ")),
            40, "random"),
        // the 3 summarization questions of the sample
        arguments(SpecBenchSimulation.class,
            specBench("datasets/spec_bench/spec_bench_sample.jsonl").category("summarization")
                .outputLen(64).allPrompts(), 3, "spec_bench"),
        arguments(VisionArenaSimulation.class, hf("datasets/hf/visionarena_sample.parquet")
            .hfName("lmarena-ai/VisionArena-Chat").numPrompts(12), 12, "visionarena"),
        arguments(AsrSimulation.class, hf("datasets/hf/asr_sample.parquet")
            .hfName("openslr/librispeech_asr").numPrompts(6), 6, "asr"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void exampleRunsGreenAgainstTheEmbeddedSimulator(Class<?> example, DatasetSpec dataset,
      int prompts, String label) throws IOException {
    Samples samples = dataset.sample(gpt2);
    assertEquals(prompts, samples.size(), "prompts sampled");

    GatlingRunner.Result result = GatlingRunner.run(example, results,
        Map.of("llm.resultsFolder", results.toString()));

    assertEquals(0, result.exitCode(), "the example's own assertions (no KO) must pass");
    // The examples have no after(): their results are written once the run is over, at the
    // JVM's exit under gatling:test (ForgottenResultsTest). In this JVM, write them now.
    GatlingRunner.writeResults(example, results);
    assertTrue(Files.exists(result.file("index.html")), "HTML report written");
    JsonNode doc = new ObjectMapper().readTree(resultJson(result.runFolder()).toFile());
    assertEquals(label, doc.get("label").asText());
    assertEquals(prompts, doc.get("completed").asInt(), "every prompt sent once and completed");
    assertEquals(0, doc.get("failed").asInt());
    // Prompt lengths counted again here from the texts, not taken from the feeder's prompt_len.
    long recounted = samples.requests().stream()
        .mapToLong(r -> gpt2.countWithSpecialTokens(r.prompt())).sum();
    assertEquals(samples.totalPromptTokens(), recounted, "prompt_len is the real token count");
    assertEquals(recounted, doc.get("total_input_tokens").asLong());
    // The simulator generates exactly max_tokens, so the output is the dataset's output_len.
    long outputLens = samples.requests().stream()
        .mapToLong(SampleRequest::expectedOutputLen).sum();
    assertEquals(outputLens, doc.get("total_output_tokens").asLong());
  }

  @Test
  void randomExampleSendsFortyPromptsOfExactly128Tokens() {
    Samples samples = random().inputLen(128).outputLen(32).numPrompts(40).seed(0).sample(gpt2);
    assertEquals(40, samples.size());
    for (SampleRequest r : samples.requests()) {
      assertEquals(128, gpt2.count(r.prompt()), r.requestId());
      assertEquals(32, r.expectedOutputLen(), r.requestId());
    }
    assertEquals(40 * 128, samples.totalPromptTokens());
  }

  private static Path resultJson(Path runFolder) throws IOException {
    try (Stream<Path> files = Files.list(runFolder)) {
      List<Path> json = files.filter(p -> p.getFileName().toString().endsWith(".json")).toList();
      assertEquals(1, json.size(), "one result JSON in " + runFolder + ": " + json);
      return json.get(0);
    }
  }
}
