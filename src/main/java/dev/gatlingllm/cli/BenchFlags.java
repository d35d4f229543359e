package dev.gatlingllm.cli;

import static dev.gatlingllm.cli.Flag.Arity.MANY;
import static dev.gatlingllm.cli.Flag.Arity.ONE;
import static dev.gatlingllm.cli.Flag.Arity.SWITCH;
import static dev.gatlingllm.cli.Flag.Support.PARTIAL;
import static dev.gatlingllm.cli.Flag.Support.REFUSED;
import static dev.gatlingllm.cli.Flag.Support.SUPPORTED;

import dev.gatlingllm.tool.Tool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Every flag of {@code vllm bench serve} (its serve flags, sampling parameters and dataset
 * groups), with vLLM's default and what {@link BenchServe} does with it. The one source of
 * truth: parsing and {@code --help} (through picocli, {@link BenchFlagSpec}) and the README
 * table all come from {@link #ALL}.
 */
public final class BenchFlags {

  static final String SERVE = "serve";
  static final String SAMPLING = "sampling parameters";
  static final String DATASET = "dataset";

  /** Every flag, in the order of the help. */
  public static final List<Flag> ALL = List.of(
      flag("help", SWITCH, "", SERVE, "prints this table and runs nothing"),
      flag("backend", ONE, "openai", SERVE, "request kind: completions, chat, audio "
          + "transcription, embeddings or rerank (see Backends); written as `backend`",
          PARTIAL, "`tgi`, `tensorrt-llm` and `deepspeed-mii` (gone from current vLLM) are "
          + "refused with the reason; a dataset the backend cannot send is refused before "
          + "the run"),
      flag("label", ONE, "None", SERVE, "`label` of the result; prefix of the file name "
          + "(the backend when unset)"),
      flag("base-url", ONE, "None", SERVE, "server root URL; wins over `--host`/`--port`"),
      flag("host", ONE, "127.0.0.1", SERVE, "server host when no `--base-url`"),
      flag("port", ONE, "8000", SERVE, "server port when no `--base-url`"),
      flag("endpoint", ONE, "/v1/completions", SERVE, "request path; when not given, the "
          + "backend's usual path (see Backends), the one vLLM's docs pass", PARTIAL, "a path "
          + "that does not end as the backend's API requires (`completions`, "
          + "`chat/completions`, `transcriptions`/`translations`, `embeddings`, `rerank`) is "
          + "refused, as vLLM refuses it"),
      flag("header", MANY, "None", SERVE, "`KEY=VALUE` headers sent with every request; "
          + "repeatable"),
      flag("max-concurrency", ONE, "None", SERVE, "at most N requests in flight; the others "
          + "wait client-side; in the file name as `-concurrencyN`"),
      flag("model", ONE, "required", SERVE, "model id: sent as `model`, names the result "
          + "file, default tokenizer"),
      flag("served-model-name", ONE, "None", SERVE, "value of the `model` field when set"),
      flag("tokenizer", ONE, "None (the model)", SERVE, "tokenizer counting prompt and output "
          + "tokens: a `tokenizer.json`, its folder, or a Hugging Face model id"),
      flag("tokenizer-mode", ONE, "auto", SERVE, "`auto`: the model's fast tokenizer",
          PARTIAL, "`slow`, `mistral` and `custom` need Python tokenizer code; tokenizers "
          + "here are `tokenizer.json` files read by DJL (the fast tokenizer)"),
      flag("trust-remote-code", SWITCH, "False", SERVE, "", REFUSED, "tokenizers here are "
          + "`tokenizer.json` files read by DJL: no code from the hub is ever run, so there "
          + "is nothing to trust; drop the flag"),
      flag("use-beam-search", SWITCH, "False", SERVE, "", REFUSED, "the OpenAI-compatible "
          + "requests vLLM's benchmark sends stream one greedy or sampled sequence; vLLM "
          + "sends no beam-search field for them either, so the flag cannot have an effect"),
      flag("logprobs", ONE, "None", SERVE, "sent as `logprobs` (completions)", PARTIAL,
          "with other backends it is refused: vLLM's chat, audio and pooling requests do not "
          + "send it"),
      flag("request-rate", ONE, "inf", SERVE, "requests per second, Poisson or gamma "
          + "arrivals; `inf` sends everything at once"),
      flag("burstiness", ONE, "1.0", SERVE, "gamma shape of the gaps (1 = Poisson)"),
      flag("ramp-up-strategy", ONE, "None", SERVE, "`linear` or `exponential` ramp of the "
          + "rate over the run (excludes `--request-rate`)"),
      flag("ramp-up-start-rps", ONE, "None", SERVE, "rate of the first request of the ramp"),
      flag("ramp-up-end-rps", ONE, "None", SERVE, "rate of the last request of the ramp"),
      flag("ready-check-timeout-sec", ONE, "600", SERVE, "polls the endpoint with the first "
          + "prompt (every 5 s) until it answers; 0 skips the check"),
      flag("num-warmups", ONE, "0", SERVE, "warm-up requests before the run, excluded from "
          + "the results; `auto` = the plugin's own warm-up (see below)"),
      flag("profile", SWITCH, "False", SERVE, "`POST /start_profile` before the measured "
          + "run, `POST /stop_profile` after it"),
      flag("disable-tqdm", SWITCH, "False", SERVE, "no progress line during the run"),
      flag("ignore-eos", SWITCH, "False", SERVE, "sends `ignore_eos: true` (not with "
          + "`vllm-rerank`, whose request vLLM sends without it)"),
      flag("request-id-prefix", ONE, "benchmark-serving", SERVE, "`x-request-id` of request "
          + "i is prefix + i (the dataset's numbering, as vLLM)"),
      flag("lora-modules", MANY, "None", SERVE, "one module picked per request at random "
          + "(seeded by `--seed`), sent as the `model` field", PARTIAL, "refused with the audio, "
          + "embeddings and rerank backends: their requests here take the protocol's model, "
          + "not one per request"),
      flag("save-result", SWITCH, "False", SERVE, "writes the result JSON"),
      flag("save-detailed", SWITCH, "False", SERVE, "adds per-request arrays to the JSON"),
      flag("append-result", SWITCH, "False", SERVE, "appends the result as one more line "
          + "(writes the file even without `--save-result`)"),
      flag("metadata", MANY, "None", SERVE, "`KEY=VALUE` pairs written into the result"),
      flag("result-dir", ONE, "None", SERVE, "folder of the result JSON (default: the "
          + "Gatling run folder, not the working directory)"),
      flag("result-filename", ONE, "None", SERVE, "result file name instead of vLLM's "
          + "`{label}-{rate}qps[-concurrency{N}]-{model}-{date}.json`"),
      flag("percentile-metrics", ONE, "ttft,tpot,itl", SERVE, "metrics reported with "
          + "percentiles: `ttft`, `tpot`, `itl`, `e2el`; unset with embeddings and rerank, "
          + "`e2el` (current vLLM's default for pooling)"),
      flag("metric-percentiles", ONE, "99", SERVE, "comma-separated percentiles"),
      flag("goodput", MANY, "None", SERVE, "SLOs `ttft:ms tpot:ms e2el:ms`; adds "
          + "`request_goodput` and a `<name> goodput` row to Gatling's report (not for "
          + "embeddings and rerank, which vLLM reports without goodput)"),
      flag("top-p", ONE, "None", SAMPLING, "sent as `top_p` when set; like every "
          + "sampling flag, not sent with embeddings or rerank (as vLLM) and refused with "
          + "`openai-audio` (as vLLM)"),
      flag("top-k", ONE, "None", SAMPLING, "sent as `top_k` when set"),
      flag("min-p", ONE, "None", SAMPLING, "sent as `min_p` when set"),
      flag("temperature", ONE, "None (0.0)", SAMPLING, "sent as `temperature`; 0.0 (greedy) "
          + "when unset"),
      flag("frequency-penalty", ONE, "None", SAMPLING, "sent as `frequency_penalty` when "
          + "set"),
      flag("presence-penalty", ONE, "None", SAMPLING, "sent as `presence_penalty` when set"),
      flag("repetition-penalty", ONE, "None", SAMPLING, "sent as `repetition_penalty`; "
          + "completions send 1.0 when unset, as vLLM's do"),
      flag("dataset-name", ONE, "random", DATASET, "`random`, `sharegpt`, `sonnet`, "
          + "`burstgpt`, `custom`, `prefix_repetition`, `hf`, `spec_bench`, `random-mm`, "
          + "`random-rerank`; each only with a backend that can send it (see Backends)",
          PARTIAL, "vLLM's other dataset names are refused by name"),
      flag("dataset-path", ONE, "None", DATASET, "dataset file, or hub id for `hf`"),
      flag("num-prompts", ONE, "1000", DATASET, "requests in the run"),
      flag("seed", ONE, "0", DATASET, "seeds the sampling, the arrivals and the LoRA choice"),
      flag("no-oversample", SWITCH, "False", DATASET, "fewer prompts rather than repeats"),
      flag("disable-shuffle", SWITCH, "False", DATASET, "dataset order instead of shuffled"),
      flag("skip-chat-template", SWITCH, "False", DATASET, "accepted: prompts are always "
          + "sent as written"),
      flag("no-stream", SWITCH, "False", DATASET, "accepted: datasets are read from files, "
          + "never streamed"),
      flag("random-input-len", ONE, "1024", DATASET, "random: prompt tokens"),
      flag("random-output-len", ONE, "128", DATASET, "random: output tokens"),
      flag("random-range-ratio", ONE, "0.0", DATASET, "random: lengths within ±ratio"),
      flag("random-prefix-len", ONE, "0", DATASET, "random: shared prefix tokens"),
      flag("random-batch-size", ONE, "1", DATASET, "random: 1; random-rerank: documents per "
          + "request", PARTIAL, "other values with `random` put several prompts in one "
          + "embeddings request; the random dataset here samples one prompt per request"),
      flag("random-mm-base-items-per-request", ONE, "1", DATASET, "random-mm: "
          + "multimodal items per request"),
      flag("random-mm-num-mm-items-range-ratio", ONE, "0.0", DATASET, "random-mm: item "
          + "count range"),
      flag("random-mm-limit-mm-per-prompt", ONE, "{\"image\": 255, \"video\": 1}", DATASET,
          "random-mm: most items of each kind"),
      flag("random-mm-bucket-config", ONE, "{(256, 256, 1): 0.5, (720, 1280, 1): 0.5, (720, 1280, 16): 0.0}",
          DATASET, "random-mm: item sizes and their probabilities"),
      flag("no-reranker", SWITCH, "False", DATASET, "random-rerank: the model is an "
          + "embedding model (the query counts as a prompt of its own)"),
      flag("sharegpt-output-len", ONE, "None", DATASET, "sharegpt: output tokens instead of "
          + "the conversation's"),
      flag("sonnet-input-len", ONE, "550", DATASET, "sonnet: prompt tokens"),
      flag("sonnet-output-len", ONE, "150", DATASET, "sonnet: output tokens"),
      flag("sonnet-prefix-len", ONE, "200", DATASET, "sonnet: shared prefix tokens"),
      flag("custom-output-len", ONE, "256", DATASET, "custom: output tokens"),
      flag("custom-skip-chat-template", SWITCH, "False", DATASET, "accepted: prompts are "
          + "always sent as written"),
      flag("prefix-repetition-prefix-len", ONE, "256", DATASET, "prefix_repetition: prefix "
          + "tokens"),
      flag("prefix-repetition-suffix-len", ONE, "256", DATASET, "prefix_repetition: suffix "
          + "tokens"),
      flag("prefix-repetition-num-prefixes", ONE, "10", DATASET, "prefix_repetition: "
          + "distinct prefixes"),
      flag("prefix-repetition-output-len", ONE, "128", DATASET, "prefix_repetition: output "
          + "tokens"),
      flag("spec-bench-output-len", ONE, "256", DATASET, "spec_bench: output tokens"),
      flag("spec-bench-category", ONE, "None", DATASET, "spec_bench: only this category"),
      flag("hf-subset", ONE, "None", DATASET, "hf: subset"),
      flag("hf-split", ONE, "None", DATASET, "hf: split"),
      flag("hf-name", ONE, "None", DATASET, "hf: hub id of a local copy (picks its reader)"),
      flag("hf-output-len", ONE, "None", DATASET, "hf: output tokens instead of the row's"),
      flag("blazedit-min-distance", ONE, "0.0", DATASET, "hf (Blazedit): least edit "
          + "distance"),
      flag("blazedit-max-distance", ONE, "1.0", DATASET, "hf (Blazedit): largest edit "
          + "distance"));

  private static final Map<String, Flag> BY_NAME = ALL.stream()
      .collect(Collectors.toMap(Flag::name, f -> f, (a, b) -> {
        throw new IllegalStateException("flag listed twice: " + a.name());
      }, LinkedHashMap::new));

  private BenchFlags() {}

  private static Flag flag(String name, Flag.Arity arity, String def, String group,
      String meaning) {
    return new Flag(name, arity, def, group, meaning, SUPPORTED, null);
  }

  private static Flag flag(String name, Flag.Arity arity, String def, String group,
      String meaning, Flag.Support support, String note) {
    return new Flag(name, arity, def, group, meaning, support, note);
  }

  /**
   * The flag a command-line word names: {@code --top-p}, {@code --top_p} (argparse accepts
   * both spellings) or {@code -h}.
   */
  public static Optional<Flag> find(String word) {
    if (word.equals("-h")) {
      return Optional.of(BY_NAME.get("help"));
    }
    if (!word.startsWith("--")) {
      return Optional.empty();
    }
    return Optional.ofNullable(BY_NAME.get(normalize(word.substring(2))));
  }

  static String normalize(String name) {
    return name.replace('_', '-').toLowerCase(Locale.ROOT);
  }

  /** The valid flag nearest to a misspelt one (edit distance), as {@code --name}. */
  public static String nearest(String word) {
    String name = normalize(word.replaceFirst("^-+", ""));
    return "--" + Tool.nearest(name, BY_NAME.keySet()).orElseThrow();
  }

  /** The README's table, generated from {@link #ALL}. */
  public static String markdownTable() {
    List<String> rows = new ArrayList<>();
    rows.add("| flag | vLLM default | here | refused, and why |");
    rows.add("|---|---|---|---|");
    for (Flag f : ALL) {
      rows.add("| `" + f.option() + "`" + (f.arity() == ONE ? " V" : f.arity() == MANY
          ? " V…" : "") + " | " + (f.defaultValue().isEmpty() ? "" : "`" + f.defaultValue()
          + "`") + " | " + (f.support() == REFUSED ? "**refused**" : f.meaning()) + " | "
          + (f.note() == null ? "" : f.note()) + " |");
    }
    return String.join("\n", rows) + "\n";
  }

}
