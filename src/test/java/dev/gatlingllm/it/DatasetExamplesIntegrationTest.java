package dev.gatlingllm.it;

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

  /** Example, its dataset, the number of prompts it must send (from its options or file). */
  static Stream<Arguments> examples() {
    return Stream.of(
        arguments(RandomSimulation.class, RandomSimulation.DATASET, 40, "random"),
        arguments(ShareGptSimulation.class, ShareGptSimulation.DATASET, 30, "sharegpt"),
        arguments(SonnetSimulation.class, SonnetSimulation.DATASET, 20, "sonnet"),
        arguments(BurstGptSimulation.class, BurstGptSimulation.DATASET, 40, "burstgpt"),
        // allPrompts(): every one of the file's 40 lines
        arguments(CustomSimulation.class, CustomSimulation.DATASET, 40, "custom"),
        arguments(PrefixRepetitionSimulation.class, PrefixRepetitionSimulation.DATASET, 40,
            "prefix_repetition"),
        arguments(HfParquetSimulation.class, HfParquetSimulation.DATASET, 30, "hf"),
        arguments(VllmFlagsSimulation.class, VllmFlagsSimulation.DATASET, 40, "random"),
        // the 3 summarization questions of the sample
        arguments(SpecBenchSimulation.class, SpecBenchSimulation.DATASET, 3, "spec_bench"),
        arguments(VisionArenaSimulation.class, VisionArenaSimulation.DATASET, 12,
            "visionarena"),
        arguments(AsrSimulation.class, AsrSimulation.DATASET, 6, "asr"));
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
    Samples samples = RandomSimulation.DATASET.sample(gpt2);
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
