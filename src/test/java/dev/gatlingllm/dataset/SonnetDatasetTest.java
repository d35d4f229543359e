package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.dataset.DatasetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SonnetDatasetTest {

  static final Path SONNET = Path.of("datasets/sonnet/sonnet.txt");

  @TempDir Path dir;

  @Test
  void promptsShareTheInstructionAndPrefixLinesAndStayUnderTheInputLength() throws IOException {
    List<String> lines = Files.readAllLines(SONNET);
    Samples samples = Datasets.sonnet(SONNET).inputLen(300).prefixLen(100).outputLen(40)
        .numPrompts(60).seed(4).sample(Gpt2.TOKENIZER);
    assertEquals(60, samples.size());
    String sharedStart = SonnetDataset.INSTRUCTION + lines.get(0) + "\n" + lines.get(1) + "\n";
    for (SampleRequest r : samples.requests()) {
      assertTrue(r.promptLen() <= 300, r.toString());
      assertTrue(r.promptLen() > 200, "prompts fill most of the budget: " + r);
      assertEquals(Gpt2.TOKENIZER.count(r.prompt()), r.promptLen());
      assertEquals(40, r.expectedOutputLen());
      assertTrue(r.prompt().startsWith(sharedStart), r.toString());
      // everything after the instruction is whole lines of the poem
      for (String line : r.prompt().substring(SonnetDataset.INSTRUCTION.length()).split("\n")) {
        assertTrue(lines.contains(line), "not a poem line: " + line);
      }
    }
    assertTrue(samples.requests().stream().map(SampleRequest::prompt).distinct().count() > 50,
        "the drawn lines differ between prompts");
  }

  @Test
  void sameSeedSamePromptsOtherSeedOtherPrompts() {
    SonnetDataset spec = Datasets.sonnet(SONNET).inputLen(200).prefixLen(50).numPrompts(20);
    assertEquals(spec.seed(1).sample(Gpt2.TOKENIZER).requests(),
        spec.seed(1).sample(Gpt2.TOKENIZER).requests());
    assertNotEquals(spec.seed(1).sample(Gpt2.TOKENIZER).requests(),
        spec.seed(2).sample(Gpt2.TOKENIZER).requests());
  }

  @Test
  void defaultsAreVllms() {
    SonnetDataset spec = Datasets.sonnet(SONNET);
    Samples samples = spec.numPrompts(10).sample(Gpt2.TOKENIZER);
    samples.requests().forEach(r -> {
      assertTrue(r.promptLen() <= SonnetDataset.DEFAULT_INPUT_LEN);
      assertEquals(SonnetDataset.DEFAULT_OUTPUT_LEN, r.expectedOutputLen());
    });
    assertEquals(550, SonnetDataset.DEFAULT_INPUT_LEN);
    assertEquals(200, SonnetDataset.DEFAULT_PREFIX_LEN);
    assertEquals(150, SonnetDataset.DEFAULT_OUTPUT_LEN);
  }

  @Test
  void impossibleSettingsAndBadFilesAreExplained() throws IOException {
    IllegalArgumentException prefix = assertThrows(IllegalArgumentException.class,
        () -> Datasets.sonnet(SONNET).inputLen(100).prefixLen(200).sample(Gpt2.TOKENIZER));
    assertTrue(prefix.getMessage().contains("sonnet-prefix-len 200"), prefix.getMessage());

    IllegalArgumentException tiny = assertThrows(IllegalArgumentException.class,
        () -> Datasets.sonnet(SONNET).inputLen(5).prefixLen(0).sample(Gpt2.TOKENIZER));
    assertTrue(tiny.getMessage().contains("instruction"), tiny.getMessage());

    DatasetException missing = assertThrows(DatasetException.class,
        () -> Datasets.sonnet(dir.resolve("none.txt")).sample(Gpt2.TOKENIZER));
    assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());

    Path blank = Files.writeString(dir.resolve("blank.txt"), "\n\n  \n");
    assertThrows(DatasetException.class, () -> Datasets.sonnet(blank).sample(Gpt2.TOKENIZER));

    // lines of 101 tokens with room for 1.5 of them: 2 lines are drawn and never fit, so the
    // bounded retry gives up with an explanation
    String line = "word" + " word".repeat(99) + "\n";
    Path wide = Files.writeString(dir.resolve("wide.txt"), line.repeat(5));
    int base = Gpt2.TOKENIZER.count(SonnetDataset.INSTRUCTION);
    DatasetException never = assertThrows(DatasetException.class,
        () -> Datasets.sonnet(wide).inputLen(base + 152).prefixLen(0).numPrompts(3).seed(1)
            .sample(Gpt2.TOKENIZER));
    assertTrue(never.getMessage().contains("raise sonnet-input-len"), never.getMessage());
  }
}
