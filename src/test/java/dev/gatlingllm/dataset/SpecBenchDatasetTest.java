package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.dataset.DatasetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecBenchDatasetTest {

  static final Path SAMPLE = Path.of("datasets/spec_bench/spec_bench_sample.jsonl");

  @TempDir Path dir;

  /** First turns of the sample's lines, for the category given (all when null). */
  static List<String> firstTurns(String category) {
    List<String> out = new ArrayList<>();
    DataFiles.jsonLines(SAMPLE, "test", (n, node) -> {
      if (category == null || category.equals(node.get("category").asText())) {
        out.add(node.get("turns").get(0).asText());
      }
    });
    return out;
  }

  @Test
  void promptsAreFirstTurnsWithTheFlagsOutputLength() {
    Samples samples = Datasets.fromArgs("--dataset-name", "spec_bench", "--dataset-path",
        SAMPLE.toString(), "--num-prompts", "20", "--spec-bench-output-len", "64")
        .sample(Gpt2.TOKENIZER);
    assertEquals(20, samples.size());
    Set<String> turns = new HashSet<>(firstTurns(null));
    for (SampleRequest r : samples.requests()) {
      assertTrue(turns.contains(r.prompt()), r.toString());
      assertEquals(64, r.expectedOutputLen());
      assertEquals(Gpt2.TOKENIZER.countWithSpecialTokens(r.prompt()), r.promptLen());
    }
    Datasets.specBench(SAMPLE).numPrompts(3).sample(Gpt2.TOKENIZER).requests()
        .forEach(r -> assertEquals(256, r.expectedOutputLen(), "vLLM's default"));
  }

  @Test
  void aCategoryKeepsOnlyItsQuestionsAndZeroPromptsMeansAllOfThem() {
    List<String> summaries = firstTurns("summarization");
    assertTrue(summaries.size() >= 2 && summaries.size() < firstTurns(null).size());
    Samples all = Datasets.fromArgs("--dataset-name", "spec_bench", "--dataset-path",
        SAMPLE.toString(), "--spec-bench-category", "summarization", "--num-prompts", "0")
        .sample(Gpt2.TOKENIZER);
    assertEquals(new HashSet<>(summaries),
        new HashSet<>(all.requests().stream().map(SampleRequest::prompt).toList()));
    assertEquals(summaries.size(), all.size());

    Samples more = Datasets.specBench(SAMPLE).category("summarization").numPrompts(7)
        .sample(Gpt2.TOKENIZER);
    assertEquals(7, more.size(), "oversampled like every file dataset");
    assertEquals(7, new HashSet<>(more.requests().stream().map(SampleRequest::requestId)
        .toList()).size());
  }

  @Test
  void shuffleFollowsTheSeedUnlessDisabled() {
    SpecBenchDataset spec = Datasets.specBench(SAMPLE).numPrompts(10);
    assertEquals(spec.seed(1).sample(Gpt2.TOKENIZER).requests(),
        spec.seed(1).sample(Gpt2.TOKENIZER).requests());
    assertNotEquals(spec.seed(1).sample(Gpt2.TOKENIZER).requests(),
        spec.seed(2).sample(Gpt2.TOKENIZER).requests());
    assertEquals(firstTurns(null).subList(0, 10), spec.disableShuffle(true)
        .sample(Gpt2.TOKENIZER).requests().stream().map(SampleRequest::prompt).toList());
  }

  @Test
  void unknownCategoriesAndMalformedLinesAreNamed() throws IOException {
    DatasetException category = assertThrows(DatasetException.class,
        () -> Datasets.specBench(SAMPLE).category("poetry").sample(Gpt2.TOKENIZER));
    assertTrue(category.getMessage().contains("no question in category 'poetry'")
        && category.getMessage().contains("summarization")
        && category.getMessage().contains("math_reasoning"), category.getMessage());

    Path noTurns = Files.writeString(dir.resolve("q.jsonl"),
        "{\"category\": \"qa\", \"turns\": [\"ok\"]}\n{\"category\": \"qa\", \"prompt\": \"x\"}\n");
    DatasetException turns = assertThrows(DatasetException.class,
        () -> Datasets.specBench(noTurns).sample(Gpt2.TOKENIZER));
    assertTrue(turns.getMessage().contains("line 2") && turns.getMessage().contains("\"turns\""),
        turns.getMessage());

    Path empty = Files.writeString(dir.resolve("empty.jsonl"), "\n");
    assertTrue(assertThrows(DatasetException.class,
        () -> Datasets.specBench(empty).sample(Gpt2.TOKENIZER)).getMessage()
        .contains("has no question"));

    assertThrows(DatasetException.class,
        () -> Datasets.specBench(dir.resolve("absent.jsonl")).sample(Gpt2.TOKENIZER));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "spec_bench")).getMessage()
        .contains("needs --dataset-path"));
    assertThrows(IllegalArgumentException.class, () -> Datasets.specBench(SAMPLE).outputLen(0));
  }

  @Test
  void itsFlagsBelongToItAlone() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "custom", "--dataset-path",
            "datasets/custom/custom_sample.jsonl", "--spec-bench-category", "qa"));
    assertTrue(e.getMessage().contains("--spec-bench-category (spec_bench dataset)"),
        e.getMessage());
  }

}
