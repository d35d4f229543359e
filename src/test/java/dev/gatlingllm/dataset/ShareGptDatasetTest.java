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
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShareGptDatasetTest {

  static final Path SAMPLE = Path.of("datasets/sharegpt/sharegpt_sample.json");

  @TempDir Path dir;

  /** n words of the word tokenizer: n tokens, n + 1 with its {@code <s>}. */
  static String words(int n) {
    String[] vocab = {"hello", "world", "foo", "bar"};
    return IntStream.range(0, n).mapToObj(i -> vocab[i % 4]).collect(Collectors.joining(" "));
  }

  static Map<String, Object> chat(String... turns) {
    List<Map<String, String>> conversation = new ArrayList<>();
    for (int i = 0; i < turns.length; i++) {
      conversation.add(Map.of("from", i % 2 == 0 ? "human" : "gpt", "value", turns[i]));
    }
    return Map.of("conversations", conversation);
  }

  Path write(Object json) throws IOException {
    Path file = dir.resolve("sharegpt-" + System.nanoTime() + ".json");
    DataFiles.JSON.writeValue(file.toFile(), json);
    return file;
  }

  /** Counts include {@code <s>}: prompt/reply lengths below are words + 1. */
  Path pruningFixture() throws IOException {
    return write(List.of(
        chat(words(3), words(3)),            // A 4+4: kept
        chat(words(2), words(3)),            // B prompt 3 < 4: pruned
        chat(words(3), words(2)),            // C reply 3 < 4: pruned unless output is forced
        chat(words(1024), words(3)),         // D prompt 1025 > 1024: pruned
        chat(words(1023), words(3)),         // D' prompt 1024: kept (boundary)
        chat(words(1000), words(1047)),      // E total 1001+1048 = 2049 > 2048: pruned
        chat(words(1000), words(1046)),      // E' total 2048: kept (boundary)
        chat(words(5)),                      // one turn: not a pair
        Map.of("id", "no conversations")));  // no conversations at all
  }

  @Test
  void pruningFollowsVllmsLimitsIncludingTheBoundaries() throws IOException {
    Samples samples = Datasets.shareGpt(pruningFixture()).numPrompts(3).sample(Gpt2.WORDS);
    Set<Integer> promptLens = samples.requests().stream().map(SampleRequest::promptLen)
        .collect(Collectors.toSet());
    assertEquals(Set.of(4, 1024, 1001), promptLens);
    for (SampleRequest r : samples.requests()) {
      assertEquals(Map.of(4, 4, 1024, 4, 1001, 1047).get(r.promptLen()), r.expectedOutputLen());
    }
  }

  @Test
  void aForcedOutputLengthSkipsTheShortReplyCheckButNotTheTotal() throws IOException {
    Samples samples = Datasets.shareGpt(pruningFixture()).outputLen(2).numPrompts(5)
        .noOversample(true).sample(Gpt2.WORDS);
    // A, C, D', E, E' survive; B (short prompt) and D (long prompt) do not
    assertEquals(List.of(4, 4, 1001, 1001, 1024), samples.requests().stream()
        .map(SampleRequest::promptLen).sorted().toList());
    samples.requests().forEach(r -> assertEquals(2, r.expectedOutputLen()));
  }

  @Test
  void tooFewPairsAreOversampledUnderNewIdsUnlessAskedNotTo() throws IOException {
    Path file = pruningFixture();
    Samples ten = Datasets.shareGpt(file).numPrompts(10).requestIdPrefix("r").sample(Gpt2.WORDS);
    assertEquals(10, ten.size());
    assertEquals(IntStream.range(0, 10).mapToObj(i -> "r" + i).toList(),
        ten.requests().stream().map(SampleRequest::requestId).toList());
    Set<String> distinctPrompts = new HashSet<>();
    ten.requests().forEach(r -> distinctPrompts.add(r.prompt()));
    assertEquals(3, distinctPrompts.size(), "copies repeat the three valid pairs");

    Samples noCopies = Datasets.shareGpt(file).numPrompts(10).noOversample(true)
        .sample(Gpt2.WORDS);
    assertEquals(3, noCopies.size());
  }

  @Test
  void theShippedSampleGivesValidPairsAndIsReproducible() {
    ShareGptDataset spec = Datasets.shareGpt(SAMPLE).numPrompts(100);
    Samples a = spec.seed(1).sample(Gpt2.TOKENIZER);
    assertEquals(100, a.size());
    for (SampleRequest r : a.requests()) {
      assertTrue(r.promptLen() >= 4 && r.promptLen() <= 1024, r.toString());
      assertTrue(r.expectedOutputLen() >= 4, r.toString());
      assertTrue(r.promptLen() + r.expectedOutputLen() <= 2048, r.toString());
      assertEquals(Gpt2.TOKENIZER.count(r.prompt()), r.promptLen());
    }
    assertEquals(a.requests(), spec.seed(1).sample(Gpt2.TOKENIZER).requests());
    assertNotEquals(a.requests(), spec.seed(2).sample(Gpt2.TOKENIZER).requests());
    // the file order is kept when shuffling is off
    Samples ordered = spec.disableShuffle(true).numPrompts(3).sample(Gpt2.TOKENIZER);
    assertEquals("Give me three practical tips for tuning event sourcing.",
        ordered.requests().get(0).prompt());
  }

  @Test
  void unusableFilesAreExplained() throws IOException {
    DatasetException missing = assertThrows(DatasetException.class,
        () -> Datasets.shareGpt(dir.resolve("absent.json")).sample(Gpt2.WORDS));
    assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());

    Path broken = Files.writeString(dir.resolve("broken.json"),
        "[{\"conversations\": [{\"from\": \"human\", \"value\": \"hi\"},\n {\"from\": ]}]");
    DatasetException malformed = assertThrows(DatasetException.class,
        () -> Datasets.shareGpt(broken).sample(Gpt2.WORDS));
    assertTrue(malformed.getMessage().contains("not valid JSON at line 2"),
        malformed.getMessage());

    Path object = write(Map.of("conversations", List.of()));
    DatasetException notArray = assertThrows(DatasetException.class,
        () -> Datasets.shareGpt(object).sample(Gpt2.WORDS));
    assertTrue(notArray.getMessage().contains("must hold a JSON array"), notArray.getMessage());

    Path allShort = write(List.of(chat(words(1), words(9)), chat(words(2), words(9))));
    DatasetException pruned = assertThrows(DatasetException.class,
        () -> Datasets.shareGpt(allShort).sample(Gpt2.WORDS));
    assertTrue(pruned.getMessage().contains("all 2 conversations were pruned"),
        pruned.getMessage());

    Path noPairs = write(List.of(chat(words(9))));
    DatasetException none = assertThrows(DatasetException.class,
        () -> Datasets.shareGpt(noPairs).sample(Gpt2.WORDS));
    assertTrue(none.getMessage().contains("no conversation with at least two turns"),
        none.getMessage());

    Path nonText = write(List.of(Map.of("conversations", List.of(Map.of("value", 1),
        Map.of("value", 2)))));
    DatasetException badTurn = assertThrows(DatasetException.class,
        () -> Datasets.shareGpt(nonText).sample(Gpt2.WORDS));
    assertTrue(badTurn.getMessage().contains("entry 1"), badTurn.getMessage());
  }
}
