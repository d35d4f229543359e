package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.List;
import org.junit.jupiter.api.Test;

class MaxModelLenTest {

  /** A dataset giving these requests: prompt tokens and output tokens, in pairs. */
  private static DatasetSpec fixed(int... lens) {
    return new DatasetSpec() {
      @Override
      public String name() {
        return "custom";
      }

      @Override
      public int numPrompts() {
        return lens.length / 2;
      }

      @Override
      public long seed() {
        return 0;
      }

      @Override
      public Samples sample(Tokenizer tokenizer) {
        List<SampleRequest> r = new java.util.ArrayList<>();
        for (int i = 0; i < lens.length; i += 2) {
          r.add(new SampleRequest("p" + i / 2, lens[i], lens[i + 1], "id" + i / 2));
        }
        return new Samples("custom", r);
      }
    };
  }

  @Test
  void requestsOverTheContextAreDroppedAndTheRestKeptInOrder() {
    // max 15: 10+5 = 15 fits, 10+6 = 16 and 20+1 = 21 do not, 3+12 = 15 fits
    Samples s = MaxModelLen.of(fixed(10, 5, 10, 6, 20, 1, 3, 12), 15).sample(Gpt2.TOKENIZER);
    assertEquals(List.of("id0", "id3"), s.requests().stream().map(SampleRequest::requestId)
        .toList());
    assertEquals("custom", s.dataset());
  }

  @Test
  void nothingDroppedGivesTheSameSamples() {
    DatasetSpec spec = fixed(1, 1, 2, 2);
    Samples s = MaxModelLen.of(spec, 4).sample(Gpt2.TOKENIZER);
    assertEquals(2, s.size());
    assertEquals(2, MaxModelLen.of(spec, 4).numPrompts());
  }

  @Test
  void nothingLeftOrATooSmallContextIsRefused() {
    DatasetException e = assertThrows(DatasetException.class,
        () -> MaxModelLen.of(fixed(10, 10), 19).sample(Gpt2.TOKENIZER));
    assertTrue(e.getMessage().startsWith("--max-model-len 19: every one of the 1 requests"),
        e.getMessage());
    assertEquals("--max-model-len must be at least 2 (one prompt and one output token), got 1",
        assertThrows(IllegalArgumentException.class, () -> MaxModelLen.of(fixed(1, 1), 1))
            .getMessage());
  }

  @Test
  void theDropInWrapsItsDatasetWithTheFlag() {
    DatasetSpec random = Datasets.fromArgs("--dataset-name", "random", "--random-input-len",
        "20", "--random-output-len", "10", "--random-range-ratio", "0.5", "--num-prompts", "40",
        "--seed", "2");
    // inputs 10..30 and outputs 5..15 tokens: some of the 40 exceed 30, some do not
    Samples all = random.sample(Gpt2.TOKENIZER);
    long fitting = all.requests().stream().filter(r -> r.promptLen() + r.expectedOutputLen() <= 30)
        .count();
    assertTrue(fitting > 0 && fitting < 40, "the fixture needs both: " + fitting);
    Samples kept = MaxModelLen.of(random, 30).sample(Gpt2.TOKENIZER);
    assertEquals(fitting, kept.size());
    kept.requests().forEach(r -> assertTrue(r.promptLen() + r.expectedOutputLen() <= 30));
  }
}
