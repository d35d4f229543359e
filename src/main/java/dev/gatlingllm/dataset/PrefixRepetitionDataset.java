package dev.gatlingllm.dataset;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Synthetic prompts that share a few prefixes ({@code --dataset-name prefix_repetition}), to
 * measure prefix caching: {@code numPrefixes} random prefixes of {@code prefixLen} tokens,
 * each followed in its requests by a fresh random suffix of {@code suffixLen} tokens.
 *
 * <p>Prefixes and suffixes are random regular tokens adjusted to decode and re-encode to
 * their exact lengths. The requests are spread evenly over the prefixes (vLLM gives each
 * {@code numPrompts / numPrefixes} and drops the remainder; here the first
 * {@code numPrompts % numPrefixes} prefixes get one more, so exactly {@code numPrompts}
 * requests come out), then shuffled unless {@link #disableShuffle}. {@code prompt_len} is the
 * real token count of the whole prompt. With a tokenizer {@link Tokenizer#realignedBy
 * re-aligned by} the server's, each prompt is then brought to {@code prefixLen + suffixLen}
 * of the server's tokens (cut or topped up at its end) and {@code prompt_len} is the server's
 * count, as in vLLM 0.29. The prefix index is in the extra feeder key {@value #PREFIX_ID}.
 */
public final class PrefixRepetitionDataset extends DatasetBuilder<PrefixRepetitionDataset> {

  public static final int DEFAULT_PREFIX_LEN = 256;
  public static final int DEFAULT_SUFFIX_LEN = 256;
  public static final int DEFAULT_NUM_PREFIXES = 10;
  public static final int DEFAULT_OUTPUT_LEN = 128;
  /** Feeder key of the index of the prefix a prompt starts with (Integer). */
  public static final String PREFIX_ID = "prefix_id";

  private final int prefixLen;
  private final int suffixLen;
  private final int numPrefixes;
  private final int outputLen;

  PrefixRepetitionDataset() {
    this(Common.DEFAULTS, DEFAULT_PREFIX_LEN, DEFAULT_SUFFIX_LEN, DEFAULT_NUM_PREFIXES,
        DEFAULT_OUTPUT_LEN);
  }

  private PrefixRepetitionDataset(Common common, int prefixLen, int suffixLen, int numPrefixes,
      int outputLen) {
    super(common);
    this.prefixLen = prefixLen;
    this.suffixLen = suffixLen;
    this.numPrefixes = numPrefixes;
    this.outputLen = outputLen;
  }

  @Override
  PrefixRepetitionDataset with(Common common) {
    return new PrefixRepetitionDataset(common, prefixLen, suffixLen, numPrefixes, outputLen);
  }

  /** Tokens of each shared prefix ({@code --prefix-repetition-prefix-len}, default 256). */
  public PrefixRepetitionDataset prefixLen(int tokens) {
    atLeast("prefix-repetition-prefix-len", tokens, 0);
    return new PrefixRepetitionDataset(common, tokens, suffixLen, numPrefixes, outputLen);
  }

  /** Tokens of each request's own suffix ({@code --prefix-repetition-suffix-len}, 256). */
  public PrefixRepetitionDataset suffixLen(int tokens) {
    atLeast("prefix-repetition-suffix-len", tokens, 0);
    return new PrefixRepetitionDataset(common, prefixLen, tokens, numPrefixes, outputLen);
  }

  /** How many distinct prefixes ({@code --prefix-repetition-num-prefixes}, default 10). */
  public PrefixRepetitionDataset numPrefixes(int count) {
    atLeast("prefix-repetition-num-prefixes", count, 1);
    return new PrefixRepetitionDataset(common, prefixLen, suffixLen, count, outputLen);
  }

  /** Output tokens per request ({@code --prefix-repetition-output-len}, default 128). */
  public PrefixRepetitionDataset outputLen(int tokens) {
    atLeast("prefix-repetition-output-len", tokens, 1);
    return new PrefixRepetitionDataset(common, prefixLen, suffixLen, numPrefixes, tokens);
  }

  @Override
  public String name() {
    return "prefix_repetition";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    int n = common.numPrompts();
    if (n < numPrefixes) {
      throw new IllegalArgumentException("num-prompts " + n + " must be at least "
          + "prefix-repetition-num-prefixes " + numPrefixes + " so every prefix is used");
    }
    if (prefixLen + suffixLen < 1) {
      throw new IllegalArgumentException("prefix-repetition-prefix-len plus suffix-len must be "
          + ">= 1, got " + prefixLen + " + " + suffixLen);
    }
    int[] regular = tokenizer.regularTokenIds();
    int[][] prefixes = IntStream.range(0, numPrefixes).parallel()
        .mapToObj(p -> exactTokens(tokenizer, prefixLen, regular,
            Sampling.rng(common.seed(), Sampling.Stream.TOKENS, p)))
        .toArray(int[][]::new);
    // request k uses prefix owner[k]: the first n % numPrefixes prefixes get one extra
    int[] owner = new int[n];
    for (int p = 0, k = 0; p < numPrefixes; p++) {
      int count = n / numPrefixes + (p < n % numPrefixes ? 1 : 0);
      for (int s = 0; s < count; s++) {
        owner[k++] = p;
      }
    }
    List<TokenPrompts.Prompt> prompts = IntStream.range(0, n).parallel()
        .mapToObj(k -> {
          int[] prefix = prefixes[owner[k]];
          int[] suffix = exactTokens(tokenizer, suffixLen, regular,
              Sampling.rng(common.seed(), Sampling.Stream.PICK, k));
          int[] ids = new int[prefix.length + suffix.length];
          System.arraycopy(prefix, 0, ids, 0, prefix.length);
          System.arraycopy(suffix, 0, ids, prefix.length, suffix.length);
          String prompt = tokenizer.decode(ids);
          return new TokenPrompts.Prompt(prompt, tokenizer.count(prompt));
        }).toList();
    // with the server's tokenizer alongside, each prompt is re-aligned to the server's count
    // (a cut or top-up happens at the end, in the suffix, so prefixes stay shared)
    int[] targets = new int[n];
    Arrays.fill(targets, prefixLen + suffixLen);
    List<TokenPrompts.Prompt> aligned = ServerAlignment.align(tokenizer, prompts, targets);
    List<SampleRequest> requests = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      TokenPrompts.Prompt prompt = aligned.get(k);
      requests.add(new SampleRequest(prompt.text(), prompt.tokens(), outputLen, "",
          Map.of(PREFIX_ID, owner[k])));
    }
    if (!common.disableShuffle()) {
      Sampling.shuffle(requests, common.seed());
    }
    // ids follow the final order, so request i is always "<prefix>i"
    for (int i = 0; i < requests.size(); i++) {
      requests.set(i, requests.get(i).withRequestId(common.id(i)));
    }
    return Sampling.done(name(), requests, numPrefixes + " prefixes of " + prefixLen
        + " tokens, suffixes of " + suffixLen + " tokens");
  }

  private static int[] exactTokens(Tokenizer tokenizer, int length, int[] regular,
      SplittableRandom rng) {
    int[] ids = TokenPrompts.random(regular, length, rng);
    return tokenizer.encode(TokenPrompts.exactLength(tokenizer, ids, length, regular, rng)
        .text());
  }

  @Override
  public String toString() {
    return "prefix_repetition{prefixLen=" + prefixLen + ", suffixLen=" + suffixLen
        + ", numPrefixes=" + numPrefixes + ", outputLen=" + outputLen + ", " + common + "}";
  }
}
