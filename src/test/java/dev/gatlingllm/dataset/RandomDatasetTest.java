package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RandomDatasetTest {

  static final Tokenizer GPT2 = Gpt2.TOKENIZER;

  @Test
  void atLeast99PercentOf1000PromptsReencodeToExactlyTheTargetLength() {
    // vLLM's default input length; every prompt targets exactly 1024 tokens
    Samples samples = Datasets.random().numPrompts(1000).seed(0).sample(GPT2);
    assertEquals(1000, samples.size());
    long exact = samples.requests().stream().filter(r -> r.promptLen() == 1024).count();
    assertTrue(exact >= 990, "only " + exact + "/1000 prompts have exactly 1024 tokens");
    // prompt_len is the real count, whether or not the target was reached
    samples.requests().stream().limit(200)
        .forEach(r -> assertEquals(GPT2.count(r.prompt()), r.promptLen()));
  }

  @Test
  void lengthsStayInsideTheRangeRatioBounds() {
    // input 200, ratio 0.5: [100, 300]; output 100: [50, 150]; prefix adds 10
    Samples samples = Datasets.random().inputLen(200).outputLen(100).rangeRatio(0.5)
        .prefixLen(10).numPrompts(300).seed(3).sample(GPT2);
    assertEquals(300, samples.size());
    for (SampleRequest r : samples.requests()) {
      assertTrue(r.promptLen() >= 110 && r.promptLen() <= 310, r.toString());
      assertTrue(r.expectedOutputLen() >= 50 && r.expectedOutputLen() <= 150, r.toString());
      assertEquals(GPT2.count(r.prompt()), r.promptLen());
    }
    // lengths really vary across the range, not just sit at the mean
    int min = samples.requests().stream().mapToInt(SampleRequest::promptLen).min().orElseThrow();
    int max = samples.requests().stream().mapToInt(SampleRequest::promptLen).max().orElseThrow();
    assertTrue(min < 140 && max > 280, "range seen: " + min + ".." + max);
  }

  @Test
  void theRandomPrefixIsSharedByEveryPrompt() {
    Samples samples = Datasets.random().inputLen(50).prefixLen(30).numPrompts(40).seed(5)
        .sample(GPT2);
    int[] first = GPT2.encode(samples.requests().get(0).prompt());
    for (SampleRequest r : samples.requests()) {
      int[] ids = GPT2.encode(r.prompt());
      // the last prefix token may merge with what follows, the ones before cannot change
      assertTrue(Arrays.equals(first, 0, 25, ids, 0, 25), r.toString());
    }
    assertNotEquals(samples.requests().get(0).prompt(), samples.requests().get(1).prompt());
  }

  @Test
  void sameSeedSameRequestsOtherSeedOtherRequests() {
    RandomDataset spec = Datasets.random().inputLen(64).outputLen(16).rangeRatio(0.25)
        .numPrompts(50);
    List<SampleRequest> a = spec.seed(11).sample(GPT2).requests();
    List<SampleRequest> b = spec.seed(11).sample(GPT2).requests();
    List<SampleRequest> c = spec.seed(12).sample(GPT2).requests();
    assertEquals(a, b);
    assertNotEquals(a.stream().map(SampleRequest::prompt).toList(),
        c.stream().map(SampleRequest::prompt).toList());
    assertNotEquals(a.stream().map(SampleRequest::promptLen).toList(),
        c.stream().map(SampleRequest::promptLen).toList());
  }

  @Test
  void requestIdsFollowThePrefixAndIndex() {
    Samples samples = Datasets.random().inputLen(8).numPrompts(5).requestIdPrefix("bench-")
        .sample(GPT2);
    assertEquals(IntStream.range(0, 5).mapToObj(i -> "bench-" + i).toList(),
        samples.requests().stream().map(SampleRequest::requestId).toList());
  }

  @Test
  void specialTokensTheTokenizerAddsAreTakenOffTheInputLength() {
    // the word tokenizer adds <s>: 10 requested tokens leave 9 for the text, and the server
    // (which adds <s> too) sees 10
    Samples samples = Datasets.random().inputLen(10).numPrompts(20).sample(Gpt2.WORDS);
    for (SampleRequest r : samples.requests()) {
      assertEquals(9, r.promptLen(), r.toString());
      assertEquals(10, Gpt2.WORDS.countWithSpecialTokens(r.prompt()));
      assertTrue(!r.prompt().contains("<s>"), "special tokens are never used in prompts");
    }
  }

  @Test
  void badOptionsAreRefusedWithTheValueAndTheAllowedRange() {
    IllegalArgumentException ratio = assertThrows(IllegalArgumentException.class,
        () -> Datasets.random().rangeRatio(1.0));
    assertTrue(ratio.getMessage().contains("[0, 1)") && ratio.getMessage().contains("1.0"),
        ratio.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Datasets.random().outputLen(-1));
    assertThrows(IllegalArgumentException.class, () -> Datasets.random().inputLen(-1));
    assertThrows(IllegalArgumentException.class, () -> Datasets.random().numPrompts(0));
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
        () -> Datasets.random().inputLen(1).rangeRatio(0.5).sample(GPT2));
    assertTrue(empty.getMessage().contains("too small"), empty.getMessage());
  }

  @Test
  void buildersAreImmutable() {
    RandomDataset base = Datasets.random();
    RandomDataset changed = base.inputLen(7).outputLen(3).seed(9).numPrompts(2);
    assertEquals(RandomDataset.DEFAULT_INPUT_LEN, base.inputLen());
    assertEquals(1000, base.numPrompts());
    assertEquals(0, base.seed());
    assertEquals(7, changed.inputLen());
    assertEquals(2, changed.numPrompts());
  }
}
