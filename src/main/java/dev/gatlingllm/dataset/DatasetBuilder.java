package dev.gatlingllm.dataset;

/**
 * Options shared by all datasets. Builders are immutable: each method returns a new builder,
 * so a base configuration can be reused:
 *
 * <pre>{@code
 * RandomDataset base = Datasets.random().numPrompts(500).seed(7);
 * Samples short = base.inputLen(128).sample(tokenizer);
 * Samples longer = base.inputLen(4096).sample(tokenizer);
 * }</pre>
 *
 * @param <SELF> the concrete builder type
 */
public abstract sealed class DatasetBuilder<SELF extends DatasetBuilder<SELF>>
    implements DatasetSpec
    permits RandomDataset, ShareGptDataset, SonnetDataset, BurstGptDataset, CustomDataset,
        PrefixRepetitionDataset, HfDataset, RandomRerankDataset, RandomMultiModalDataset,
        SpecBenchDataset, TimedTraceDataset, SpeedBenchDataset,
        TxtSlicesDataset, CustomMediaDataset, BfclDataset, MixedServingBoundaryDataset,
        StructuredOutputDataset {

  final Common common;

  DatasetBuilder(Common common) {
    this.common = common;
  }

  abstract SELF with(Common common);

  /** Number of requests to sample ({@code --num-prompts}, default 1000). */
  public SELF numPrompts(int count) {
    atLeast("num-prompts", count, 1);
    return with(common.withNumPrompts(count));
  }

  /** Random seed ({@code --seed}, default 0). */
  public SELF seed(long seed) {
    return with(new Common(common.numPrompts(), seed, common.noOversample(),
        common.disableShuffle(), common.requestIdPrefix()));
  }

  /**
   * When the data has fewer usable entries than {@link #numPrompts}, return only those
   * instead of repeating random ones ({@code --no-oversample}, default false).
   */
  public SELF noOversample(boolean value) {
    return with(new Common(common.numPrompts(), common.seed(), value, common.disableShuffle(),
        common.requestIdPrefix()));
  }

  /** Keep the file's order instead of shuffling it ({@code --disable-shuffle}). */
  public SELF disableShuffle(boolean value) {
    return with(new Common(common.numPrompts(), common.seed(), common.noOversample(), value,
        common.requestIdPrefix()));
  }

  /** Prefix of the request ids ({@code request_id = prefix + index}), default empty. */
  public SELF requestIdPrefix(String prefix) {
    if (prefix == null) {
      throw new IllegalArgumentException("request id prefix must not be null");
    }
    return with(new Common(common.numPrompts(), common.seed(), common.noOversample(),
        common.disableShuffle(), prefix));
  }

  /** The check of every count option: {@code option must be >= min, got value}. */
  static void atLeast(String option, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(option + " must be >= " + min + ", got " + value);
    }
  }

  @Override
  public int numPrompts() {
    return common.numPrompts();
  }

  @Override
  public long seed() {
    return common.seed();
  }

  /** The configured {@code noOversample}. */
  public boolean noOversample() {
    return common.noOversample();
  }

  /** The configured {@code disableShuffle}. */
  public boolean disableShuffle() {
    return common.disableShuffle();
  }

  /** The configured {@code requestIdPrefix}. */
  public String requestIdPrefix() {
    return common.requestIdPrefix();
  }
}
