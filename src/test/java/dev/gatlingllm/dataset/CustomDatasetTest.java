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
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CustomDatasetTest {

  static final Path SAMPLE = Path.of("datasets/custom/custom_sample.jsonl");

  @TempDir Path dir;

  Path jsonl(String content) throws IOException {
    return Files.writeString(dir.resolve("custom-" + System.nanoTime() + ".jsonl"), content);
  }

  @Test
  void outputLengthComesFromTheOptionThenTheLineThenTheDefault() throws IOException {
    Path file = jsonl("""
        {"prompt": "hello world"}
        {"prompt": "foo bar foo", "output_len": 7}

        {"prompt": "bar", "extra": "ignored"}
        """);
    Map<String, Integer> byLine = Datasets.custom(file).numPrompts(3).sample(Gpt2.WORDS)
        .requests().stream().collect(Collectors.toMap(SampleRequest::prompt,
            SampleRequest::expectedOutputLen));
    assertEquals(Map.of("hello world", 256, "foo bar foo", 7, "bar", 256), byLine);

    Map<String, Integer> promptLens = Datasets.custom(file).numPrompts(3).sample(Gpt2.WORDS)
        .requests().stream().collect(Collectors.toMap(SampleRequest::prompt,
            SampleRequest::promptLen));
    assertEquals(Map.of("hello world", 3, "foo bar foo", 4, "bar", 2), promptLens,
        "counted with the tokenizer's <s>, like vLLM");

    Datasets.custom(file).outputLen(9).numPrompts(3).sample(Gpt2.WORDS).requests()
        .forEach(r -> assertEquals(9, r.expectedOutputLen()));
  }

  @Test
  void allPromptsUsesEachLineOnceAndOversamplingFillsUp() throws IOException {
    Path file = jsonl("{\"prompt\": \"hello\"}\n{\"prompt\": \"world\"}\n{\"prompt\": \"foo\"}\n");
    Samples all = Datasets.custom(file).allPrompts().sample(Gpt2.WORDS);
    assertEquals(3, all.size());
    assertEquals(List.of("foo", "hello", "world"),
        all.requests().stream().map(SampleRequest::prompt).sorted().toList());
    Samples eight = Datasets.custom(file).numPrompts(8).sample(Gpt2.WORDS);
    assertEquals(8, eight.size());
    assertEquals(8, eight.requests().stream().map(SampleRequest::requestId).distinct().count());
  }

  @Test
  void theShippedSampleIsShuffledBySeed() {
    CustomDataset spec = Datasets.custom(SAMPLE).numPrompts(40);
    List<String> a = spec.seed(1).sample(Gpt2.TOKENIZER).requests().stream()
        .map(SampleRequest::prompt).toList();
    assertEquals(a, spec.seed(1).sample(Gpt2.TOKENIZER).requests().stream()
        .map(SampleRequest::prompt).toList());
    assertNotEquals(a, spec.seed(2).sample(Gpt2.TOKENIZER).requests().stream()
        .map(SampleRequest::prompt).toList());
    List<String> fileOrder = spec.disableShuffle(true).sample(Gpt2.TOKENIZER).requests()
        .stream().map(SampleRequest::prompt).toList();
    assertEquals("Write a haiku about China.", fileOrder.get(0));
  }

  @Test
  void badLinesAreReportedWithTheirNumber() throws IOException {
    Path malformed = jsonl("{\"prompt\": \"ok\"}\n{\"prompt\": \"broken\"\n");
    DatasetException json = assertThrows(DatasetException.class,
        () -> Datasets.custom(malformed).sample(Gpt2.WORDS));
    assertTrue(json.getMessage().contains("line 2 is not valid JSON"), json.getMessage());

    Path noPrompt = jsonl("{\"text\": \"ok\"}\n");
    DatasetException prompt = assertThrows(DatasetException.class,
        () -> Datasets.custom(noPrompt).sample(Gpt2.WORDS));
    assertTrue(prompt.getMessage().contains("line 1 has no string \"prompt\""),
        prompt.getMessage());

    Path badLen = jsonl("{\"prompt\": \"ok\", \"output_len\": \"ten\"}\n");
    DatasetException len = assertThrows(DatasetException.class,
        () -> Datasets.custom(badLen).sample(Gpt2.WORDS));
    assertTrue(len.getMessage().contains("output_len"), len.getMessage());

    Path empty = jsonl("\n\n");
    assertThrows(DatasetException.class, () -> Datasets.custom(empty).sample(Gpt2.WORDS));
    assertThrows(DatasetException.class,
        () -> Datasets.custom(dir.resolve("missing.jsonl")).sample(Gpt2.WORDS));
    assertThrows(IllegalArgumentException.class, () -> Datasets.custom(SAMPLE).outputLen(0));
  }
}
