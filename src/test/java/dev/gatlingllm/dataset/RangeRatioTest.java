package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --random-range-ratio} as one number or as {@code {"input": r, "output": r}}. */
class RangeRatioTest {

  private static Samples random(String ratio) {
    return Datasets.fromArgs("--random-input-len", "200", "--random-output-len", "10",
        "--num-prompts", "40", "--random-range-ratio", ratio).sample(Gpt2.TOKENIZER);
  }

  @Test
  void aJsonRatioSpreadsTheInputAndOutputLengthsApart() {
    // input 200 ± 50%: [100, 300]; output ratio 0: every output is exactly 10
    Samples in = random("{\"input\": 0.5, \"output\": 0}");
    List<Integer> inputs = in.requests().stream().map(SampleRequest::promptLen).toList();
    assertTrue(inputs.stream().allMatch(n -> n >= 100 && n <= 300), inputs.toString());
    assertTrue(inputs.stream().distinct().count() > 5, "spread: " + inputs);
    assertTrue(in.requests().stream().allMatch(r -> r.expectedOutputLen() == 10));

    // a key left out is 0: inputs exactly 200, outputs 10 ± 50%: [5, 15]
    Samples out = random("{\"output\": 0.5}");
    assertTrue(out.requests().stream().allMatch(r -> r.promptLen() == 200));
    List<Integer> outputs = out.requests().stream().map(SampleRequest::expectedOutputLen)
        .toList();
    assertTrue(outputs.stream().allMatch(n -> n >= 5 && n <= 15), outputs.toString());
    assertTrue(outputs.stream().distinct().count() > 3, "spread: " + outputs);

    RandomDataset both = (RandomDataset) Datasets.fromArgs("--random-range-ratio", "0.25");
    assertEquals(List.of(0.25, 0.25), List.of(both.rangeRatio(), both.outputRangeRatio()));
    RandomDataset split = (RandomDataset) Datasets.fromArgs("--random-range-ratio",
        "{\"input\": 0.1, \"output\": 0.3}");
    assertEquals(List.of(0.1, 0.3), List.of(split.rangeRatio(), split.outputRangeRatio()));
  }

  @Test
  void badRatiosAreRefusedByName() {
    String usage = "--random-range-ratio expects a number or {\"input\": r, \"output\": r}, "
        + "got '{\"inptu\": 0.2}'";
    assertEquals(usage, assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--random-range-ratio", "{\"inptu\": 0.2}")).getMessage());
    assertEquals("--random-range-ratio expects a number or {\"input\": r, \"output\": r}, got "
        + "'{\"input\": 0.2'", assertThrows(IllegalArgumentException.class,
            () -> Datasets.fromArgs("--random-range-ratio", "{\"input\": 0.2")).getMessage());
    assertEquals("random-range-ratio must be in [0, 1), got 1.0",
        assertThrows(IllegalArgumentException.class, () -> Datasets.fromArgs(
            "--random-range-ratio", "{\"input\": 0.2, \"output\": 1.0}")).getMessage());
    assertEquals("--random-range-ratio expects a number, got 'wide'",
        assertThrows(IllegalArgumentException.class,
            () -> Datasets.fromArgs("--random-range-ratio", "wide")).getMessage());
  }

  @Test
  void rerankDocumentsTakeTheInputRatio() {
    RandomRerankDataset rerank = (RandomRerankDataset) Datasets.fromArgs("--dataset-name",
        "random-rerank", "--random-range-ratio", "{\"input\": 0.2, \"output\": 0.9}");
    assertTrue(rerank.toString().contains("rangeRatio=0.2,"), rerank.toString());
  }
}
