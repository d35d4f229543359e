package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The count options refuse values below their floor with the flag's name and the value. */
class DatasetOptionChecksTest {

  private static void refused(String message, Executable call) {
    assertEquals(message, assertThrows(IllegalArgumentException.class, call).getMessage());
  }

  @Test
  void eachOptionNamesItsFlagItsFloorAndTheValue() {
    Path file = Path.of("unused.json");
    refused("num-prompts must be >= 1, got 0", () -> Datasets.random().numPrompts(0));
    refused("random-input-len must be >= 0, got -1", () -> Datasets.random().inputLen(-1));
    refused("random-prefix-len must be >= 0, got -7", () -> Datasets.random().prefixLen(-7));
    refused("sonnet-output-len must be >= 1, got 0", () -> Datasets.sonnet(file).outputLen(0));
    refused("prefix-repetition-num-prefixes must be >= 1, got -2",
        () -> Datasets.prefixRepetition().numPrefixes(-2));
    refused("random-mm-base-items-per-request must be >= 0, got -1",
        () -> Datasets.randomMultiModal().baseItemsPerRequest(-1));
    refused("spec-bench-output-len must be >= 1, got 0",
        () -> Datasets.specBench(file).outputLen(0));
  }

  @Test
  void theFloorItselfIsAccepted() {
    assertEquals(0, Datasets.random().inputLen(0).inputLen());
    assertEquals(1, Datasets.custom(Path.of("x.jsonl")).numPrompts(1).numPrompts());
  }

  @Test
  void allPromptsKeepsTheOtherCommonOptions() {
    CustomDataset d = Datasets.custom(Path.of("x.jsonl")).seed(9).disableShuffle(true)
        .requestIdPrefix("r-").allPrompts();
    assertEquals(0, d.numPrompts());
    assertEquals(9, d.seed());
    assertEquals(true, d.disableShuffle());
    assertEquals("r-", d.requestIdPrefix());
  }
}
