package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.internal.dataset.DatasetException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SpeedBenchDatasetTest {

  static final Path SAMPLE = Path.of("datasets/speed_bench");

  private static Set<String> prompts(Samples samples) {
    return samples.requests().stream().map(SampleRequest::prompt).collect(Collectors.toSet());
  }

  @Test
  void aCategoryOfTheQualitativeSubsetWithVllmsOutputLength() {
    Samples math = Datasets.fromArgs("--dataset-name", "speed_bench", "--dataset-path",
        SAMPLE.toString(), "--speed-bench-category", "math", "--num-prompts", "0")
        .sample(Gpt2.TOKENIZER);
    // the sample's two math lines, q-03 and q-04
    assertEquals(Set.of("What is the sum of the first ten odd numbers?",
        "Solve for x: 3x + 7 = 22."), prompts(math));
    for (SampleRequest r : math.requests()) {
      assertEquals(4096, r.expectedOutputLen(), "vLLM's --speed-bench-output-len default");
      assertEquals(Gpt2.TOKENIZER.countWithSpecialTokens(r.prompt()), r.promptLen());
    }
  }

  @Test
  void theSubsetPicksTheFileAndThePromptIsTheFirstMessage() {
    Samples throughput = LlmDsl.speedBench(SAMPLE.toString()).subset("throughput_1k")
        .outputLen(64).allPrompts().sample(Gpt2.TOKENIZER);
    assertEquals(3, throughput.size());
    assertTrue(prompts(throughput).contains("Invent ten unusual names for a pet turtle."));
    throughput.requests().forEach(r -> assertEquals(64, r.expectedOutputLen()));
    // q-06 has a reply after the question: only the first message is the prompt
    Samples writing = Datasets.speedBench(SAMPLE).category("writing").allPrompts()
        .sample(Gpt2.TOKENIZER);
    assertEquals(Set.of("Write a haiku about autumn rain.",
        "Draft a short thank-you note to a colleague."), prompts(writing));
  }

  @Test
  void aShortSubsetIsToppedUpWithRepeatsUnlessNoOversample() {
    Samples ten = Datasets.speedBench(SAMPLE).numPrompts(10).sample(Gpt2.TOKENIZER);
    assertEquals(10, ten.size());
    assertEquals(8, prompts(ten).size(), "the 8 questions, 2 of them twice");
    assertEquals(List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"),
        ten.requests().stream().map(SampleRequest::requestId).toList());
    assertEquals(8, Datasets.speedBench(SAMPLE).numPrompts(10).noOversample(true)
        .sample(Gpt2.TOKENIZER).size());
  }

  @Test
  void missingDataIsRefusedWithWhatThereIs() {
    DatasetException e = assertThrows(DatasetException.class,
        () -> Datasets.speedBench(SAMPLE).subset("throughput_2k").sample(Gpt2.TOKENIZER));
    assertEquals("SPEED-Bench folder " + SAMPLE + " has no throughput_2k.jsonl; its subsets are "
        + "[qualitative, throughput_1k]", e.getMessage());
    e = assertThrows(DatasetException.class,
        () -> Datasets.speedBench(SAMPLE).category("poetry").sample(Gpt2.TOKENIZER));
    assertEquals("SPEED-Bench file " + SAMPLE.resolve("qualitative.jsonl") + " has no question "
        + "in category 'poetry'; its categories are [coding, math, qa, summarization, writing]",
        e.getMessage());
    Path file = SAMPLE.resolve("qualitative.jsonl");
    e = assertThrows(DatasetException.class,
        () -> Datasets.speedBench(file).sample(Gpt2.TOKENIZER));
    assertTrue(e.getMessage().startsWith("SPEED-Bench --dataset-path " + file + " is not a "
        + "folder; prepare it with NVIDIA NeMo-Skills'"), e.getMessage());
    assertEquals("speed-bench-output-len must be >= 1, got 0",
        assertThrows(IllegalArgumentException.class,
            () -> Datasets.speedBench(SAMPLE).outputLen(0)).getMessage());
  }
}
