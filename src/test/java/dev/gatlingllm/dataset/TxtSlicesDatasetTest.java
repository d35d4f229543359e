package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.internal.dataset.DatasetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TxtSlicesDatasetTest {

  @TempDir Path dir;

  @Test
  void eachPromptIsARunOfConsecutiveTokensWrappingAround() throws IOException {
    // GPT-2 reads "a b c d e f g h" as 8 tokens: "a", " b", ..., " h"
    Path text = Files.writeString(dir.resolve("letters.txt"), "a b c d e f g h");
    assertEquals(8, Gpt2.TOKENIZER.count("a b c d e f g h"));
    Samples samples = Datasets.fromArgs("--dataset-name", "txt-slices", "--dataset-path",
        text.toString(), "--random-input-len", "3", "--random-output-len", "7",
        "--num-prompts", "40").sample(Gpt2.TOKENIZER);
    // the 8 windows of 3 tokens; the last two wrap from " h" to "a"
    Set<String> windows = Set.of("a b c", " b c d", " c d e", " d e f", " e f g", " f g h",
        " g ha", " ha b");
    assertEquals(40, samples.size());
    for (SampleRequest r : samples.requests()) {
      assertTrue(windows.contains(r.prompt()), r.prompt());
      assertEquals(Gpt2.TOKENIZER.countWithSpecialTokens(r.prompt()), r.promptLen());
      assertEquals(7, r.expectedOutputLen());
    }
    assertTrue(samples.requests().stream().map(SampleRequest::prompt).distinct().count() >= 6,
        "random starts over 40 draws");
  }

  @Test
  void lengthsFollowTheRandomDatasetsRangeRatio() throws IOException {
    Path sonnet = Path.of("datasets/sonnet/sonnet.txt");
    // input 40 ± 50%: [20, 60] tokens; output ratio 0: exactly 12
    Samples samples = LlmDsl.txtSlices(sonnet.toString()).inputLen(40).outputLen(12)
        .rangeRatio(0.5, 0.0).numPrompts(30).seed(3).sample(Gpt2.TOKENIZER);
    List<Integer> lens = samples.requests().stream().map(SampleRequest::promptLen).toList();
    // decoding and re-encoding a slice can merge a token at either end
    assertTrue(lens.stream().allMatch(n -> n >= 18 && n <= 62), lens.toString());
    assertTrue(lens.stream().distinct().count() > 5, "spread: " + lens);
    assertEquals(Set.of(12), samples.requests().stream().map(SampleRequest::expectedOutputLen)
        .collect(Collectors.toSet()));
    // a slice that does not wrap around is a piece of the file, as written (GPT-2 decodes
    // consecutive tokens to the bytes they came from); the file has thousands of tokens, so
    // at most a start or two of 30 falls in the last 60 tokens
    String text = Files.readString(sonnet);
    long pieces = samples.requests().stream().filter(r -> text.contains(r.prompt())).count();
    assertTrue(pieces >= 28, pieces + " of 30 are pieces of the file");
  }

  @Test
  void aMissingSourceIsRefused() {
    assertEquals("The txt-slices dataset needs --dataset-path: a text file or an http(s) URL",
        assertThrows(IllegalArgumentException.class,
            () -> Datasets.fromArgs("--dataset-name", "txt-slices")).getMessage());
    Path missing = dir.resolve("none.txt");
    DatasetException e = assertThrows(DatasetException.class,
        () -> Datasets.txtSlices(missing.toString()).numPrompts(1).sample(Gpt2.TOKENIZER));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    assertEquals("--dataset-name is txt-slices but these flags belong to other datasets: "
            + "--random-prefix-len (random or random-mm datasets)",
        assertThrows(IllegalArgumentException.class, () -> Datasets.fromArgs("--dataset-name",
            "txt-slices", "--dataset-path", "x.txt", "--random-prefix-len", "4")).getMessage());
  }
}
