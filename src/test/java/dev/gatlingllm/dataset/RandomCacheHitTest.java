package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RandomCacheHitTest {

  private static int count(boolean[] b) {
    int n = 0;
    for (boolean x : b) {
      n += x ? 1 : 0;
    }
    return n;
  }

  @Test
  void exactlyTheRoundedShareOfPromptsIsWarm() {
    assertEquals(8, count(RandomCacheHit.warm(10, 0.8, 0)));   // 8.0
    assertEquals(3, count(RandomCacheHit.warm(10, 0.25, 0)));  // 2.5 rounds up
    assertEquals(0, count(RandomCacheHit.warm(10, 0.04, 0)));  // 0.4
    assertEquals(10, count(RandomCacheHit.warm(10, 1.0, 0)));
    // the same seed picks the same prompts; they are not simply the first ones
    assertArrayEquals(RandomCacheHit.warm(40, 0.5, 7), RandomCacheHit.warm(40, 0.5, 7));
    boolean[] half = RandomCacheHit.warm(40, 0.5, 7);
    assertFalse(count(Arrays.copyOf(half, 20)) == 20, "spread over the run");
  }

  @Test
  void thePrefixIsTheRatioOfTheInputLength() {
    assertEquals(48, RandomCacheHit.of(Datasets.random().inputLen(64), 0.5, 0.75)
        .prefixTokens());
    // 0.5 × 3 = 1.5, rounded half up to 2
    assertEquals(2, RandomCacheHit.of(Datasets.random().inputLen(3), 0.5, 0.5).prefixTokens());
  }

  @Test
  void warmPromptsShareTheirFirstTokensAndKeepTheirLength() {
    DatasetSpec spec = Datasets.fromArgs("--dataset-name", "random", "--random-input-len", "64",
        "--random-output-len", "8", "--num-prompts", "10", "--seed", "3",
        "--random-cache-hit-fraction", "0.5", "--random-cache-ratio", "0.5");
    assertInstanceOf(RandomCacheHit.class, spec);
    Samples s = spec.sample(Gpt2.TOKENIZER);
    boolean[] warm = RandomCacheHit.warm(10, 0.5, 3);
    assertEquals(5, count(warm));
    List<SampleRequest> r = s.requests();
    int[] firstWarm = null;
    int warmSeen = 0;
    for (int i = 0; i < 10; i++) {
      assertEquals(64, r.get(i).promptLen(), "the total length is --random-input-len");
      assertEquals(64, Gpt2.TOKENIZER.encode(r.get(i).prompt()).length);
      int[] head = Arrays.copyOf(Gpt2.TOKENIZER.encode(r.get(i).prompt()), 31);
      if (warm[i]) {
        warmSeen++;
        // a 32-token prefix; the token at its edge may merge with the suffix when re-encoded
        if (firstWarm == null) {
          firstWarm = head;
        } else {
          assertArrayEquals(firstWarm, head, "warm prompt " + i);
        }
      }
    }
    assertEquals(5, warmSeen);
    for (int i = 0; i < 10; i++) {
      if (!warm[i]) {
        assertFalse(Arrays.equals(firstWarm,
            Arrays.copyOf(Gpt2.TOKENIZER.encode(r.get(i).prompt()), 31)), "cold prompt " + i);
      }
    }
    // the cold prompts are the random dataset's own, untouched
    Samples plain = Datasets.fromArgs("--dataset-name", "random", "--random-input-len", "64",
        "--random-output-len", "8", "--num-prompts", "10", "--seed", "3")
        .sample(Gpt2.TOKENIZER);
    for (int i = 0; i < 10; i++) {
      assertEquals(!warm[i], plain.requests().get(i).prompt().equals(r.get(i).prompt()),
          "prompt " + i);
    }
  }

  @Test
  void offAtZeroAndBadValuesAreRefused() {
    assertInstanceOf(RandomDataset.class, Datasets.fromArgs("--dataset-name", "random",
        "--random-cache-hit-fraction", "0", "--random-cache-ratio", "0.9"));
    IllegalArgumentException noRatio = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "random", "--random-cache-hit-fraction",
            "0.8"));
    assertTrue(noRatio.getMessage().startsWith("--random-cache-ratio must be above 0"),
        noRatio.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Datasets.fromArgs("--dataset-name",
        "random", "--random-cache-hit-fraction", "1.5", "--random-cache-ratio", "0.5"));
    IllegalArgumentException prefix = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "random", "--random-prefix-len", "8",
            "--random-cache-hit-fraction", "0.5", "--random-cache-ratio", "0.5"));
    assertTrue(prefix.getMessage().contains("use one or the other"), prefix.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Datasets.fromArgs("--dataset-name",
        "sharegpt", "--dataset-path", "x.json", "--random-cache-hit-fraction", "0.5"),
        "a random flag with another dataset");
  }
}
