package dev.gatlingllm.dataset;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Synthetic prompts of controlled length ({@code --dataset-name random}).
 *
 * <p>Each request draws an input length uniformly from
 * {@code [floor(L·(1−r)), ceil(L·(1+r))]} and an output length likewise (at least 1), where
 * {@code L} is the input (output) length and {@code r} the input's (output's) range ratio. The prompt is a fixed
 * random prefix of {@code prefixLen} tokens shared by all requests followed by consecutive
 * vocabulary ids from a random offset; it is decoded to text and re-encoded until it has
 * exactly {@code prefixLen + inputLen} tokens. When ten adjustments do not get there (rare),
 * the prompt keeps the length it has and {@code prompt_len} is that real count, never the
 * target; a warning gives the total difference. With a tokenizer {@link
 * Tokenizer#realignedBy re-aligned by} the server's, each prompt is then brought to the same
 * length in the server's tokens, as vLLM 0.29 does, and {@code prompt_len} is the server's
 * count.
 */
public final class RandomDataset extends DatasetBuilder<RandomDataset> {

  public static final int DEFAULT_INPUT_LEN = 1024;
  public static final int DEFAULT_OUTPUT_LEN = 128;
  public static final double DEFAULT_RANGE_RATIO = 0.0;
  public static final int DEFAULT_PREFIX_LEN = 0;

  private static final Logger LOG = LoggerFactory.getLogger(RandomDataset.class);

  private final int inputLen;
  private final int outputLen;
  private final double rangeRatio;
  private final double outputRangeRatio;
  private final int prefixLen;

  RandomDataset() {
    this(Common.DEFAULTS, DEFAULT_INPUT_LEN, DEFAULT_OUTPUT_LEN, DEFAULT_RANGE_RATIO,
        DEFAULT_RANGE_RATIO, DEFAULT_PREFIX_LEN);
  }

  private RandomDataset(Common common, int inputLen, int outputLen, double rangeRatio,
      double outputRangeRatio, int prefixLen) {
    super(common);
    this.inputLen = inputLen;
    this.outputLen = outputLen;
    this.rangeRatio = rangeRatio;
    this.outputRangeRatio = outputRangeRatio;
    this.prefixLen = prefixLen;
  }

  @Override
  RandomDataset with(Common common) {
    return new RandomDataset(common, inputLen, outputLen, rangeRatio, outputRangeRatio,
        prefixLen);
  }

  /** Input tokens per request after the prefix ({@code --random-input-len}, default 1024). */
  public RandomDataset inputLen(int tokens) {
    atLeast("random-input-len", tokens, 0);
    return new RandomDataset(common, tokens, outputLen, rangeRatio, outputRangeRatio,
        prefixLen);
  }

  /**
   * Output tokens per request ({@code --random-output-len}, default 128); 0 is accepted and,
   * as in vLLM, every drawn length is raised to at least 1.
   */
  public RandomDataset outputLen(int tokens) {
    atLeast("random-output-len", tokens, 0);
    return new RandomDataset(common, inputLen, tokens, rangeRatio, outputRangeRatio,
        prefixLen);
  }

  /**
   * Relative spread of input and output lengths, in [0, 1) ({@code --random-range-ratio},
   * default 0: every request has exactly the configured lengths).
   */
  public RandomDataset rangeRatio(double ratio) {
    return rangeRatio(ratio, ratio);
  }

  /**
   * Separate spreads of the input and output lengths, each in [0, 1)
   * ({@code --random-range-ratio '{"input": 0.2, "output": 0.5}'}).
   */
  public RandomDataset rangeRatio(double input, double output) {
    checkRatio(input);
    checkRatio(output);
    return new RandomDataset(common, inputLen, outputLen, input, output, prefixLen);
  }

  private static void checkRatio(double ratio) {
    if (!(ratio >= 0.0 && ratio < 1.0)) {
      throw new IllegalArgumentException("random-range-ratio must be in [0, 1), got " + ratio);
    }
  }

  /** Tokens of the random prefix every prompt starts with ({@code --random-prefix-len}). */
  public RandomDataset prefixLen(int tokens) {
    atLeast("random-prefix-len", tokens, 0);
    return new RandomDataset(common, inputLen, outputLen, rangeRatio, outputRangeRatio, tokens);
  }

  /** The configured {@code inputLen}. */
  public int inputLen() {
    return inputLen;
  }

  /** The configured {@code outputLen}. */
  public int outputLen() {
    return outputLen;
  }

  /** The configured range ratio of the input lengths. */
  public double rangeRatio() {
    return rangeRatio;
  }

  /** The configured range ratio of the output lengths. */
  public double outputRangeRatio() {
    return outputRangeRatio;
  }

  /** The configured {@code prefixLen}. */
  public int prefixLen() {
    return prefixLen;
  }

  @Override
  public String name() {
    return "random";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    int n = common.numPrompts();
    // Like vLLM, lengths are of the text the server sees, so special tokens the tokenizer
    // adds on its own are taken off the budget (the server's, when prompts are re-aligned
    // through it).
    int specialTokens = ServerAlignment.specialTokensToAdd(tokenizer);
    int realInput = Math.max(0, inputLen - specialTokens);
    int inLow = (int) Math.floor(realInput * (1 - rangeRatio));
    int inHigh = (int) Math.ceil(realInput * (1 + rangeRatio));
    int outLow = Math.max(1, (int) Math.floor(outputLen * (1 - outputRangeRatio)));
    int outHigh = Math.max(1, (int) Math.ceil(outputLen * (1 + outputRangeRatio)));
    if (prefixLen + inLow < 1) {
      throw new IllegalArgumentException("random-input-len " + inputLen + " is too small: with "
          + specialTokens + " special tokens, random-range-ratio "
          + rangeRatio + " and random-prefix-len " + prefixLen + " a prompt could have 0 tokens;"
          + " raise random-input-len or random-prefix-len, or lower random-range-ratio");
    }
    SplittableRandom lengths = Sampling.rng(common.seed(), Sampling.Stream.LENGTHS);
    int[] inputLens = new int[n];
    int[] outputLens = new int[n];
    long[] offsets = new long[n];
    for (int i = 0; i < n; i++) {
      inputLens[i] = lengths.nextInt(inLow, inHigh + 1);
    }
    for (int i = 0; i < n; i++) {
      outputLens[i] = lengths.nextInt(outLow, outHigh + 1);
    }
    for (int i = 0; i < n; i++) {
      offsets[i] = lengths.nextInt(tokenizer.vocabSize());
    }
    int[] regular = tokenizer.regularTokenIds();
    int[] prefix = TokenPrompts.random(regular, prefixLen,
        Sampling.rng(common.seed(), Sampling.Stream.TOKENS));
    // Prompts are independent (each has its own random stream), so they are built in
    // parallel; the result does not depend on the number of threads.
    List<TokenPrompts.Prompt> local = IntStream.range(0, n).parallel().mapToObj(i -> {
      int[] inner = TokenPrompts.consecutive(regular, offsets[i] + i, inputLens[i]);
      int[] ids = new int[prefixLen + inner.length];
      System.arraycopy(prefix, 0, ids, 0, prefixLen);
      System.arraycopy(inner, 0, ids, prefixLen, inner.length);
      return TokenPrompts.exactLength(tokenizer, ids, prefixLen + inputLens[i], regular,
          Sampling.rng(common.seed(), Sampling.Stream.TOKENS, i));
    }).toList();
    int[] targets = IntStream.range(0, n).map(i -> prefixLen + inputLens[i]).toArray();
    List<TokenPrompts.Prompt> prompts = ServerAlignment.align(tokenizer, local, targets);
    List<SampleRequest> requests = new ArrayList<>(n);
    long mismatch = 0;
    int exact = 0;
    for (int i = 0; i < n; i++) {
      TokenPrompts.Prompt prompt = prompts.get(i);
      int target = targets[i];
      mismatch += prompt.tokens() - target;
      exact += prompt.tokens() == target ? 1 : 0;
      requests.add(new SampleRequest(prompt.text(), prompt.tokens(), outputLens[i],
          common.id(i)));
    }
    if (exact < n) {
      LOG.warn("random: {} of {} prompts could not be brought to their exact target length; "
          + "they have {} {} tokens in total than targeted (prompt_len is their real length)",
          n - exact, n, Math.abs(mismatch), mismatch > 0 ? "more" : "fewer");
    }
    return Sampling.done(name(), requests, "input " + (prefixLen + inLow) + ".."
        + (prefixLen + inHigh) + " tokens, " + exact + "/" + n + " at exact target length");
  }

  @Override
  public String toString() {
    return "random{inputLen=" + inputLen + ", outputLen=" + outputLen + ", rangeRatio="
        + rangeRatio + ", outputRangeRatio=" + outputRangeRatio + ", prefixLen=" + prefixLen + ", " + common + "}";
  }
}
