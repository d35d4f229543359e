package dev.gatlingllm.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.tool.Tool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Entry point to the datasets of {@code vllm bench serve}: one builder per dataset, and a
 * factory that builds any of them from vLLM's command-line flags.
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

  /** The dataset names {@code --dataset-name} accepts. */
  public static final Set<String> NAMES = Set.of("random", "sharegpt", "sonnet", "burstgpt",
      "custom", "prefix_repetition", "hf", "random-mm", "random-rerank", "spec_bench",
      "timed_trace", "speed_bench", "txt-slices", "custom_image", "custom_audio",
      "mixed_serving_boundary");

  /**
   * The datasets whose requests carry their own arrival times ({@link Samples#arrivalSeconds}),
   * replayed instead of {@code --request-rate} unless {@code --no-self-timed}, as vLLM does.
   */
  public static final Set<String> SELF_TIMED = Set.of("timed_trace");

  /** {@code --dataset-name} when none is given, as in current vLLM. */
  public static final String DEFAULT_NAME = "random";

  /** Flags every dataset accepts. */
  private static final Set<String> COMMON_FLAGS = Set.of("dataset-name", "dataset-path",
      "num-prompts", "seed", "no-oversample", "disable-shuffle", "request-id-prefix",
      "skip-chat-template", "no-stream");

  /** Flags that only one dataset accepts, by dataset name. */
  private static final Map<String, Set<String>> OWN_FLAGS = Map.ofEntries(
      Map.entry("random", Set.of("random-input-len", "random-output-len", "random-range-ratio",
          "random-prefix-len", "random-batch-size", "random-cache-hit-fraction",
          "random-cache-ratio")),
      Map.entry("sharegpt", Set.of("sharegpt-output-len")),
      Map.entry("sonnet", Set.of("sonnet-input-len", "sonnet-output-len", "sonnet-prefix-len")),
      Map.entry("burstgpt", Set.of()),
      // vLLM's --mixed-boundary-* flags are not known to this release (BenchFlagSpec refuses them)
      Map.entry("mixed_serving_boundary", Set.of()),
      Map.entry("custom", Set.of("custom-output-len", "custom-skip-chat-template")),
      Map.entry("prefix_repetition", Set.of("prefix-repetition-prefix-len",
          "prefix-repetition-suffix-len", "prefix-repetition-num-prefixes",
          "prefix-repetition-output-len")),
      Map.entry("hf", Set.of("hf-subset", "hf-split", "hf-name", "hf-output-len",
          "blazedit-min-distance", "blazedit-max-distance", "asr-min-audio-len-sec",
          "asr-max-audio-len-sec", "bfcl-categories", "hf-text-column")),
      Map.entry("random-mm", Set.of("random-input-len", "random-output-len",
          "random-range-ratio", "random-prefix-len", "random-mm-base-items-per-request",
          "random-mm-num-mm-items-range-ratio", "random-mm-limit-mm-per-prompt",
          "random-mm-bucket-config")),
      Map.entry("random-rerank", Set.of("random-input-len", "random-range-ratio",
          "random-batch-size", "no-reranker")),
      Map.entry("spec_bench", Set.of("spec-bench-output-len", "spec-bench-category")),
      Map.entry("timed_trace", Set.of("timed-trace-chunk-hash-size",
          "timed-trace-sec-multiplier", "timed-trace-label-timestamp",
          "timed-trace-label-input-length", "timed-trace-label-output-length",
          "timed-trace-label-hash-ids")),
      Map.entry("custom_image", Set.of("custom-output-len",
          "custom-ensure-client-side-data")),
      Map.entry("custom_audio", Set.of("custom-output-len")),
      Map.entry("txt-slices", Set.of("random-input-len", "random-output-len",
          "random-range-ratio")),
      Map.entry("speed_bench", Set.of("speed-bench-dataset-subset", "speed-bench-output-len",
          "speed-bench-category", "speed-bench-config", "speed-bench-max-input-len")));

  /** Every flag name (without dashes in front) that {@link #fromFlags} understands. */
  public static final Set<String> FLAGS = Stream.concat(COMMON_FLAGS.stream(),
          OWN_FLAGS.values().stream().flatMap(Set::stream))
      .collect(Collectors.toUnmodifiableSet());

  private static final Set<String> BOOLEAN_FLAGS = Set.of("no-oversample", "disable-shuffle",
      "skip-chat-template", "no-stream", "custom-skip-chat-template", "no-reranker",
      "custom-ensure-client-side-data");

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
    CommandSpec spec = CommandSpec.create().name("dataset");
    // argparse's habits: the last of a repeated flag wins; "@" starts a value, not a file
    spec.parser().overwrittenOptionsAllowed(true).expandAtFiles(false)
        .unmatchedOptionsAllowedAsOptionParameters(false);
    for (String flag : new TreeSet<>(FLAGS)) {
      // a switch may be given true or false, as fromFlags reads it
      spec.addOption(OptionSpec.builder("--" + flag).type(String.class)
          .arity(BOOLEAN_FLAGS.contains(flag) ? "0..1" : "1").build());
    }
    ParseResult parsed;
    try {
      parsed = new CommandLine(spec).parseArgs(Stream.of(args)
          .map(a -> a.startsWith("--") ? "--" + normalize(a) : a).toArray(String[]::new));
    } catch (UnmatchedArgumentException e) {
      String word = e.getUnmatched().get(0);
      throw new IllegalArgumentException(word.startsWith("--")
          ? "Unknown dataset flag " + word.replaceFirst("=.*", "") + "; did you mean --"
              + Tool.nearest(normalize(word.replaceFirst("=.*", "")), FLAGS).orElseThrow() + "?"
          : "Expected a --flag, got '" + word + "'");
    } catch (ParameterException e) {
      throw new IllegalArgumentException(Tool.message(e));
    }
    Map<String, String> flags = new LinkedHashMap<>();
    for (OptionSpec option : parsed.matchedOptions()) {
      flags.put(option.longestName().substring(2), option.getValue());
    }
    return fromFlags(flags);
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
    Map<String, String> flags = new LinkedHashMap<>();
    raw.forEach((k, v) -> {
      String key = normalize(k);
      if (FLAGS.contains(key)) {
        flags.put(key, v == null ? "" : v.trim());
      }
    });
    String name = SpeedBenchFlags.datasetName(flags.getOrDefault("dataset-name", DEFAULT_NAME)
        .trim());
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("Unsupported --dataset-name '" + name
          + "'; supported: " + new TreeSet<>(NAMES));
    }
    List<String> foreign = new ArrayList<>();
    for (String key : flags.keySet()) {
      if (!COMMON_FLAGS.contains(key) && !OWN_FLAGS.get(name).contains(key)) {
        foreign.add("--" + key + " (" + owners(key) + ")");
      }
    }
    if (!foreign.isEmpty()) {
      throw new IllegalArgumentException("--dataset-name is " + name + " but these flags "
          + "belong to other datasets: " + String.join(", ", foreign));
    }
    Flags f = new Flags(flags);
    String path = f.string("dataset-path");
    DatasetBuilder<?> spec;
    switch (name) {
      case "random":
        noPath(name, path);
        RandomDataset random = random();
        random = f.has("random-input-len") ? random.inputLen(f.integer("random-input-len"))
            : random;
        random = f.has("random-output-len") ? random.outputLen(f.integer("random-output-len"))
            : random;
        random = f.has("random-range-ratio") ? f.rangeRatio(random) : random;
        random = f.has("random-prefix-len") ? random.prefixLen(f.integer("random-prefix-len"))
            : random;
        if (f.has("random-batch-size") && f.integer("random-batch-size") != 1) {
          throw new IllegalArgumentException("--random-batch-size "
              + f.string("random-batch-size") + " is not supported: batching is only for "
              + "embedding benchmarks; use 1");
        }
        spec = random;
        break;
      case "sharegpt":
        ShareGptDataset shareGpt = shareGpt(needPath(name, path));
        spec = f.has("sharegpt-output-len")
            ? shareGpt.outputLen(f.integer("sharegpt-output-len")) : shareGpt;
        break;
      case "sonnet":
        SonnetDataset sonnet = sonnet(needPath(name, path));
        sonnet = f.has("sonnet-input-len") ? sonnet.inputLen(f.integer("sonnet-input-len"))
            : sonnet;
        sonnet = f.has("sonnet-output-len") ? sonnet.outputLen(f.integer("sonnet-output-len"))
            : sonnet;
        spec = f.has("sonnet-prefix-len") ? sonnet.prefixLen(f.integer("sonnet-prefix-len"))
            : sonnet;
        break;
      case "burstgpt":
        spec = burstGpt(needPath(name, path));
        break;
      case "custom":
        // vLLM's flag always wins over a line's own output_len (default 256), except -1,
        // which keeps the lines' own (vLLM 0.29).
        // --custom-skip-chat-template asks for what always happens: prompts as written.
        int customOutput = f.has("custom-output-len") ? f.integer("custom-output-len")
            : CustomDataset.DEFAULT_OUTPUT_LEN;
        spec = customOutput == -1 ? custom(needPath(name, path))
            : custom(needPath(name, path)).outputLen(customOutput);
        break;
      case "prefix_repetition":
        noPath(name, path);
        PrefixRepetitionDataset rep = prefixRepetition();
        rep = f.has("prefix-repetition-prefix-len")
            ? rep.prefixLen(f.integer("prefix-repetition-prefix-len")) : rep;
        rep = f.has("prefix-repetition-suffix-len")
            ? rep.suffixLen(f.integer("prefix-repetition-suffix-len")) : rep;
        rep = f.has("prefix-repetition-num-prefixes")
            ? rep.numPrefixes(f.integer("prefix-repetition-num-prefixes")) : rep;
        spec = f.has("prefix-repetition-output-len")
            ? rep.outputLen(f.integer("prefix-repetition-output-len")) : rep;
        break;
      case "mixed_serving_boundary":
        noPath(name, path);
        spec = mixedServingBoundary();
        break;
      case "random-mm":
        noPath(name, path);
        RandomMultiModalDataset mm = randomMultiModal().text(randomText(f));
        mm = f.has("random-mm-base-items-per-request")
            ? mm.baseItemsPerRequest(f.integer("random-mm-base-items-per-request")) : mm;
        mm = f.has("random-mm-num-mm-items-range-ratio")
            ? mm.itemsRangeRatio(f.decimal("random-mm-num-mm-items-range-ratio")) : mm;
        mm = f.has("random-mm-limit-mm-per-prompt") ? mm.limitPerPrompt(
            RandomMultiModalDataset.parseLimits(f.string("random-mm-limit-mm-per-prompt"))) : mm;
        spec = f.has("random-mm-bucket-config") ? mm.buckets(
            RandomMultiModalDataset.parseBuckets(f.string("random-mm-bucket-config"))) : mm;
        break;
      case "random-rerank":
        noPath(name, path);
        RandomRerankDataset rerank = randomRerank().reranker(!f.bool("no-reranker"));
        rerank = f.has("random-input-len") ? rerank.inputLen(f.integer("random-input-len"))
            : rerank;
        // documents have only an input length: a dict gives its "input" ratio
        rerank = f.has("random-range-ratio")
            ? rerank.rangeRatio(f.rangeRatio(random()).rangeRatio()) : rerank;
        spec = f.has("random-batch-size") ? rerank.batchSize(f.integer("random-batch-size"))
            : rerank;
        break;
      case "spec_bench":
        SpecBenchDataset specBench = specBench(needPath(name, path))
            .category(f.string("spec-bench-category"));
        spec = f.has("spec-bench-output-len")
            ? specBench.outputLen(f.integer("spec-bench-output-len")) : specBench;
        break;
      case "custom_image":
      case "custom_audio":
        CustomMediaDataset custom = (name.equals("custom_image")
            ? customImage(needPath(name, path)) : customAudio(needPath(name, path)))
            .ensureClientSideData(f.bool("custom-ensure-client-side-data"));
        spec = f.has("custom-output-len") ? custom.outputLen(f.integer("custom-output-len"))
            : custom;
        break;
      case "txt-slices":
        if (path == null) {
          throw new IllegalArgumentException("The txt-slices dataset needs --dataset-path: a "
              + "text file or an http(s) URL");
        }
        TxtSlicesDataset slices = txtSlices(path);
        slices = f.has("random-input-len") ? slices.inputLen(f.integer("random-input-len"))
            : slices;
        slices = f.has("random-output-len") ? slices.outputLen(f.integer("random-output-len"))
            : slices;
        if (f.has("random-range-ratio")) {
          RandomDataset ratios = f.rangeRatio(random());
          slices = slices.rangeRatio(ratios.rangeRatio(), ratios.outputRangeRatio());
        }
        spec = slices;
        break;
      case "speed_bench":
        SpeedBenchDataset speed = speedBench(needPath(name, path))
            .category(f.string("speed-bench-category"));
        speed = SpeedBenchFlags.subset(f.string("speed-bench-dataset-subset"),
            f.string("speed-bench-config")).map(speed::subset).orElse(speed);
        speed = f.has("speed-bench-max-input-len")
            ? speed.maxInputLen(f.integer("speed-bench-max-input-len")) : speed;
        spec = f.has("speed-bench-output-len")
            ? speed.outputLen(f.integer("speed-bench-output-len")) : speed;
        break;
      case "timed_trace":
        TimedTraceDataset trace = timedTrace(needPath(name, path)).labels(
            new TimedTraceDataset.Labels(
                label(f, "timestamp", TimedTraceDataset.Labels.DEFAULTS.timestamp()),
                label(f, "input-length", TimedTraceDataset.Labels.DEFAULTS.inputLength()),
                label(f, "output-length", TimedTraceDataset.Labels.DEFAULTS.outputLength()),
                label(f, "hash-ids", TimedTraceDataset.Labels.DEFAULTS.hashIds())));
        trace = f.has("timed-trace-chunk-hash-size")
            ? trace.chunkHashSize(f.integer("timed-trace-chunk-hash-size")) : trace;
        spec = f.has("timed-trace-sec-multiplier")
            ? trace.secMultiplier(f.decimal("timed-trace-sec-multiplier")) : trace;
        break;
      default:
        if (path == null) {
          throw new IllegalArgumentException("The hf dataset needs --dataset-path: a hub dataset "
              + "id such as likaixin/InstructCoder, or a local .parquet/.jsonl/.json file");
        }
        if (BfclDataset.isBfcl(f.string("hf-name")) || BfclDataset.isBfcl(path)) {
          if (f.has("hf-text-column")) {
            throw new IllegalArgumentException("--hf-text-column is not for BFCL, whose "
                + "reader sends each question's first turn with its functions as tools");
          }
          spec = bfcl(path, f);
          break;
        }
        if (f.has("bfcl-categories")) {
          throw new IllegalArgumentException("--bfcl-categories is for the BFCL dataset: "
              + "--dataset-path " + BfclDataset.HUB_ID + " (or a folder of its files with "
              + "--hf-name " + BfclDataset.HUB_ID + ")");
        }
        HfDataset hf = hf(path).subset(f.string("hf-subset")).split(f.string("hf-split"))
            .hfName(f.string("hf-name"));
        hf = f.has("hf-text-column") ? hf.textColumn(f.string("hf-text-column")) : hf;
        hf = f.has("hf-output-len") ? hf.outputLen(f.integer("hf-output-len")) : hf;
        hf = f.has("blazedit-min-distance")
            ? hf.blazeditMinDistance(f.decimal("blazedit-min-distance")) : hf;
        hf = f.has("blazedit-max-distance")
            ? hf.blazeditMaxDistance(f.decimal("blazedit-max-distance")) : hf;
        hf = f.has("asr-min-audio-len-sec")
            ? hf.asrMinAudioLenSec(f.seconds("asr-min-audio-len-sec")) : hf;
        spec = f.has("asr-max-audio-len-sec")
            ? hf.asrMaxAudioLenSec(f.seconds("asr-max-audio-len-sec")) : hf;
    }
    DatasetBuilder<?> built = common(spec, f);
    // vllm-bench's bimodal prefix cache, over the finished random dataset; off at fraction 0
    return built instanceof RandomDataset random && f.has("random-cache-hit-fraction")
        && f.decimal("random-cache-hit-fraction") != 0
        ? RandomCacheHit.of(random, f.decimal("random-cache-hit-fraction"),
            f.has("random-cache-ratio") ? f.decimal("random-cache-ratio") : 0)
        : built;
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
    Map<String, String> flags = new LinkedHashMap<>();
    raw.forEach((k, v) -> flags.put(normalize(k), v == null ? "" : v.trim()));
    String name = SpeedBenchFlags.datasetName(flags.getOrDefault("dataset-name", DEFAULT_NAME)
        .trim());
    switch (name) {
      case "random-mm":
      case "custom_image":
      case "custom_audio":
        // custom_audio's clips are chat input_audio parts, sent the way images are
        return Optional.of(DatasetContent.VISUAL);
      case "random-rerank":
        return Optional.of(DatasetContent.RERANK);
      case "hf":
        if (!flags.getOrDefault("hf-text-column", "").isEmpty()) {
          // a column of text, whatever the dataset
          return Optional.of(DatasetContent.TEXT);
        }
        String hfName = flags.getOrDefault("hf-name", "");
        String path = flags.getOrDefault("dataset-path", "");
        String id = !hfName.isEmpty() ? hfName : path;
        if (id.isEmpty() || (hfName.isEmpty() && Files.exists(Path.of(path)))) {
          return Optional.empty();
        }
        return HfKind.byId(id).flatMap(HfKind::content);
      default:
        return Optional.of(DatasetContent.TEXT);
    }
  }

  /** vLLM's BFCL reader of {@code hf}, from the hub or a folder of its category files. */
  private static BfclDataset bfcl(String path, Flags f) {
    BfclDataset bfcl = new BfclDataset(path);
    bfcl = f.has("bfcl-categories") ? bfcl.categories(f.string("bfcl-categories")) : bfcl;
    return f.has("hf-output-len") ? bfcl.outputLen(f.integer("hf-output-len")) : bfcl;
  }

  /** A {@code --timed-trace-label-*} value, or its default. */
  private static String label(Flags f, String which, String fallback) {
    String value = f.string("timed-trace-label-" + which);
    return value == null ? fallback : value;
  }

  /** The text settings random-mm shares with random. */
  private static RandomDataset randomText(Flags f) {
    RandomDataset random = random();
    random = f.has("random-input-len") ? random.inputLen(f.integer("random-input-len")) : random;
    random = f.has("random-output-len") ? random.outputLen(f.integer("random-output-len"))
        : random;
    random = f.has("random-range-ratio") ? f.rangeRatio(random) : random;
    return f.has("random-prefix-len") ? random.prefixLen(f.integer("random-prefix-len")) : random;
  }

  private static <B extends DatasetBuilder<B>> B common(DatasetBuilder<B> spec, Flags f) {
    B out = spec.with(spec.common);
    if (f.has("num-prompts")) {
      int n = f.integer("num-prompts");
      if (n <= 0 && out instanceof CustomDataset custom) {
        @SuppressWarnings("unchecked")
        B all = (B) custom.allPrompts();
        out = all;
      } else if (n <= 0 && out instanceof SpecBenchDataset specBench) {
        @SuppressWarnings("unchecked")
        B all = (B) specBench.allPrompts();
        out = all;
      } else if (n <= 0 && out instanceof CustomMediaDataset media) {
        @SuppressWarnings("unchecked")
        B all = (B) media.allPrompts();
        out = all;
      } else if (n <= 0 && out instanceof SpeedBenchDataset speedBench) {
        @SuppressWarnings("unchecked")
        B all = (B) speedBench.allPrompts();
        out = all;
      } else {
        out = out.numPrompts(n);
      }
    }
    out = f.has("seed") ? out.seed(f.longValue("seed")) : out;
    out = out.noOversample(f.bool("no-oversample")).disableShuffle(f.bool("disable-shuffle"));
    return f.has("request-id-prefix") ? out.requestIdPrefix(f.string("request-id-prefix"))
        : out;
  }

  private static void noPath(String name, String path) {
    if (path != null) {
      throw new IllegalArgumentException("The " + name + " dataset is generated and reads no "
          + "file, but --dataset-path " + path + " was given; pick the --dataset-name that "
          + "matches the file (sharegpt, sonnet, burstgpt, custom, spec_bench, "
          + "speed_bench, timed_trace or hf)");
    }
  }

  private static Path needPath(String name, String path) {
    if (path == null) {
      throw new IllegalArgumentException("The " + name + " dataset needs --dataset-path");
    }
    return Path.of(path);
  }

  /** The datasets that accept {@code flag}, e.g. "random, random-mm or random-rerank". */
  private static String owners(String flag) {
    List<String> names = OWN_FLAGS.entrySet().stream()
        .filter(e -> e.getValue().contains(flag)).map(Map.Entry::getKey).sorted().toList();
    String last = names.get(names.size() - 1);
    return (names.size() == 1 ? last
        : String.join(", ", names.subList(0, names.size() - 1)) + " or " + last)
        + (names.size() == 1 ? " dataset" : " datasets");
  }

  private static String normalize(String flag) {
    String key = flag.trim();
    while (key.startsWith("-")) {
      key = key.substring(1);
    }
    return key.replace('_', '-').toLowerCase(Locale.ROOT);
  }

  /** Typed access to flag values, with errors that name the flag. */
  private static final class Flags {
    private final Map<String, String> values;

    Flags(Map<String, String> values) {
      this.values = values;
    }

    boolean has(String flag) {
      return values.containsKey(flag) && !values.get(flag).isEmpty();
    }

    String string(String flag) {
      return has(flag) ? values.get(flag) : null;
    }

    int integer(String flag) {
      try {
        return Integer.parseInt(values.get(flag));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--" + flag + " expects a whole number, got '"
            + values.get(flag) + "'");
      }
    }

    long longValue(String flag) {
      try {
        return Long.parseLong(values.get(flag));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--" + flag + " expects a whole number, got '"
            + values.get(flag) + "'");
      }
    }

    double decimal(String flag) {
      try {
        return Double.parseDouble(values.get(flag));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--" + flag + " expects a number, got '"
            + values.get(flag) + "'");
      }
    }

    /** Seconds, where Python's {@code inf} (vLLM's default) means no limit. */
    double seconds(String flag) {
      String v = values.get(flag).trim().toLowerCase(Locale.ROOT);
      return v.equals("inf") || v.equals("infinity") ? Double.POSITIVE_INFINITY : decimal(flag);
    }

    /**
     * {@code --random-range-ratio} on {@code random}: one number for both lengths, or JSON
     * {@code {"input": r, "output": r}} (a key left out is 0).
     */
    RandomDataset rangeRatio(RandomDataset random) {
      String v = values.get("random-range-ratio").trim();
      if (!v.startsWith("{")) {
        return random.rangeRatio(decimal("random-range-ratio"));
      }
      String usage = "--random-range-ratio expects a number or {\"input\": r, \"output\": r}"
          + ", got '" + v + "'";
      JsonNode node;
      try {
        node = DataFiles.JSON.readTree(v);
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(usage);
      }
      double[] ratios = new double[2];
      List<String> keys = List.of("input", "output");
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        int k = keys.indexOf(e.getKey());
        if (k < 0 || !e.getValue().isNumber()) {
          throw new IllegalArgumentException(usage);
        }
        ratios[k] = e.getValue().asDouble();
      }
      return random.rangeRatio(ratios[0], ratios[1]);
    }

    boolean bool(String flag) {
      if (!values.containsKey(flag)) {
        return false;
      }
      String v = values.get(flag).toLowerCase(Locale.ROOT);
      if (v.isEmpty() || v.equals("true")) {
        return true;
      }
      if (v.equals("false")) {
        return false;
      }
      if (BOOLEAN_FLAGS.contains(flag)) {
        throw new IllegalArgumentException("--" + flag + " is a switch; give no value, 'true' "
            + "or 'false', not '" + values.get(flag) + "'");
      }
      throw new IllegalArgumentException("--" + flag + " is not a switch");
    }
  }
}
