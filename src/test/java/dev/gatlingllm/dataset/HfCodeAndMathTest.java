package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The hf readers of HumanEval and GSM8K, on the hand-written samples. */
class HfCodeAndMathTest {

  private static Map<String, Integer> outputs(Samples samples) {
    return samples.requests().stream().distinct().collect(Collectors.toMap(
        SampleRequest::prompt, SampleRequest::expectedOutputLen, (a, b) -> a));
  }

  @Test
  void humanEvalSendsTheSignatureAndAsksForTheSolutionsLength() {
    Samples samples = Datasets.fromArgs("--dataset-name", "hf", "--dataset-path",
        "datasets/hf/humaneval_sample.jsonl", "--hf-name", "openai/openai_humaneval",
        "--num-prompts", "3", "--no-oversample").sample(Gpt2.TOKENIZER);
    // GPT-2 tokens of the canonical solutions: "return| a| plus| b" (4),
    // "return| true| when| n| is| even" (6), "return| items" (2)
    assertEquals(Map.of(
        "def add(a, b):\n    \"\"\"Return the sum of a and b.\"\"\"\n", 4,
        "def is_even(n):\n    \"\"\"Tell whether n is even.\"\"\"\n", 6,
        "def first(items):\n    \"\"\"Return the first item.\"\"\"\n", 2), outputs(samples));
    samples.requests().forEach(r -> assertEquals(
        Gpt2.TOKENIZER.countWithSpecialTokens(r.prompt()), r.promptLen()));
  }

  @Test
  void gsm8kSendsTheQuestionAndAsksForTheAnswersLengthUnlessOverridden() {
    Samples samples = Datasets.hf("datasets/hf/gsm8k_sample.jsonl").hfName("openai/gsm8k")
        .numPrompts(4).noOversample(true).sample(Gpt2.TOKENIZER);
    // "He| has| five| apples" (4), "There| are| twelve| eggs| in| the| boxes" (7),
    // "It| is| thirty| pages" (4), "They| cost| eight| dollars" (4)
    assertEquals(Map.of(
        "Tom has 3 apples and buys 2 more. How many apples does he have?", 4,
        "A box holds 6 eggs. How many eggs are in 2 boxes?", 7,
        "Sara reads 10 pages a day. How many pages does she read in 3 days?", 4,
        "A pen costs 2 dollars. How much do 4 pens cost?", 4), outputs(samples));
    Samples fixed = Datasets.fromArgs("--dataset-name", "hf", "--dataset-path",
        "datasets/hf/gsm8k_sample.jsonl", "--hf-name", "gsm8k", "--hf-output-len", "9",
        "--num-prompts", "4").sample(Gpt2.TOKENIZER);
    assertTrue(fixed.requests().stream().allMatch(r -> r.expectedOutputLen() == 9));
  }

  @Test
  void theirColumnsAreRecognisedWithoutHfName() {
    assertEquals(HfKind.HUMAN_EVAL, HfKind.byColumns(java.util.List.of("task_id", "prompt",
        "canonical_solution", "test", "entry_point")).orElseThrow());
    assertEquals(HfKind.GSM8K, HfKind.byColumns(java.util.List.of("question", "answer"))
        .orElseThrow());
    // MMStar rows have a question and an answer too, but also an image: still MMStar
    assertEquals(HfKind.MMSTAR, HfKind.byColumns(java.util.List.of("question", "answer",
        "image")).orElseThrow());
    assertEquals(3, Datasets.hf(Path.of("datasets/hf/humaneval_sample.jsonl").toString())
        .numPrompts(3).noOversample(true).sample(Gpt2.TOKENIZER).size());
  }
}
