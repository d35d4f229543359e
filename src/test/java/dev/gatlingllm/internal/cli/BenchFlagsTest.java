package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BenchFlagsTest {

  /**
   * Every flag of the reference: {@code add_cli_args} of vLLM's {@code benchmarks/serve.py}
   * (reference 000), the dataset groups and {@code -h} of its {@code --help} (reference 004),
   * and current vLLM's {@code --num-warmups}. Typed in from the references, not from the code.
   */
  private static final List<String> REFERENCE = List.of("label", "backend", "base-url", "host",
      "port", "endpoint", "header", "max-concurrency", "model", "tokenizer", "use-beam-search",
      "logprobs", "request-rate", "burstiness", "trust-remote-code", "disable-tqdm", "profile",
      "save-result", "save-detailed", "append-result", "metadata", "result-dir",
      "result-filename", "ignore-eos", "percentile-metrics", "metric-percentiles", "goodput",
      "request-id-prefix", "top-p", "top-k", "min-p", "temperature", "frequency-penalty",
      "presence-penalty", "repetition-penalty", "tokenizer-mode", "served-model-name",
      "lora-modules", "ramp-up-strategy", "ramp-up-start-rps", "ramp-up-end-rps",
      "ready-check-timeout-sec", "dataset-name", "dataset-path", "num-prompts", "seed",
      "custom-output-len", "custom-skip-chat-template", "sonnet-input-len", "sonnet-output-len",
      "sonnet-prefix-len", "sharegpt-output-len", "random-input-len", "random-output-len",
      "random-prefix-len", "random-range-ratio", "hf-subset", "hf-split", "hf-output-len",
      "help", "num-warmups");

  /**
   * Every long flag of the newest {@code vllm bench serve} parser (vLLM 0.29:
   * {@code add_cli_args} of {@code vllm/benchmarks/serve.py} with its dataset parser), typed
   * in by hand from the parser's {@code add_argument} calls, {@code --help} left out.
   */
  private static final List<String> NEWEST_PYTHON = List.of("append-result",
      "asr-max-audio-len-sec", "asr-min-audio-len-sec", "backend", "base-url",
      "bfcl-categories", "blazedit-max-distance", "blazedit-min-distance", "burstiness",
      "chat-template-kwargs", "custom-ensure-client-side-data", "custom-output-len",
      "dataset-name", "dataset-path", "disable-shuffle", "disable-tqdm",
      "enable-multimodal-chat", "endpoint", "extra-body", "frequency-penalty", "goodput",
      "header", "hf-name", "hf-output-len", "hf-split", "hf-subset", "host", "ignore-eos",
      "input-len", "insecure", "label", "logprobs", "lora-assignment", "lora-modules",
      "max-concurrency", "metadata", "metric-percentiles", "min-p", "model", "no-oversample",
      "no-reranker", "no-self-timed", "no-stream", "num-prompts", "num-warmups", "output-len",
      "percentile-metrics", "plot-dataset-stats", "plot-timeline", "port",
      "prefix-repetition-num-prefixes", "prefix-repetition-output-len",
      "prefix-repetition-prefix-len", "prefix-repetition-suffix-len", "presence-penalty",
      "probe-request-rate", "profile", "ramp-up-end-rps", "ramp-up-start-rps",
      "ramp-up-strategy", "random-batch-size", "random-input-len",
      "random-mm-base-items-per-request", "random-mm-bucket-config",
      "random-mm-limit-mm-per-prompt", "random-mm-num-mm-items-range-ratio",
      "random-output-len", "random-prefix-len", "random-range-ratio", "ready-check-timeout-sec",
      "repetition-penalty", "request-id-prefix", "request-rate", "result-dir",
      "result-filename", "save-detailed", "save-result", "seed", "self-timed",
      "served-model-name", "sharegpt-output-len", "skip-chat-template", "skip-tokenizer-init",
      "sonnet-input-len", "sonnet-output-len", "sonnet-prefix-len", "spec-bench-category",
      "spec-bench-output-len", "speed-bench-category", "speed-bench-dataset-subset",
      "speed-bench-output-len", "temperature", "timed-trace-chunk-hash-size",
      "timed-trace-label-hash-ids", "timed-trace-label-input-length",
      "timed-trace-label-output-length", "timed-trace-label-timestamp",
      "timed-trace-sec-multiplier", "timeline-itl-thresholds", "tokenizer", "tokenizer-mode",
      "top-k", "top-p", "trust-remote-code", "use-beam-search");

  /**
   * The flags of vLLM's Rust client {@code vllm-bench} that its Python sibling lacks (its
   * {@code BenchServeArgs}, clap's {@code #[arg(long)]} fields, typed in by hand).
   */
  private static final List<String> VLLM_BENCH_ONLY = List.of("max-model-len",
      "per-turn-input-len", "random-cache-hit-fraction", "random-cache-ratio",
      "prompt-token-ids", "steady-state-threshold", "steady-state-min-window",
      "no-steady-state", "profile-batch-threshold", "profile-duration", "dry-run",
      "sweep-summary-percentiles", "speed-bench-config", "speed-bench-max-input-len",
      "hf-text-column", "compare", "sweep-max-concurrency", "sweep-num-prompts-factor",
      "sweep-request-rate", "reset-prefix-cache", "num-runs", "multi-turn",
      "multi-turn-num-turns", "multi-turn-min-turns", "multi-turn-max-turns",
      "multi-turn-concurrency", "multi-turn-delay-ms", "multi-turn-prefix-global-ratio",
      "multi-turn-prefix-conversation-ratio");

  /**
   * The flags vLLM added after the reference documents (mid-2025), as its release notes and
   * parser give them (shared/ANCHORS.md, "vLLM bench serve, newest").
   */
  private static final List<String> ADDED = List.of("input-len", "output-len",
      "report-cached-tokens",
      "probe-request-rate", "self-timed", "no-self-timed", "lora-assignment", "extra-body",
      "chat-template-kwargs", "skip-tokenizer-init", "insecure", "plot-timeline",
      "timeline-itl-thresholds", "plot-dataset-stats", "enable-multimodal-chat",
      "custom-ensure-client-side-data", "asr-min-audio-len-sec", "asr-max-audio-len-sec",
      "bfcl-categories", "speed-bench-dataset-subset", "speed-bench-output-len",
      "speed-bench-category", "timed-trace-chunk-hash-size", "timed-trace-sec-multiplier",
      "timed-trace-label-timestamp", "timed-trace-label-input-length",
      "timed-trace-label-output-length", "timed-trace-label-hash-ids");

  /** vLLM's defaults as its --help and argument parser give them. */
  private static final Map<String, String> VLLM_DEFAULTS = Map.ofEntries(
      Map.entry("backend", "openai"), Map.entry("host", "127.0.0.1"), Map.entry("port", "8000"),
      Map.entry("endpoint", "/v1/completions"), Map.entry("request-rate", "inf"),
      Map.entry("burstiness", "1.0"), Map.entry("percentile-metrics", "ttft,tpot,itl"),
      Map.entry("metric-percentiles", "99"), Map.entry("request-id-prefix", "bench-<8 hex>-"),
      Map.entry("tokenizer-mode", "auto"), Map.entry("ready-check-timeout-sec", "0"),
      Map.entry("model", "None"), Map.entry("temperature", "None"),
      Map.entry("lora-assignment", "random"), Map.entry("probe-request-rate", "0"),
      Map.entry("timeline-itl-thresholds", "25,50"), Map.entry("multi-turn-num-turns", "3"),
      Map.entry("steady-state-threshold", "0.95"), Map.entry("num-runs", "1"),
      Map.entry("num-prompts", "1000"), Map.entry("custom-output-len", "256"),
      Map.entry("sonnet-input-len", "550"), Map.entry("sonnet-output-len", "150"),
      Map.entry("sonnet-prefix-len", "200"), Map.entry("random-input-len", "1024"),
      Map.entry("random-output-len", "128"), Map.entry("random-prefix-len", "0"),
      Map.entry("random-range-ratio", "0.0"), Map.entry("num-warmups", "0"),
      Map.entry("seed", "0"));

  @Test
  void everyReferenceFlagIsInTheTable() {
    Set<String> missing = new TreeSet<>(REFERENCE);
    BenchFlags.ALL.forEach(f -> missing.remove(f.name()));
    assertEquals(Set.of(), missing);
  }

  @Test
  void everyFlagOfTheNewestVllmAndOfVllmBenchIsInTheTable() {
    Set<String> missing = new TreeSet<>(NEWEST_PYTHON);
    missing.addAll(VLLM_BENCH_ONLY);
    BenchFlags.ALL.forEach(f -> missing.remove(f.name()));
    assertEquals(Set.of(), missing);
  }

  @Test
  void everyFlagNewerThanTheReferenceSaysInWhichVersion() {
    Set<String> unversioned = new TreeSet<>();
    for (Flag f : BenchFlags.ALL) {
      boolean newer = ADDED.contains(f.name()) || VLLM_BENCH_ONLY.contains(f.name());
      if (newer && f.since().isEmpty()) {
        unversioned.add(f.name());
      }
    }
    assertEquals(Set.of(), unversioned);
    assertEquals("vllm-bench", BenchFlags.find("--multi-turn").orElseThrow().since());
    assertEquals("0.29", BenchFlags.find("--extra-body").orElseThrow().since());
    // a changed default is versioned too; an older-only flag says so
    assertEquals("0.29", BenchFlags.find("--temperature").orElseThrow().since());
    assertEquals("older", BenchFlags.find("--custom-skip-chat-template").orElseThrow().since());
    assertEquals("", BenchFlags.find("--top-k").orElseThrow().since());
  }

  @Test
  void theVersionIsInTheHelpAndTheReadmeTable() {
    String help = BenchFlagSpec.usage().replaceAll("\\s+", " ");
    assertTrue(help.contains("(default: 0; vLLM 0.29)"), help);
    String row = FlagChoices.markdownTable().lines()
        .filter(l -> l.startsWith("| `--insecure`")).findFirst().orElseThrow();
    assertTrue(row.startsWith("| `--insecure` | `False` | 0.29 | no TLS certificate check"), row);
  }

  /**
   * The datasets read their flags from the table's datasets column: a row of a dataset group
   * left without it would be a flag no dataset reads. Only the old {@code --dataset} (read by
   * {@code BenchPlan} as {@code --dataset-path}) and {@code --enable-multimodal-chat} (refused
   * or ignored by the drop-in itself) are the drop-in's own.
   */
  @Test
  void everyFlagOfADatasetGroupIsReadByADataset() {
    Set<String> unread = BenchFlags.ALL.stream()
        .filter(f -> f.group().startsWith("dataset") && !f.isDatasetFlag())
        .map(Flag::name).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of("dataset", "enable-multimodal-chat"), unread);
    assertTrue(Datasets.FLAGS.contains("request-id-prefix"), "a serve flag the datasets read");
  }

  @Test
  void defaultsInTheTableAreVllms() {
    VLLM_DEFAULTS.forEach((name, value) -> assertEquals(value,
        BenchFlags.find("--" + name).orElseThrow().defaultValue(), name));
    for (Flag f : BenchFlags.ALL) {
      if (f.arity() == Flag.Arity.SWITCH) {
        // --self-timed is argparse's BooleanOptionalAction: None until given
        assertTrue(f.defaultValue().equals("False") || f.name().equals("help")
            || f.name().equals("self-timed"), f.name());
      }
    }
  }

  @Test
  void aMisspeltFlagGetsTheSmallestEditDistance() {
    assertEquals("unknown flag --sed; did you mean --seed?", BenchFlagSpec.unknownFlag("--sed"));
    assertEquals("unknown flag --top_kk; did you mean --top-k?",
        BenchFlagSpec.unknownFlag("--top_kk"));
  }

  @Test
  void aFlagOfTheSameMeaningComesBeforeTheNearestSpelling() {
    // by spelling alone, --no-verify-ssl is nearest to --no-reranker and --verify-ssl to
    // --base-url; by meaning both are the TLS switch
    for (String typed : List.of("--no-verify-ssl", "--verify-ssl", "--skip-tls-verify", "-k",
        "--insecure-skip-verify", "--tls-insecure")) {
      assertEquals("unknown flag " + typed + "; did you mean --insecure?",
          BenchFlagSpec.unknownFlag(typed));
    }
    assertEquals("unknown flag --concurrency; did you mean --max-concurrency?",
        BenchFlagSpec.unknownFlag("--concurrency"));
    assertEquals("unknown flag --max-tokens; did you mean --output-len?",
        BenchFlagSpec.unknownFlag("--max-tokens"));
    assertEquals("unknown flag --qps; did you mean --request-rate?",
        BenchFlagSpec.unknownFlag("--qps"));
  }

  @Test
  void everySynonymLeadsToAFlagOfTheTableAndNoneIsAFlagItself() {
    BenchFlagSpec.SYNONYMS.forEach((name, flag) -> {
      assertTrue(BenchFlags.find("--" + flag).isPresent(), flag);
      assertTrue(BenchFlags.find("--" + name).isEmpty(), name);
    });
  }

  @Test
  void aFlagOfANewerVllmIsSaidToBeNewerNotMisspelt() {
    String newer = BenchFlagSpec.unknownFlag("--asr-language-allow-list");
    assertEquals("unknown flag --asr-language-allow-list: not a flag of vllm bench serve up "
        + "to vLLM 0.29 nor of vllm-bench (a family of flags of vLLM's newest datasets and "
        + "features); a flag of a newer vLLM is not known to this release", newer);
    // far from every flag: no misleading suggestion either
    assertEquals("unknown flag --kv-transfer-config: not a flag of vllm bench serve up to "
        + "vLLM 0.29 nor of vllm-bench; a flag of a newer vLLM is not known to this release",
        BenchFlagSpec.unknownFlag("--kv-transfer-config"));
  }

  @Test
  void aMixedBoundaryFlagIsRefusedAsOneOfTheDatasetsUnknownFlagsNotGuessed() {
    String expected = ": the mixed_serving_boundary dataset's own --mixed-boundary-* flags are "
        + "not known to this release; without them the run would use this release's defaults "
        + "(docs/datasets.md), so it is refused";
    assertEquals("unknown flag --mixed-boundary-short-ratio" + expected,
        BenchFlagSpec.unknownFlag("--mixed-boundary-short-ratio"));
    // even where a spelling is close to a known flag, no flag of another dataset is offered
    assertEquals("unknown flag --mixed_boundary_output_len" + expected,
        BenchFlagSpec.unknownFlag("--mixed_boundary_output_len"));
  }

  @Test
  void helpListsEveryFlagWithItsDefaultAndEveryRefusal() {
    // picocli wraps the descriptions: compare with the line breaks undone
    String help = BenchFlagSpec.usage().replaceAll("\\s+", " ");
    for (Flag f : BenchFlags.ALL) {
      assertTrue(help.contains(f.option()), f.name());
      if (f.note() != null) {
        assertTrue(help.contains(f.note().replace("`", "").replaceAll("\\s+", " ")),
            f.name() + " in " + help);
      }
    }
    assertTrue(help.contains("(default: 0; vLLM 0.29)"));
  }

  /**
   * The kind column as vLLM's parser types each flag ({@code type=int}, {@code type=float},
   * none for strings), typed in from its {@code add_argument} calls, not from the table; and
   * the table's rule that a switch, and only a switch, has no kind.
   */
  @Test
  void eachValueHasTheKindVllmsParserGivesIt() {
    Map<String, Flag.Kind> vllm = Map.ofEntries(Map.entry("port", Flag.Kind.INT),
        Map.entry("max-concurrency", Flag.Kind.INT), Map.entry("num-prompts", Flag.Kind.INT),
        Map.entry("seed", Flag.Kind.INT), Map.entry("top-k", Flag.Kind.INT),
        Map.entry("logprobs", Flag.Kind.INT), Map.entry("random-input-len", Flag.Kind.INT),
        Map.entry("request-rate", Flag.Kind.NUMBER), Map.entry("burstiness", Flag.Kind.NUMBER),
        Map.entry("temperature", Flag.Kind.NUMBER), Map.entry("top-p", Flag.Kind.NUMBER),
        Map.entry("asr-max-audio-len-sec", Flag.Kind.NUMBER),
        Map.entry("model", Flag.Kind.TEXT), Map.entry("dataset-path", Flag.Kind.TEXT),
        // a number or a JSON object; the plugin's "auto" beside vLLM's int
        Map.entry("random-range-ratio", Flag.Kind.TEXT),
        Map.entry("num-warmups", Flag.Kind.INT_OR_AUTO));
    vllm.forEach((name, kind) ->
        assertEquals(kind, BenchFlags.find("--" + name).orElseThrow().kind(), name));
    for (Flag f : BenchFlags.ALL) {
      assertEquals(f.arity() == Flag.Arity.SWITCH, f.kind() == Flag.Kind.SWITCH, f.name());
    }
    // every default converts (the table would not load otherwise), to the kind's type
    assertEquals(Double.POSITIVE_INFINITY, BenchFlags.defaultOf("request-rate"));
    assertEquals(8000, BenchFlags.defaultOf("port"));
    assertEquals(null, BenchFlags.defaultOf("model"));
  }

  /** The one normaliser of flag names: the name's spelling changes, never a value. */
  @Test
  void aFlagIsSpeltTheTablesWayAndItsValueAsWritten() {
    assertEquals("top-p", BenchFlags.normalize("--Top_P"));
    assertEquals("top-p", BenchFlags.normalize("top_p"));
    assertEquals(List.of("--top-p=A_b", "Some_Value", "--dataset-path", "Data/X_Y.json"),
        BenchFlags.normalized(List.of("--top_P=A_b", "Some_Value", "--dataset_path",
            "Data/X_Y.json")));
  }
}
