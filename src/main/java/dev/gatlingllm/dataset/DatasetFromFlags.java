package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.FlagValues;
import dev.gatlingllm.internal.flags.GivenValues;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A dataset built from vLLM's flag values: the {@code --dataset-name} picks the builder, its
 * flags (as the flag table gives them to it, {@link DatasetFlags}) set it, and flags that
 * conflict or belong to another dataset are refused with vLLM's words. {@link Datasets#fromArgs}
 * and {@link Datasets#fromFlags} come here; the drop-in comes through the latter.
 */
final class DatasetFromFlags {

  private DatasetFromFlags() {}

  /**
   * Builds a dataset from vLLM flag values keyed by flag name ({@code "--random-input-len"},
   * {@code "random-input-len"} and {@code "random_input_len"} are the same key). Keys that
   * are not dataset flags (see {@link Datasets#FLAGS}) are ignored, so a caller can pass all its
   * flags; boolean switches take {@code "true"}, {@code "false"} or an empty value. Each value
   * is converted once, by its flag's kind, as the drop-in converts it.
   *
   * @throws IllegalArgumentException for a bad value, a flag of another dataset, or flags that
   *     conflict (such as {@code random} with a {@code --dataset-path})
   */
  static DatasetSpec build(Map<String, String> raw) {
    return build(GivenValues.of(datasetFlags(raw)));
  }

  /**
   * Builds a dataset from flag values converted already: those of {@link Datasets#fromArgs},
   * or the drop-in's. Only the dataset flags among them are read.
   *
   * @throws IllegalArgumentException for a flag of another dataset, or flags that conflict
   */
  static DatasetSpec build(FlagValues flags) {
    String name = SpeedBenchFlags.datasetName(
        flags.value("dataset-name").orElse(Datasets.DEFAULT_NAME).trim());
    if (!Datasets.NAMES.contains(name)) {
      throw new IllegalArgumentException("Unsupported --dataset-name '" + name
          + "'; supported: " + new TreeSet<>(Datasets.NAMES));
    }
    List<String> foreign = new ArrayList<>();
    for (String key : flags.names()) {
      if (DatasetFlags.known(key) && !DatasetFlags.accepts(name, key)) {
        foreign.add("--" + key + " (" + DatasetFlags.owners(key) + ")");
      }
    }
    if (!foreign.isEmpty()) {
      throw new IllegalArgumentException("--dataset-name is " + name + " but these flags "
          + "belong to other datasets: " + String.join(", ", foreign));
    }
    DatasetFlagValues f = new DatasetFlagValues(name, flags);
    String path = f.string("dataset-path");
    DatasetBuilder<?> spec;
    switch (name) {
      case "random":
        noPath(name, path);
        RandomDataset random = Datasets.random();
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
        ShareGptDataset shareGpt = Datasets.shareGpt(needPath(name, path));
        spec = f.has("sharegpt-output-len")
            ? shareGpt.outputLen(f.integer("sharegpt-output-len")) : shareGpt;
        break;
      case "sonnet":
        SonnetDataset sonnet = Datasets.sonnet(needPath(name, path));
        sonnet = f.has("sonnet-input-len") ? sonnet.inputLen(f.integer("sonnet-input-len"))
            : sonnet;
        sonnet = f.has("sonnet-output-len") ? sonnet.outputLen(f.integer("sonnet-output-len"))
            : sonnet;
        spec = f.has("sonnet-prefix-len") ? sonnet.prefixLen(f.integer("sonnet-prefix-len"))
            : sonnet;
        break;
      case "burstgpt":
        spec = Datasets.burstGpt(needPath(name, path));
        break;
      case "custom":
        // vLLM's flag always wins over a line's own output_len (default 256), except -1,
        // which keeps the lines' own (vLLM 0.29).
        // --custom-skip-chat-template asks for what always happens: prompts as written.
        int customOutput = f.has("custom-output-len") ? f.integer("custom-output-len")
            : CustomDataset.DEFAULT_OUTPUT_LEN;
        spec = customOutput == -1 ? Datasets.custom(needPath(name, path))
            : Datasets.custom(needPath(name, path)).outputLen(customOutput);
        break;
      case "prefix_repetition":
        noPath(name, path);
        PrefixRepetitionDataset rep = Datasets.prefixRepetition();
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
        spec = Datasets.mixedServingBoundary();
        break;
      case "structured_output":
        spec = path == null || path.isEmpty() ? Datasets.structuredOutput()
            : Datasets.structuredOutput(path);
        break;
      case "random-mm":
        noPath(name, path);
        RandomMultiModalDataset mm = Datasets.randomMultiModal().text(randomText(f));
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
        RandomRerankDataset rerank = Datasets.randomRerank().reranker(!f.bool("no-reranker"));
        rerank = f.has("random-input-len") ? rerank.inputLen(f.integer("random-input-len"))
            : rerank;
        // documents have only an input length: a dict gives its "input" ratio
        rerank = f.has("random-range-ratio")
            ? rerank.rangeRatio(f.rangeRatio(Datasets.random()).rangeRatio()) : rerank;
        spec = f.has("random-batch-size") ? rerank.batchSize(f.integer("random-batch-size"))
            : rerank;
        break;
      case "spec_bench":
        SpecBenchDataset specBench = Datasets.specBench(needPath(name, path))
            .category(f.string("spec-bench-category"));
        spec = f.has("spec-bench-output-len")
            ? specBench.outputLen(f.integer("spec-bench-output-len")) : specBench;
        break;
      case "custom_image":
      case "custom_audio":
        // audio is always read here: only custom_image takes the switch
        CustomMediaDataset custom = name.equals("custom_image")
            ? Datasets.customImage(needPath(name, path))
                .ensureClientSideData(f.bool("custom-ensure-client-side-data"))
            : Datasets.customAudio(needPath(name, path));
        spec = f.has("custom-output-len") ? custom.outputLen(f.integer("custom-output-len"))
            : custom;
        break;
      case "txt-slices":
        if (path == null) {
          throw new IllegalArgumentException("The txt-slices dataset needs --dataset-path: a "
              + "text file or an http(s) URL");
        }
        TxtSlicesDataset slices = Datasets.txtSlices(path);
        slices = f.has("random-input-len") ? slices.inputLen(f.integer("random-input-len"))
            : slices;
        slices = f.has("random-output-len") ? slices.outputLen(f.integer("random-output-len"))
            : slices;
        if (f.has("random-range-ratio")) {
          RandomDataset ratios = f.rangeRatio(Datasets.random());
          slices = slices.rangeRatio(ratios.rangeRatio(), ratios.outputRangeRatio());
        }
        spec = slices;
        break;
      case "speed_bench":
        SpeedBenchDataset speed = Datasets.speedBench(needPath(name, path))
            .category(f.string("speed-bench-category"));
        speed = SpeedBenchFlags.subset(f.string("speed-bench-dataset-subset"),
            f.string("speed-bench-config")).map(speed::subset).orElse(speed);
        speed = f.has("speed-bench-max-input-len")
            ? speed.maxInputLen(f.integer("speed-bench-max-input-len")) : speed;
        spec = f.has("speed-bench-output-len")
            ? speed.outputLen(f.integer("speed-bench-output-len")) : speed;
        break;
      case "timed_trace":
        TimedTraceDataset trace = Datasets.timedTrace(needPath(name, path)).labels(
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
        HfDataset hf = Datasets.hf(path).subset(f.string("hf-subset")).split(f.string("hf-split"))
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
   * (see {@link #build} for the keys); empty when only the data can tell: a local
   * {@code hf} file without {@code --hf-name}, a ShareGPT-style hub dataset (rows may hold an
   * image), or an unknown hub id (refused when loaded). Lets a caller refuse a request kind
   * that cannot send the dataset before anything is loaded; check {@link DatasetContent#of}
   * on the samples too.
   */
  static Optional<DatasetContent> declaredContent(FlagValues flags) {
    String name = SpeedBenchFlags.datasetName(
        flags.value("dataset-name").orElse(Datasets.DEFAULT_NAME).trim());
    switch (name) {
      case "random-mm":
      case "custom_image":
      case "custom_audio":
        // custom_audio's clips are chat input_audio parts, sent the way images are
        return Optional.of(DatasetContent.VISUAL);
      case "random-rerank":
        return Optional.of(DatasetContent.RERANK);
      case "hf":
        if (!flags.value("hf-text-column").orElse("").isEmpty()) {
          // a column of text, whatever the dataset
          return Optional.of(DatasetContent.TEXT);
        }
        String hfName = flags.value("hf-name").orElse("");
        String path = flags.value("dataset-path").orElse("");
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
  private static BfclDataset bfcl(String path, DatasetFlagValues f) {
    BfclDataset bfcl = new BfclDataset(path);
    bfcl = f.has("bfcl-categories") ? bfcl.categories(f.string("bfcl-categories")) : bfcl;
    return f.has("hf-output-len") ? bfcl.outputLen(f.integer("hf-output-len")) : bfcl;
  }

  /** A {@code --timed-trace-label-*} value, or its default. */
  private static String label(DatasetFlagValues f, String which, String fallback) {
    String value = f.string("timed-trace-label-" + which);
    return value == null ? fallback : value;
  }

  /** The text settings random-mm shares with random. */
  private static RandomDataset randomText(DatasetFlagValues f) {
    RandomDataset random = Datasets.random();
    random = f.has("random-input-len") ? random.inputLen(f.integer("random-input-len")) : random;
    random = f.has("random-output-len") ? random.outputLen(f.integer("random-output-len"))
        : random;
    random = f.has("random-range-ratio") ? f.rangeRatio(random) : random;
    return f.has("random-prefix-len") ? random.prefixLen(f.integer("random-prefix-len")) : random;
  }

  private static <B extends DatasetBuilder<B>> B common(DatasetBuilder<B> spec,
      DatasetFlagValues f) {
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

  /** The dataset flags of {@code raw}, by the table's name; the other keys left out. */
  static Map<String, String> datasetFlags(Map<String, String> raw) {
    Map<String, String> flags = new LinkedHashMap<>();
    raw.forEach((k, v) -> {
      String key = BenchFlags.normalize(k);
      if (DatasetFlags.known(key)) {
        flags.put(key, v);
      }
    });
    return flags;
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
}
