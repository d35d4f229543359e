package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.dataset.DatasetAccess;
import dev.gatlingllm.internal.flags.FlagValues;
import dev.gatlingllm.internal.flags.GivenValues;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Entry point to the datasets of {@code vllm bench serve}: one builder per dataset, and a
 * factory that builds any of them from vLLM's command-line flags ({@link #fromArgs},
 * {@link #fromFlags}; the drop-in's converted flag values come in through
 * {@code internal.dataset.DatasetAccess}). Which dataset takes which flag is said once, in the flag table's
 * datasets column ({@code bench-flags.tsv}), for these and for the drop-in alike.
 *
 * <pre>{@code
 * Tokenizer tokenizer = Tokenizer.gpt2();
 * Samples a = Datasets.random().inputLen(1024).outputLen(128).numPrompts(200).sample(tokenizer);
 * Samples b = Datasets.shareGpt(Path.of("datasets/sharegpt/sharegpt_sample.json"))
 *     .numPrompts(100).seed(1).sample(tokenizer);
 * Samples c = Datasets.fromArgs("--dataset-name", "sonnet",
 *     "--dataset-path", "datasets/sonnet/sonnet.txt", "--sonnet-input-len", "300").sample(tokenizer);
 * }</pre>
 */
public final class Datasets {

  /** The dataset names {@code --dataset-name} accepts, in the order its help lists them. */
  public static final Set<String> NAMES = Collections.unmodifiableSet(new LinkedHashSet<>(
      List.of("random", "sharegpt", "sonnet", "burstgpt", "custom", "prefix_repetition", "hf",
          "random-mm", "random-rerank", "spec_bench", "timed_trace", "speed_bench", "txt-slices",
          "custom_image", "custom_audio", "mixed_serving_boundary", "structured_output")));

  /**
   * The datasets whose requests carry their own arrival times ({@link Samples#arrivalSeconds}),
   * replayed instead of {@code --request-rate} unless {@code --no-self-timed}, as vLLM does.
   */
  public static final Set<String> SELF_TIMED = Set.of("timed_trace");

  /** {@code --dataset-name} when none is given, as in current vLLM. */
  public static final String DEFAULT_NAME = "random";

  /**
   * Every flag name (without dashes in front) that {@link #fromFlags} understands: the flags
   * the flag table ({@code bench-flags.tsv}, its datasets column) gives to some dataset.
   */
  public static final Set<String> FLAGS = DatasetFlags.NAMES;

  static {
    // the drop-in builds its dataset from flag values converted already, through this door
    DatasetAccess.install(new DatasetAccess.Hooks() {
      @Override
      public DatasetSpec fromFlags(FlagValues flags) {
        return DatasetFromFlags.build(flags);
      }

      @Override
      public Optional<DatasetContent> declaredContent(FlagValues flags) {
        return DatasetFromFlags.declaredContent(flags);
      }
    });
  }

  private Datasets() {}

  /** Synthetic prompts of controlled length ({@code random}). */
  public static RandomDataset random() {
    return new RandomDataset();
  }

  /** Conversations from a ShareGPT JSON file ({@code sharegpt}). */
  public static ShareGptDataset shareGpt(Path file) {
    return new ShareGptDataset(file);
  }

  /** Poem-line prompts with a shared prefix ({@code sonnet}). */
  public static SonnetDataset sonnet(Path file) {
    return new SonnetDataset(file);
  }

  /** Request/response sizes from a BurstGPT CSV trace ({@code burstgpt}). */
  public static BurstGptDataset burstGpt(Path file) {
    return new BurstGptDataset(file);
  }

  /** Prompts from a JSON Lines file with a {@code prompt} field ({@code custom}). */
  public static CustomDataset custom(Path file) {
    return new CustomDataset(file);
  }

  /**
   * Shared-prefix, long-prefill and long-decode requests in one run, each tagged with its
   * class ({@code mixed_serving_boundary}).
   */
  public static MixedServingBoundaryDataset mixedServingBoundary() {
    return new MixedServingBoundaryDataset();
  }

  /**
   * Chat requests that ask for a JSON answer following a schema, from the shipped schemas
   * ({@code structured_output}).
   */
  public static StructuredOutputDataset structuredOutput() {
    return new StructuredOutputDataset(null);
  }

