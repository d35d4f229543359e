package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** vllm-bench's SPEED-Bench flags: {@code speed-bench}, its config and its prompt cut. */
class SpeedBenchFlagsTest {

  private static final String PATH = SpeedBenchDatasetTest.SAMPLE.toString();

  private static Map<String, SampleRequest> byPrompt(Samples s) {
    return s.requests().stream().collect(Collectors.toMap(SampleRequest::prompt,
        Function.identity(), (a, b) -> a));
  }

  @Test
  void vllmBenchsDatasetNameAndConfigPickTheSubsetFile() {
    Samples s = Datasets.fromArgs("--dataset-name", "speed-bench", "--dataset-path", PATH,
        "--speed-bench-config", "throughput_1k", "--num-prompts", "0").sample(Gpt2.TOKENIZER);
    // throughput_1k.jsonl holds 3 questions; qualitative.jsonl 8
    assertEquals(3, s.size());
    assertTrue(byPrompt(s).containsKey("Invent ten unusual names for a pet turtle."));
  }

  @Test
  void theTwoSubsetFlagsMustAgree() {
    assertEquals("throughput_1k", SpeedBenchFlags.subset("throughput_1k", "throughput_1k")
        .orElseThrow());
    assertEquals("qualitative", SpeedBenchFlags.subset(null, "qualitative").orElseThrow());
    assertTrue(SpeedBenchFlags.subset(null, null).isEmpty());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SpeedBenchFlags.subset("qualitative", "throughput_1k"));
    assertTrue(e.getMessage().contains("--speed-bench-config is vllm-bench's name"),
        e.getMessage());
  }

  @Test
  void maxInputLenCutsLongPromptsToTheirFirstTokens() {
    Samples s = Datasets.fromArgs("--dataset-name", "speed_bench", "--dataset-path", PATH,
        "--speed-bench-dataset-subset", "throughput_1k", "--speed-bench-max-input-len", "4",
        "--num-prompts", "0").sample(Gpt2.TOKENIZER);
    // GPT-2 gives "Repeat", " the", " word", " apple" as the first 4 tokens of this question
    SampleRequest cut = byPrompt(s).get("Repeat the word apple");
    assertEquals(4, cut.promptLen(), byPrompt(s).keySet().toString());
    s.requests().forEach(r -> assertTrue(r.promptLen() <= 4, r.prompt()));
    // a prompt within the limit (the question is under 20 tokens) is kept whole
    Samples whole = Datasets.speedBench(SpeedBenchDatasetTest.SAMPLE).subset("throughput_1k")
        .maxInputLen(20).allPrompts().sample(Gpt2.TOKENIZER);
    assertTrue(byPrompt(whole).containsKey(
        "Repeat the word apple twenty times, separated by commas."));
    assertThrows(IllegalArgumentException.class,
        () -> Datasets.speedBench(SpeedBenchDatasetTest.SAMPLE).maxInputLen(0));
  }
}
