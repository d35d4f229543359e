package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PrefixRepetitionDatasetTest {

  @Test
  void requestsAreSpreadOverThePrefixesAndShareTheirText() {
    Samples samples = Datasets.prefixRepetition().prefixLen(40).suffixLen(20).numPrefixes(4)
        .outputLen(16).numPrompts(25).seed(8).sample(Gpt2.TOKENIZER);
    assertEquals(25, samples.size());
    Map<Object, List<SampleRequest>> byPrefix = samples.requests().stream().collect(
        Collectors.groupingBy(r -> r.extras().get(PrefixRepetitionDataset.PREFIX_ID),
            TreeMap::new, Collectors.toList()));
    assertEquals(List.of(7, 6, 6, 6), byPrefix.values().stream().map(List::size).toList());
    for (List<SampleRequest> group : byPrefix.values()) {
      String first = group.get(0).prompt();
      for (SampleRequest r : group) {
        int common = 0;
        while (common < first.length() && common < r.prompt().length()
            && first.charAt(common) == r.prompt().charAt(common)) {
          common++;
        }
        assertTrue(common >= 60, "40 shared tokens are well over 60 characters: " + common);
        assertEquals(Gpt2.TOKENIZER.count(r.prompt()), r.promptLen());
        assertTrue(Math.abs(r.promptLen() - 60) <= 2, r.toString());
        assertEquals(16, r.expectedOutputLen());
      }
    }
    long exact = samples.requests().stream().filter(r -> r.promptLen() == 60).count();
    assertTrue(exact >= 20, exact + " of 25 prompts have exactly prefix + suffix tokens");
    assertEquals(IntStream.range(0, 25).mapToObj(String::valueOf).toList(),
        samples.requests().stream().map(SampleRequest::requestId).toList(),
        "ids follow the shuffled order");
  }

  @Test
  void shuffledBySeedAndGroupedWhenShufflingIsOff() {
    PrefixRepetitionDataset spec = Datasets.prefixRepetition().prefixLen(10).suffixLen(5)
        .numPrefixes(3).numPrompts(12);
    assertEquals(spec.seed(1).sample(Gpt2.TOKENIZER).requests(),
        spec.seed(1).sample(Gpt2.TOKENIZER).requests());
    assertNotEquals(spec.seed(1).sample(Gpt2.TOKENIZER).requests(),
        spec.seed(2).sample(Gpt2.TOKENIZER).requests());
    List<Object> grouped = spec.disableShuffle(true).sample(Gpt2.TOKENIZER).requests().stream()
        .map(r -> r.extras().get(PrefixRepetitionDataset.PREFIX_ID)).toList();
    assertEquals(List.of(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2), grouped);
  }

  @Test
  void conflictingCountsAreRefused() {
    IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
        () -> Datasets.prefixRepetition().numPrefixes(10).numPrompts(5).sample(Gpt2.TOKENIZER));
    assertTrue(few.getMessage().contains("num-prompts 5"), few.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> Datasets.prefixRepetition().prefixLen(0).suffixLen(0).numPrompts(10)
            .sample(Gpt2.TOKENIZER));
    assertThrows(IllegalArgumentException.class, () -> Datasets.prefixRepetition().numPrefixes(0));
  }
}
