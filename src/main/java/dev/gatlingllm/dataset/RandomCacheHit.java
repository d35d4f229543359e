package dev.gatlingllm.dataset;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * vllm-bench's bimodal prefix cache for the random dataset ({@code --random-cache-hit-fraction}
 * and {@code --random-cache-ratio}): a fraction of the prompts is "warm" and starts with one
 * prefix they all share (a prefix-cache hit once the first of them was served), the rest is
 * "cold" (a full prefill). The prefix is {@code ratio × --random-input-len} tokens; the input
 * length stays the whole prompt's, as in vllm-bench. Which prompts are warm is drawn with the
 * seed: exactly {@code round(fraction × n)} of them, spread over the run.
 *
 * <p>The random dataset's prompts are made as usual, then each warm one has its first tokens
 * replaced by the shared prefix and is brought back to its exact length.
 */
final class RandomCacheHit implements DatasetSpec {

  private final RandomDataset random;
  private final double fraction;
  private final double ratio;

  private RandomCacheHit(RandomDataset random, double fraction, double ratio) {
    this.random = random;
    this.fraction = fraction;
    this.ratio = ratio;
  }

  /**
   * The random dataset with this share of warm prompts.
   *
   * @param fraction share of warm prompts, 0 to 1 ({@code --random-cache-hit-fraction})
   * @param ratio    share of a warm prompt's length that is the shared prefix, above 0 and
   *                 below 1 ({@code --random-cache-ratio})
   * @throws IllegalArgumentException for a value out of range, or with a random prefix
   */
  public static RandomCacheHit of(RandomDataset random, double fraction, double ratio) {
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException("--random-cache-hit-fraction must be between 0 and 1, "
          + "got " + fraction);
    }
    if (!(ratio > 0 && ratio < 1)) {
      throw new IllegalArgumentException("--random-cache-ratio must be above 0 and below 1 "
          + "with --random-cache-hit-fraction (the share of a warm prompt that is cached), got "
          + ratio);
    }
    if (random.prefixLen() > 0) {
      throw new IllegalArgumentException("--random-cache-hit-fraction with --random-prefix-len "
          + random.prefixLen() + ": the warm prompts' prefix is --random-cache-ratio of "
          + "--random-input-len; use one or the other");
    }
    return new RandomCacheHit(random, fraction, ratio);
  }

  /** Tokens of the shared prefix: {@code ratio × inputLen}, rounded. */
  int prefixTokens() {
    return (int) Math.round(ratio * random.inputLen());
  }

  /** Which of {@code n} prompts are warm: exactly {@code round(fraction × n)}, by the seed. */
  static boolean[] warm(int n, double fraction, long seed) {
    int count = (int) Math.round(fraction * n);
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    List<Integer> shuffled = new ArrayList<>(Arrays.asList(order));
    Sampling.shuffle(shuffled, seed);
    boolean[] out = new boolean[n];
    for (int k = 0; k < count; k++) {
      out[shuffled.get(k)] = true;
    }
    return out;
  }

  @Override
  public String name() {
    return random.name();
  }

  @Override
  public int numPrompts() {
    return random.numPrompts();
  }

  @Override
  public long seed() {
    return random.seed();
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    Samples cold = random.sample(tokenizer);
    int n = cold.size();
    boolean[] warm = warm(n, fraction, seed());
    int[] regular = tokenizer.regularTokenIds();
    int prefixLen = prefixTokens();
    int[] prefix = TokenPrompts.random(regular, prefixLen,
        Sampling.rng(seed(), Sampling.Stream.PICK));
    List<Integer> warmIndexes = new ArrayList<>();
    List<TokenPrompts.Prompt> warmPrompts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (!warm[i]) {
        continue;
      }
      SampleRequest r = cold.requests().get(i);
      int[] ids = tokenizer.encode(r.prompt());
      int shared = Math.min(prefixLen, ids.length);
      System.arraycopy(prefix, 0, ids, 0, shared);
      // the same length as the cold prompt it replaces (the random dataset's prompt_len)
      warmIndexes.add(i);
      warmPrompts.add(TokenPrompts.exactLength(tokenizer, ids, r.promptLen(), regular,
          Sampling.rng(seed(), Sampling.Stream.PICK, i)));
    }
    // re-aligned to the server's count like the cold ones, when the tokenizer carries it
    int[] targets = warmIndexes.stream().mapToInt(i -> cold.requests().get(i).promptLen())
        .toArray();
    List<TokenPrompts.Prompt> aligned = ServerAlignment.align(tokenizer, warmPrompts, targets);
    List<SampleRequest> out = new ArrayList<>(cold.requests());
    for (int w = 0; w < warmIndexes.size(); w++) {
      SampleRequest r = cold.requests().get(warmIndexes.get(w));
      TokenPrompts.Prompt p = aligned.get(w);
      out.set(warmIndexes.get(w), new SampleRequest(p.text(), p.tokens(),
          r.expectedOutputLen(), r.requestId(), r.extras()));
    }
    int warmCount = warmIndexes.size();
    return Sampling.done(name(), out, warmCount + " warm prompts sharing one prefix of "
        + prefixLen + " tokens, " + (n - warmCount) + " cold");
  }

  @Override
  public String toString() {
    return random + " with cache-hit fraction " + fraction + " and cache ratio " + ratio;
  }
}
