package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MixedServingBoundaryDatasetTest {

  private static final String CLASS = MixedServingBoundaryDataset.WORKLOAD_CLASS;

  private static MixedServingBoundaryDataset small() {
    return Datasets.mixedServingBoundary().sharedPrefix(48, 16, 8).longPrefill(200, 4)
        .longDecode(12, 96);
  }

  private static Map<String, List<SampleRequest>> byClass(Samples samples) {
    return samples.requests().stream().collect(Collectors.groupingBy(
        r -> (String) r.extras().get(CLASS), TreeMap::new, Collectors.toList()));
  }

  @Test
  void aThirdOfTheRequestsInEachClassWithItsExactLengths() {
    Samples samples = small().numPrompts(31).seed(4).sample(Gpt2.TOKENIZER);
    assertEquals(31, samples.size());
    Map<String, List<SampleRequest>> classes = byClass(samples);
    // 31 = 10 + 10 + 10 and one more for the first class on the tie of remainders
    assertEquals(Map.of("shared_prefix", 11, "long_prefill", 10, "long_decode", 10),
        classes.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
            e -> e.getValue().size())));
    Map<String, int[]> lengths = Map.of("shared_prefix", new int[] {64, 8},
        "long_prefill", new int[] {200, 4}, "long_decode", new int[] {12, 96});
    classes.forEach((name, requests) -> {
      for (SampleRequest r : requests) {
        assertEquals(Gpt2.TOKENIZER.count(r.prompt()), r.promptLen(), r.toString());
        assertArrayEquals(lengths.get(name), new int[] {r.promptLen(), r.expectedOutputLen()},
            name + ": " + r);
      }
    });
    assertEquals(IntStream.range(0, 31).mapToObj(String::valueOf).toList(),
        samples.requests().stream().map(SampleRequest::requestId).toList());
  }

  @Test
  void theSharedPrefixIsTheSameTokensInEveryPromptOfItsClassAndNoOtherPromptRepeats() {
    Samples samples = small().numPrompts(12).seed(9).sample(Gpt2.TOKENIZER);
    Map<String, List<SampleRequest>> classes = byClass(samples);
    List<int[]> shared = classes.get("shared_prefix").stream()
        .map(r -> Gpt2.TOKENIZER.encode(r.prompt())).toList();
    // the server's prefix cache sees tokens: all but the last prefix token (which may merge
    // with the first own token when the text is encoded again) are the same everywhere
    int[] first = Arrays.copyOf(shared.get(0), 47);
    for (int[] ids : shared) {
      assertArrayEquals(first, Arrays.copyOf(ids, 47));
    }
    assertEquals(4, new HashSet<>(shared.stream().map(ids -> Arrays.toString(
        Arrays.copyOfRange(ids, 48, ids.length))).toList()).size(), "own suffixes differ");
    List<String> prefill = classes.get("long_prefill").stream().map(SampleRequest::prompt)
        .toList();
    assertEquals(4, new HashSet<>(prefill).size());
    for (String p : prefill) {
      assertNotEquals(Arrays.toString(first), Arrays.toString(
          Arrays.copyOf(Gpt2.TOKENIZER.encode(p), 47)), "long prefills share no prefix");
    }
  }

  @Test
  void theMixWeighsTheClassesAndShufflingFollowsTheSeed() {
    MixedServingBoundaryDataset spec = small().mix(2, 0, 1).numPrompts(10);
    List<Object> grouped = spec.disableShuffle(true).sample(Gpt2.TOKENIZER).requests().stream()
        .map(r -> r.extras().get(CLASS)).toList();
    // 10 * 2/3 = 6.67 and 10 * 1/3 = 3.33: the larger remainder gets the one left
    assertEquals(List.of("shared_prefix", "shared_prefix", "shared_prefix", "shared_prefix",
        "shared_prefix", "shared_prefix", "shared_prefix", "long_decode", "long_decode",
        "long_decode"), grouped);
    assertEquals(spec.seed(3).sample(Gpt2.TOKENIZER).requests(),
        spec.seed(3).sample(Gpt2.TOKENIZER).requests());
    assertNotEquals(spec.seed(3).sample(Gpt2.TOKENIZER).requests(),
        spec.seed(4).sample(Gpt2.TOKENIZER).requests());
  }

  @Test
  void countsGiveTheRemainderByLargestFraction() {
    assertArrayEquals(new int[] {100, 100, 100}, MixedServingBoundaryDataset.counts(300, 1, 1, 1));
    assertArrayEquals(new int[] {2, 1, 1}, MixedServingBoundaryDataset.counts(4, 1, 1, 1));
    assertArrayEquals(new int[] {1, 0, 0}, MixedServingBoundaryDataset.counts(1, 1, 1, 1));
    assertArrayEquals(new int[] {0, 5, 2}, MixedServingBoundaryDataset.counts(7, 0, 3, 1));
  }

  @Test
  void badOptionsAreRefusedByName() {
    assertEquals("the mixed_serving_boundary mix needs a weight above 0, got 0, 0, 0",
        assertThrows(IllegalArgumentException.class,
            () -> Datasets.mixedServingBoundary().mix(0, 0, 0)).getMessage());
    assertEquals("long-decode output length must be >= 1, got 0",
        assertThrows(IllegalArgumentException.class,
            () -> Datasets.mixedServingBoundary().longDecode(8, 0)).getMessage());
    String path = assertThrows(IllegalArgumentException.class, () -> Datasets.fromArgs(
        "--dataset-name", "mixed_serving_boundary", "--dataset-path", "x.json")).getMessage();
    assertTrue(path.startsWith("The mixed_serving_boundary dataset is generated and reads no "
        + "file, but --dataset-path x.json was given"), path);
  }

  @Test
  void theDropInBuildsItWithTheDefaults() {
    DatasetSpec spec = Datasets.fromArgs("--dataset-name", "mixed_serving_boundary",
        "--num-prompts", "300");
    assertTrue(spec instanceof MixedServingBoundaryDataset, spec.toString());
    assertEquals(300, spec.numPrompts());
    assertEquals("mixed_serving_boundary", spec.name());
  }
}