  /** The same, from a JSON Lines file of {@code {"name", "prompt", "schema"}} of your own. */
  public static StructuredOutputDataset structuredOutput(String path) {
    return new StructuredOutputDataset(java.util.Objects.requireNonNull(path, "path"));
  }

  /** Synthetic prompts sharing a few prefixes ({@code prefix_repetition}). */
  public static PrefixRepetitionDataset prefixRepetition() {
    return new PrefixRepetitionDataset();
  }

  /** Random text with seeded random JPEG images, for vision models ({@code random-mm}). */
  public static RandomMultiModalDataset randomMultiModal() {
    return new RandomMultiModalDataset();
  }

  /** A random query with random documents, for rerank ({@code random-rerank}). */
  public static RandomRerankDataset randomRerank() {
    return new RandomRerankDataset();
  }

  /** Spec-Bench questions from its JSON Lines file ({@code spec_bench}). */
  public static SpecBenchDataset specBench(Path file) {
    return new SpecBenchDataset(file);
  }

  /**
   * A recorded trace replayed with its prefix sharing and its own arrival times, Mooncake's
   * JSONL among them ({@code timed_trace}).
   */
  public static TimedTraceDataset timedTrace(Path file) {
    return new TimedTraceDataset(file);
  }

  /** Prompts with image files from a JSON Lines file ({@code custom_image}). */
  public static CustomMediaDataset customImage(Path file) {
    return new CustomMediaDataset(file, CustomMediaDataset.Media.IMAGE);
  }

  /** Prompts with audio files from a JSON Lines file ({@code custom_audio}). */
  public static CustomMediaDataset customAudio(Path file) {
    return new CustomMediaDataset(file, CustomMediaDataset.Media.AUDIO);
  }

  /**
   * Slices of a text file (or an http(s) URL) at the random dataset's lengths
   * ({@code txt-slices}).
   */
  public static TxtSlicesDataset txtSlices(String pathOrUrl) {
    return new TxtSlicesDataset(pathOrUrl);
  }

  /** NVIDIA SPEED-Bench questions from its prepared folder ({@code speed_bench}). */
  public static SpeedBenchDataset speedBench(Path folder) {
    return new SpeedBenchDataset(folder);
  }

  /** A Hugging Face dataset by hub id, or a local Parquet/JSON/JSONL file ({@code hf}). */
  public static HfDataset hf(String idOrPath) {
    return new HfDataset(idOrPath);
  }

  /**
   * Builds a dataset from {@code vllm bench serve} arguments such as
   * {@code "--dataset-name", "random", "--random-input-len", "512", "--no-oversample"},
   * parsed by picocli. {@code --flag=value} works too; a switch takes no value (or
   * {@code true}/{@code false}).
   *
   * @throws IllegalArgumentException for an unknown flag, a bad value or conflicting flags
   */
  public static DatasetSpec fromArgs(String... args) {
    return DatasetFromFlags.build(DatasetFlags.parse(args));
  }

  /**
   * Builds a dataset from vLLM flag values keyed by flag name ({@code "--random-input-len"},
   * {@code "random-input-len"} and {@code "random_input_len"} are the same key). Keys that
   * are not dataset flags (see {@link #FLAGS}) are ignored, so a caller can pass all its
   * flags; boolean switches take {@code "true"}, {@code "false"} or an empty value.
   *
   * @throws IllegalArgumentException for a bad value, a flag of another dataset, or flags that
   *     conflict (such as {@code random} with a {@code --dataset-path})
   */
  public static DatasetSpec fromFlags(Map<String, String> raw) {
    return DatasetFromFlags.build(raw);
  }

  /**
   * What the requests of the dataset these flags name will carry, when the flags alone tell
   * (see {@link #fromFlags} for the keys); empty when only the data can tell: a local
   * {@code hf} file without {@code --hf-name}, a ShareGPT-style hub dataset (rows may hold an
   * image), or an unknown hub id (refused when loaded). Lets a caller refuse a request kind
   * that cannot send the dataset before anything is loaded; check {@link DatasetContent#of}
   * on the samples too.
   */
  public static Optional<DatasetContent> declaredContent(Map<String, String> raw) {
    return DatasetFromFlags.declaredContent(
        GivenValues.of(DatasetFromFlags.datasetFlags(raw)));
  }
}
