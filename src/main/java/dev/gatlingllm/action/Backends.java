package dev.gatlingllm.action;

import dev.gatlingllm.dataset.DatasetContent;
import dev.gatlingllm.internal.action.Api;
import dev.gatlingllm.internal.action.AudioApi;
import dev.gatlingllm.internal.action.ChatApi;
import dev.gatlingllm.internal.action.CompletionsApi;
import dev.gatlingllm.internal.action.EmbeddingsApi;
import dev.gatlingllm.internal.action.MessagesApi;
import dev.gatlingllm.internal.action.RerankApi;
import dev.gatlingllm.internal.action.ResponsesApi;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * vLLM's {@code --backend} names, the one table of what each means here (vLLM keeps one too,
 * from name to request function). Every name that current or recent {@code vllm bench serve}
 * accepts is in it: a served backend with its request, path, datasets and metric set, or a
 * refused one with the reason. The DSL's builders take their default paths from it, the
 * drop-in ({@code cli.BenchPlan}) its request, flags and dataset rules, and the README its
 * backend table.
 *
 * <pre>{@code
 * Backends.Backend b = Backends.resolve("openai-embeddings-clip");
 * ActionBuilder request = b.request(flags);   // LlmDsl.embeddings(...).variant(OPENAI_CLIP)...
 * }</pre>
 *
 * <p>Each row names the {@link Api} it sends (body out, stream in, capabilities); code elsewhere
 * asks a backend for a capability ({@link Backend#chatTemplate()}, {@link Backend#pooling()},
 * {@link Backend#takes}) and never compares its name. Adding a backend that sends an existing
 * API: one {@code add(...)} line here. Adding an API: its {@link Api} class and its row here
 * (and its factory in {@code LlmDsl} when users call it by name).
 */
public final class Backends {

  /** A part of the command line that a backend's request can take, with its vLLM flags. */
  public enum Takes {
    IGNORE_EOS("ignore-eos"),
    LOGPROBS("logprobs"),
    /** vLLM sends these with completions and chat only. */
    SAMPLING("temperature", "top-p", "top-k", "min-p", "frequency-penalty", "presence-penalty",
        "repetition-penalty"),
    /** {@code --lora-modules}: the {@code model} field chosen per request. */
    MODEL_PER_REQUEST("lora-modules"),
    /** Warm-up requests of the same kind before the run. */
    WARM_UP("num-warmups"),
    /** {@code --extra-body}: fields merged into every body. */
    EXTRA_BODY("extra-body"),
    /** vllm-bench's {@code --prompt-token-ids}: the prompt sent as token ids. */
    PROMPT_TOKEN_IDS("prompt-token-ids");

    private final List<String> flags;

    Takes(String... flags) {
      this.flags = List.of(flags);
    }

    /** Its {@code vllm bench serve} flags, without the dashes. */
    public List<String> flags() {
      return flags;
    }
  }

  /**
   * Which datasets a backend can send, by their content (see {@link DatasetContent}).
   *
   * @param contents   the contents it sends
   * @param randomMm   whether it sends the {@code random-mm} dataset (vLLM: chat only)
   * @param readme     the README's datasets column
   * @param onlyFor    the one content it sends when it sends nothing else; null otherwise
   * @param ownRefusal for {@code onlyFor}: why another dataset is refused, by its content
   * @param others     for {@code onlyFor}: why the other backends refuse its dataset
   */
  public record Accepts(Set<DatasetContent> contents, boolean randomMm, String readme,
      DatasetContent onlyFor, Function<DatasetContent, String> ownRefusal, String others) {

    public Accepts {
      contents = Set.copyOf(contents);
    }

    static final Accepts TEXT = new Accepts(EnumSet.of(DatasetContent.TEXT), false,
        "text datasets", null, null, null);
    static final Accepts TEXT_AND_VISUAL = new Accepts(
        EnumSet.of(DatasetContent.TEXT, DatasetContent.VISUAL), false,
        "text datasets, image and video `hf` datasets", null, null, null);

    /** Whether it sends a dataset of that content. */
    public boolean sends(DatasetContent content) {
      return contents.contains(content);
    }
  }

  /**
   * A backend that can be served: a vLLM backend name, the {@link Api} it sends, and what of
   * the command line it takes. A class rather than a record so that its {@link Api} (internal)
   * stays package-private: the plugin's own code reaches it through {@code BuilderAccess}.
   */
  public static final class Backend {

    private final String name;
    private final Api api;
    private final Set<Takes> takes;
    private final Set<Takes> ignores;
    private final Accepts accepts;
    private final String sends;
    private final String serverMetricsPath;

    /**
     * @param name    vLLM's backend name
     * @param api     the API its requests speak: their body, how the answer is read, and the
     *                capabilities the rest of the plugin asks about
     * @param takes   the parts of the command line its request sends
     * @param ignores the parts it accepts and does not send, as vLLM does; a part in neither
     *                set is refused
     * @param accepts the datasets it can send
     * @param sends   what it sends, for the README
     * @param serverMetricsPath where the server the name stands for publishes its Prometheus
     *                metrics, scraped during the run when no path is given: {@code /metrics}
     *                for {@code vllm}, which names vLLM's own server; "" for the names that
     *                say only which API is spoken, whose server's metrics are unknown
     */
    Backend(String name, Api api, Set<Takes> takes, Set<Takes> ignores, Accepts accepts,
        String sends, String serverMetricsPath) {
      this.name = name;
      this.api = api;
      this.takes = Set.copyOf(takes);
      this.ignores = Set.copyOf(ignores);
      this.accepts = accepts;
      this.sends = sends;
      this.serverMetricsPath = Objects.requireNonNull(serverMetricsPath, "serverMetricsPath");
    }

    /** A backend whose server's metrics are not known (no scraping by default). */
    Backend(String name, Api api, Set<Takes> takes, Set<Takes> ignores,
        Accepts accepts, String sends) {
      this(name, api, takes, ignores, accepts, sends, "");
    }

    /** vLLM's backend name. */
    public String name() {
      return name;
    }

    Api api() {
      return api;
    }

    /** The parts of the command line its request sends. */
    public Set<Takes> takes() {
      return takes;
    }

    /** The parts it accepts and does not send, as vLLM does. */
    public Set<Takes> ignores() {
      return ignores;
    }

    /** The datasets it can send. */
    public Accepts accepts() {
      return accepts;
    }

    /** What it sends, for the README. */
    public String sends() {
      return sends;
    }

    /** Where its server publishes Prometheus metrics; "" when unknown. */
    public String serverMetricsPath() {
      return serverMetricsPath;
    }

    @Override
    public String toString() {
      return "Backend[" + name + "]";
    }

    /** The path its requests go to by default (see {@link Api#defaultPath()}). */
    public String defaultEndpoint() {
      return api.defaultPath();
    }

    /** How a given {@code --endpoint} must end, as vLLM checks the URL. */
    public List<String> endpointEndings() {
      return api.endpointEndings();
    }

    /** Whether the answer streams (SSE) rather than being one JSON body. */
    public boolean streams() {
      return api.streams();
    }

    /** Whether results use vLLM's reduced (pooling) metric set. */
    public boolean pooling() {
      return api.pooling();
    }

    /**
     * Whether its requests are chat messages the server renders with its chat template:
     * conversations ({@code --multi-turn}), BFCL's tools, the multimodal chat message and
     * {@code --chat-template-kwargs} need it.
     */
    public boolean chatTemplate() {
      return api.chatTemplate();
    }

    public boolean takes(Takes part) {
      return takes.contains(part);
    }

    public boolean ignores(Takes part) {
      return ignores.contains(part);
    }

    /** The request every user sends, with the command line's part of it. */
    public ActionBuilder request(RequestFlags flags) {
      return api.request(flags);
    }
  }

  private static final Map<String, Backend> SERVED = new LinkedHashMap<>();
  private static final Map<String, String> REFUSED = new LinkedHashMap<>();

  private static final Set<Takes> GENERATION =
      EnumSet.of(Takes.IGNORE_EOS, Takes.SAMPLING, Takes.MODEL_PER_REQUEST, Takes.WARM_UP,
          Takes.EXTRA_BODY);
  private static final String POOLING_METRICS = "; pooling metrics";

  static {
    Set<Takes> completions = EnumSet.copyOf(GENERATION);
    completions.add(Takes.LOGPROBS);
    // only the completions API takes a prompt of token ids
    completions.add(Takes.PROMPT_TOKEN_IDS);
    // vllm names vLLM's server, whose Prometheus metrics are at /metrics
    add(new Backend("vllm", CompletionsApi.INSTANCE, completions, Set.of(), Accepts.TEXT,
        "streamed completions", "/metrics"));
    // older vLLM releases sent the OpenAI completions request for sglang ... llama.cpp too;
    // current vLLM dropped them from its list, and pasted older command lines still name them
    for (String name : List.of("openai", "sglang", "lmdeploy", "scalellm", "llama.cpp")) {
      add(new Backend(name, CompletionsApi.INSTANCE, completions, Set.of(), Accepts.TEXT,
          "streamed completions"));
    }
    add(new Backend("openai-chat", ChatApi.INSTANCE, GENERATION, Set.of(),
        new Accepts(EnumSet.of(DatasetContent.TEXT, DatasetContent.VISUAL), true,
            "text datasets, `random-mm`, image and video `hf` datasets", null, null, null),
        "streamed chat completions: the prompt as a text part, then the dataset's images or "
            + "video as content parts"));
    // vLLM's Rust client (vllm-bench): the Responses API, text only
    add(new Backend("openai-responses", ResponsesApi.INSTANCE, GENERATION, Set.of(),
        Accepts.TEXT, "streamed Responses API: the prompt as `input`, timed from its "
            + "`response.output_text.delta` events, usage from `response.completed`"));
    // vLLM serves /v1/messages and its bench has no backend for it; AIPerf calls it its
    // `messages` endpoint type. vLLM's Messages API has no ignore_eos: accepted, not sent.
    Set<Takes> messages = EnumSet.copyOf(GENERATION);
    messages.remove(Takes.IGNORE_EOS);
    add(new Backend("anthropic-messages", MessagesApi.INSTANCE, messages,
        EnumSet.of(Takes.IGNORE_EOS), Accepts.TEXT, "streamed Anthropic Messages API: the "
            + "prompt as the user message, timed from its `text_delta` events (thinking "
            + "blocks counted as reasoning), usage from `message_start` and `message_delta`"));
    add(new Backend("openai-audio", AudioApi.INSTANCE,
        EnumSet.of(Takes.IGNORE_EOS, Takes.EXTRA_BODY), Set.of(),
        new Accepts(EnumSet.of(DatasetContent.AUDIO), false, "ASR `hf` datasets only",
            DatasetContent.AUDIO, content -> "openai-audio uploads each request's audio clip, "
                + "and this dataset has " + content.description() + "; use an ASR dataset "
                + "such as --dataset-name hf --dataset-path openslr/librispeech_asr",
            "the dataset's requests are audio clips, which only --backend openai-audio "
                + "uploads"),
        "streamed transcription: the dataset's audio clip uploaded as a form, `temperature` 0.0"));
    embeddings(EmbeddingsVariant.OPENAI, "the prompt as `input`");
    embeddings(EmbeddingsVariant.OPENAI_CHAT, "the prompt and media as a chat message");
    embeddings(EmbeddingsVariant.OPENAI_CLIP,
        "a chat message, the text left empty when there is an image");
    embeddings(EmbeddingsVariant.OPENAI_VLM2VEC,
        "a chat message, media first, with VLM2Vec's instruction");
    embeddings(EmbeddingsVariant.INFINITY, "Infinity's body: the prompt as `input`");
    embeddings(EmbeddingsVariant.INFINITY_CLIP,
        "Infinity's body: the image alone when there is one");
    embeddings(EmbeddingsVariant.VLLM_POOLING, "vLLM's `/pooling` body");
    add(new Backend("vllm-rerank", RerankApi.INSTANCE,
        Set.of(), EnumSet.of(Takes.SAMPLING, Takes.IGNORE_EOS),
        new Accepts(EnumSet.of(DatasetContent.RERANK), false, "`random-rerank` only",
            DatasetContent.RERANK, content -> "rerank requests are a query with its documents, "
                + "which only the random-rerank dataset makes (vLLM's only rerank dataset); use "
                + "--dataset-name random-rerank",
            "the dataset's requests are rerank queries with documents, which only --backend "
                + "vllm-rerank sends"),
        "the query and its documents" + POOLING_METRICS));
    String ownProtocol = " speaks its own protocol, not the OpenAI API, and current vLLM's "
        + "bench serve no longer has it; run the server's OpenAI-compatible endpoint with "
        + "--backend openai or openai-chat";
    REFUSED.put("tgi", "tgi (Text Generation Inference's /generate_stream)" + ownProtocol);
    REFUSED.put("tensorrt-llm", "tensorrt-llm (Triton's generate_stream)" + ownProtocol);
    REFUSED.put("deepspeed-mii", "deepspeed-mii (a non-streamed MII request)" + ownProtocol);
  }

  /** An embeddings backend: its name is its body shape's ({@link EmbeddingsVariant}). */
  private static void embeddings(EmbeddingsVariant variant, String body) {
    // vLLM's embeddings requests carry ignore_eos when asked, and no sampling parameter
    add(new Backend(variant.backend(), EmbeddingsApi.of(variant),
        EnumSet.of(Takes.IGNORE_EOS, Takes.EXTRA_BODY), EnumSet.of(Takes.SAMPLING),
        Accepts.TEXT_AND_VISUAL, "embeddings, " + body + POOLING_METRICS));
  }

  private static void add(Backend backend) {
    SERVED.put(backend.name(), backend);
  }

  private Backends() {}

  /** Every backend name that can be served, in a stable order. */
  public static Set<String> servedNames() {
    return Collections.unmodifiableSet(SERVED.keySet());
  }

  /** Backend names vLLM knows that are refused, with the reason for each. */
  public static Map<String, String> refused() {
    return Collections.unmodifiableMap(REFUSED);
  }

  /** The backend, or empty when the name is refused or unknown. */
  public static Optional<Backend> lookup(String name) {
    return Optional.ofNullable(name == null ? null : SERVED.get(name.trim()));
  }

  /**
   * The backend of a {@code --backend} value.
   *
   * @throws IllegalArgumentException saying why a known name cannot be served, or listing the
   *     served names for an unknown one
   */
  public static Backend resolve(String name) {
    Optional<Backend> found = lookup(name);
    if (found.isPresent()) {
      return found.get();
    }
    String key = name == null ? null : name.trim();
    if (key != null && REFUSED.containsKey(key)) {
      throw new IllegalArgumentException("--backend " + key + " cannot be served: "
          + REFUSED.get(key));
    }
    throw new IllegalArgumentException("Unknown --backend '" + name + "'; served: "
        + String.join(", ", SERVED.keySet()));
  }

  /** The served backend that alone sends datasets of that content, if one does. */
  public static Optional<Backend> onlySenderOf(DatasetContent content) {
    return SERVED.values().stream().filter(b -> b.accepts().onlyFor() == content).findFirst();
  }

  /** The README's backend table. */
  public static String markdownTable() {
    StringBuilder out = new StringBuilder(
        "| `--backend` | sends | `--endpoint` when not given | datasets |\n|---|---|---|---|\n");
    for (Backend b : SERVED.values()) {
      out.append("| `").append(b.name()).append("` | ").append(b.sends()).append(" | `")
          .append(b.defaultEndpoint()).append("` | ").append(b.accepts().readme())
          .append(" |\n");
    }
    for (Map.Entry<String, String> r : REFUSED.entrySet()) {
      out.append("| `").append(r.getKey()).append("` | **refused**: ").append(r.getValue())
          .append(" | | |\n");
    }
    return out.toString();
  }
}
