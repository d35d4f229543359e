package dev.gatlingllm.dataset;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * One run that presses on three serving boundaries at once ({@code --dataset-name
 * mixed_serving_boundary}): requests of the class {@value #SHARED_PREFIX} share one prefix
 * (prefix-cache reuse), {@value #LONG_PREFILL} requests are long prompts of their own with a
 * short answer (prefill), {@value #LONG_DECODE} requests are short prompts with a long answer
 * (decode). Each request carries its class under {@value #WORKLOAD_CLASS}, the key vLLM gives
 * it, so the result can be split by class ({@code request_class_metrics}).
 *
 * <p>vLLM's own sampler could not be read for this release: the class names
 * {@value #LONG_PREFILL} and {@value #LONG_DECODE} and the key are vLLM's; the third class's
 * name, the mix and every length below are this release's own defaults, and vLLM's
 * {@code --mixed-boundary-*} flags are not known to it (they are refused, not guessed).
 *
 * <p>Prompts are random regular tokens adjusted to decode and re-encode to their exact
 * lengths, as the random dataset's are. The classes get their share of {@code numPrompts} by
 * weight (largest remainders to the earlier classes), then the requests are shuffled unless
 * {@link #disableShuffle}.
 */
public final class MixedServingBoundaryDataset
    extends DatasetBuilder<MixedServingBoundaryDataset> {

  /** Feeder key of the request's class name (String); vLLM's {@code request_metadata} key. */
  public static final String WORKLOAD_CLASS = "workload_class";
  public static final String SHARED_PREFIX = "shared_prefix";
  public static final String LONG_PREFILL = "long_prefill";
  public static final String LONG_DECODE = "long_decode";

  /** Lengths and weight of one class; {@code prefixLen} is 0 except for the shared one. */
  record RequestClass(String name, int weight, int prefixLen, int inputLen, int outputLen) {}

  static final RequestClass DEFAULT_SHARED = new RequestClass(SHARED_PREFIX, 1, 1024, 128, 128);
  static final RequestClass DEFAULT_PREFILL = new RequestClass(LONG_PREFILL, 1, 0, 4096, 32);
  static final RequestClass DEFAULT_DECODE = new RequestClass(LONG_DECODE, 1, 0, 64, 1024);

  private final RequestClass shared;
  private final RequestClass prefill;
  private final RequestClass decode;

  MixedServingBoundaryDataset() {
    this(Common.DEFAULTS, DEFAULT_SHARED, DEFAULT_PREFILL, DEFAULT_DECODE);
  }

  private MixedServingBoundaryDataset(Common common, RequestClass shared, RequestClass prefill,
      RequestClass decode) {
    super(common);
    this.shared = shared;
    this.prefill = prefill;
    this.decode = decode;
  }

  @Override
  MixedServingBoundaryDataset with(Common common) {
    return new MixedServingBoundaryDataset(common, shared, prefill, decode);
  }

  /**
   * The {@value #SHARED_PREFIX} requests: one prefix of {@code prefixLen} tokens shared by all
   * of them, then {@code suffixLen} tokens of their own (defaults 1024, 128, 128 out).
   */
  public MixedServingBoundaryDataset sharedPrefix(int prefixLen, int suffixLen, int outputLen) {
    atLeast("shared-prefix prefix length", prefixLen, 1);
    atLeast("shared-prefix suffix length", suffixLen, 0);
    atLeast("shared-prefix output length", outputLen, 1);
    return new MixedServingBoundaryDataset(common,
        new RequestClass(SHARED_PREFIX, shared.weight(), prefixLen, suffixLen, outputLen),
        prefill, decode);
  }

  /** The {@value #LONG_PREFILL} requests' lengths (defaults 4096 in, 32 out). */
  public MixedServingBoundaryDataset longPrefill(int inputLen, int outputLen) {
    atLeast("long-prefill input length", inputLen, 1);
    atLeast("long-prefill output length", outputLen, 1);
    return new MixedServingBoundaryDataset(common, shared,
        new RequestClass(LONG_PREFILL, prefill.weight(), 0, inputLen, outputLen), decode);
  }

  /** The {@value #LONG_DECODE} requests' lengths (defaults 64 in, 1024 out). */
  public MixedServingBoundaryDataset longDecode(int inputLen, int outputLen) {
    atLeast("long-decode input length", inputLen, 1);
    atLeast("long-decode output length", outputLen, 1);
    return new MixedServingBoundaryDataset(common, shared, prefill,
        new RequestClass(LONG_DECODE, decode.weight(), 0, inputLen, outputLen));
  }

  /**
   * The share of each class, as weights (default 1, 1, 1: a third each); 0 leaves a class
   * out, but not all three.
   */
  public MixedServingBoundaryDataset mix(int sharedPrefix, int longPrefill, int longDecode) {
    atLeast("shared-prefix weight", sharedPrefix, 0);
    atLeast("long-prefill weight", longPrefill, 0);
    atLeast("long-decode weight", longDecode, 0);
    if (sharedPrefix + longPrefill + longDecode == 0) {
      throw new IllegalArgumentException("the mixed_serving_boundary mix needs a weight above 0, "
          + "got 0, 0, 0");
    }
    return new MixedServingBoundaryDataset(common, reweighted(shared, sharedPrefix),
        reweighted(prefill, longPrefill), reweighted(decode, longDecode));
  }

  private static RequestClass reweighted(RequestClass c, int weight) {
    return new RequestClass(c.name(), weight, c.prefixLen(), c.inputLen(), c.outputLen());
  }

  @Override
  public String name() {
    return "mixed_serving_boundary";
  }

  /** How many requests each class gets out of {@code n}, in class order. */
  static int[] counts(int n, int... weights) {
    long total = IntStream.of(weights).asLongStream().sum();
    int[] counts = new int[weights.length];
    long[] remainders = new long[weights.length];
    int given = 0;
    for (int c = 0; c < weights.length; c++) {
      counts[c] = (int) (n * (long) weights[c] / total);
      remainders[c] = n * (long) weights[c] % total;
      given += counts[c];
    }
    for (; given < n; given++) {
      int best = 0;
      for (int c = 1; c < weights.length; c++) {
        if (remainders[c] > remainders[best]) {
          best = c;
        }
      }
      counts[best]++;
      remainders[best] = -1;
    }
    return counts;
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    int n = common.numPrompts();
    List<RequestClass> classes = List.of(shared, prefill, decode);
    int[] counts = counts(n, shared.weight(), prefill.weight(), decode.weight());
    RequestClass[] owner = new RequestClass[n];
    for (int c = 0, k = 0; c < classes.size(); c++) {
      for (int s = 0; s < counts[c]; s++) {
        owner[k++] = classes.get(c);
      }
    }
    int[] regular = tokenizer.regularTokenIds();
    int[] prefix = counts[0] == 0 ? new int[0] : tokenizer.encode(TokenPrompts.exactLength(
        tokenizer, TokenPrompts.random(regular, shared.prefixLen(),
            Sampling.rng(common.seed(), Sampling.Stream.TOKENS, -1)),
        shared.prefixLen(), regular, Sampling.rng(common.seed(), Sampling.Stream.TOKENS, -2))
        .text());
    List<SampleRequest> requests = new ArrayList<>(IntStream.range(0, n).parallel()
        .mapToObj(k -> request(tokenizer, owner[k], prefix, regular,
            Sampling.rng(common.seed(), Sampling.Stream.PICK, k)))
        .toList());
    if (!common.disableShuffle()) {
      Sampling.shuffle(requests, common.seed());
    }
    for (int i = 0; i < requests.size(); i++) {
      requests.set(i, requests.get(i).withRequestId(common.id(i)));
    }
    return Sampling.done(name(), requests, counts[0] + " " + SHARED_PREFIX + " ("
        + shared.prefixLen() + "+" + shared.inputLen() + " -> " + shared.outputLen() + "), "
        + counts[1] + " " + LONG_PREFILL + " (" + prefill.inputLen() + " -> "
        + prefill.outputLen() + "), " + counts[2] + " " + LONG_DECODE + " ("
        + decode.inputLen() + " -> " + decode.outputLen() + ")");
  }

  /**
   * One request of class {@code c}: the shared prefix (for that class) then its own random
   * tokens, brought to the exact total length; trimming or topping up happens at the end, so
   * the prefix stays the same text in every shared-prefix prompt.
   */
  private static SampleRequest request(Tokenizer tokenizer, RequestClass c, int[] prefix,
      int[] regular, SplittableRandom rng) {
    int[] own = TokenPrompts.random(regular, c.inputLen(), rng);
    int[] ids = own;
    if (c.prefixLen() > 0) {
      ids = new int[prefix.length + own.length];
      System.arraycopy(prefix, 0, ids, 0, prefix.length);
      System.arraycopy(own, 0, ids, prefix.length, own.length);
    }
    int target = c.prefixLen() + c.inputLen();
    TokenPrompts.Prompt prompt = TokenPrompts.exactLength(tokenizer, ids, target, regular, rng);
    return new SampleRequest(prompt.text(), prompt.tokens(), c.outputLen(), "",
        Map.of(WORKLOAD_CLASS, c.name()));
  }

  @Override
  public String toString() {
    return "mixed_serving_boundary{" + shared + ", " + prefill + ", " + decode + ", " + common
        + "}";
  }
}
