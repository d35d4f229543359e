package dev.gatlingllm.internal.cli;

import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.internal.cli.BenchChecks.TIMED_TRACE;
import static dev.gatlingllm.internal.cli.BenchChecks.checkBackendFlags;
import static dev.gatlingllm.internal.cli.BenchChecks.checkLora;
import static dev.gatlingllm.internal.cli.BenchChecks.checkMultimodalChat;
import static dev.gatlingllm.internal.cli.BenchChecks.checkOneRun;
import static dev.gatlingllm.internal.cli.BenchChecks.checkProfileFlags;
import static dev.gatlingllm.internal.cli.BenchChecks.checkSelfTimed;
import static dev.gatlingllm.internal.cli.BenchChecks.flagged;

import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.action.Backends.Takes;
import dev.gatlingllm.action.Backends;
import dev.gatlingllm.action.RequestFlags;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.dataset.DatasetContent;
import dev.gatlingllm.dataset.DatasetSpec;
import dev.gatlingllm.dataset.MaxModelLen;
import dev.gatlingllm.dataset.PromptTokenIds;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.client.TargetChooser;
import dev.gatlingllm.internal.dataset.DatasetAccess;
import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.GivenValues;
import dev.gatlingllm.internal.scale.ScaleOut;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.ActionBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;

/**
 * What a {@code vllm bench serve} command line asks for, checked as a whole and mapped onto
 * the DSL: the protocol, the request, the arrival profile, the result options, the dataset.
 * Everything that can be wrong with the flags fails in {@link #of}, before anything is loaded
 * or sent.
 */
public final class BenchPlan {

  /**
   * The {@code --tokenizer-mode} values honoured: the fast tokenizer of a {@code tokenizer.json},
   * which newest vLLM calls {@code hf} (its other modes need Python tokenizer code; the flag
   * table says why).
   */
  static final List<String> TOKENIZER_MODES = List.of("auto", "hf");

  /** Session attribute holding the LoRA module of a request. */
  public static final String LORA_ATTRIBUTE = "lora_module";

  private final BenchArgs args;
  private final Backend backend;
  private final String baseUrl;
  /** Every {@code --base-url} given, {@link #baseUrl} first: several are replicas. */
  private final List<String> baseUrls;
  private final String endpoint;
  private final String model;
  private final Map<String, String> headers;
  private final ResultOptions results;
  private final DatasetSpec dataset;
  private final Integer warmUps;
  private final GivenValues datasetFlags;
  private final String requestIdPrefix;
  private final Map<String, Object> extraBody;
  /** {@code --multi-turn}: the conversations sent instead of single requests. */
  private final Optional<BenchConversations> conversations;
  /** The served name of the model vLLM found on the server without --model; else null. */
  private final String servedModel;

  private BenchPlan(BenchArgs args, ServerModel.Lookup lookup) {
    this.args = args;
    this.backend = Backends.resolve(args.value("backend").orElseThrow());
    String mode = args.value("tokenizer-mode").orElseThrow();
    if (!TOKENIZER_MODES.contains(mode)) {
      throw new IllegalArgumentException("--tokenizer-mode " + mode + " is not supported: "
          + BenchFlags.find("--tokenizer-mode").orElseThrow().note());
    }
    List<String> given = args.values("base-url");
    this.baseUrls = given.isEmpty() ? List.of(stripSlash("http://"
        + args.value("host").orElseThrow() + ":" + args.integer("port").orElseThrow()))
        : given.stream().map(BenchPlan::stripSlash).toList();
    this.baseUrl = baseUrls.get(0);
    baseUrls.forEach(url -> flagged("base-url", () -> Target.parse(url)));
    if (baseUrls.size() > 1) {
      flagged("base-url", () -> llm().baseUrls(baseUrls.toArray(new String[0])));
    }
    flagged("base-url-strategy", () -> TargetChooser.Strategy.parse(
        args.value("base-url-strategy").orElseThrow()));
    this.endpoint = PlanParts.endpoint(args, backend);
    checkBackendFlags(args, backend);
    this.headers = PlanParts.pairs("header", args.values("header"), "Invalid header format. Please use "
        + "KEY=VALUE format.");
    checkOneRun(args);
    checkProfileFlags(args);
    this.results = PlanParts.results(args);
    this.warmUps = PlanParts.warmUps(args);
    if (warmUps != null && warmUps > 0 && !backend.takes(Takes.WARM_UP)) {
      throw new IllegalArgumentException("--num-warmups " + warmUps + " with --backend "
          + backend.name() + ": warm-up requests are sent for completions and chat only "
          + "here; use --num-warmups 0");
    }
    // vLLM's default: a prefix of its own for each run, so that runs are told apart in logs;
    // the injectors of one scaled-out run share theirs, or their samples would differ
    ScaleOut scale = ScaleOut.current();
    this.requestIdPrefix = args.has("request-id-prefix")
        ? args.value("request-id-prefix").orElseThrow()
        : "bench-" + (scale.requested() ? scale.sharedKey()
            : UUID.randomUUID().toString().substring(0, 8)) + "-";
    int prompts = args.integer("num-prompts").orElseThrow();
    if (prompts < 1) {
      // before the dataset, which names it as its own option (num-prompts)
      throw new IllegalArgumentException("--num-prompts must be >= 1; got " + prompts);
    }
    this.datasetFlags = PlanParts.datasetFlags(args, requestIdPrefix);
    checkSelfTimed(args, datasetFlags.value("dataset-name").orElseThrow());
    checkMultimodalChat(args, backend, datasetFlags.value("dataset-name").orElseThrow());
    BfclBackend.check(datasetFlags, backend);
    DatasetAccess.declaredContent(datasetFlags).ifPresent(this::checkDataset);
    DatasetSpec drawn = DatasetAccess.fromFlags(datasetFlags);
    // the ids first: --max-model-len counts the tokens the server will see
    DatasetSpec sampled = args.on("prompt-token-ids") ? PromptTokenIds.of(drawn) : drawn;
    this.dataset = !args.has("max-model-len") ? sampled : flagged("max-model-len",
        () -> MaxModelLen.of(sampled, args.integer("max-model-len").orElseThrow()));
    this.conversations = BenchConversations.of(args, backend, datasetFlags);
    this.extraBody = PlanParts.extraBody(args, backend);
    checkLora(args);
    BenchChecks.checkCancel(args);
    Probing.rate(args, backend);
    PlanArrivals.check(args, selfTimed());
    if (args.has("lora-modules")) {
      for (String module : args.values("lora-modules")) {
        if (module.isBlank()) {
          throw new IllegalArgumentException("--lora-modules: a module name is empty");
        }
      }
    }
    int timeout = readyCheckTimeoutSec();
    if (timeout < 0) {
      throw new IllegalArgumentException("--ready-check-timeout-sec must be >= 0, got "
          + timeout);
    }
    // the only step that may ask the server: after every check of the flags alone
    if (args.has("model")) {
      this.model = args.value("model").orElseThrow();
      this.servedModel = null;
    } else {
      ServerModel found = lookup.first(baseUrl, controlHeaders(System::getenv),
          args.on("insecure"));
      this.model = found.root();
      this.servedModel = found.id();
    }
    // every protocol and request option, checked once now with its flag's name
    protocol();
    request();
    step();
  }

  /**
   * Checks the whole command line; without {@code --model}, asks the server for its first
   * model, as vLLM does.
   *
   * @throws IllegalArgumentException naming the flag and what is wrong
   */
  public static BenchPlan of(BenchArgs args) {
    return new BenchPlan(args, ServerModel::first);
  }

  /** As {@link #of(BenchArgs)}, the server's first model found by {@code lookup}. */
  static BenchPlan of(BenchArgs args, ServerModel.Lookup lookup) {
    return new BenchPlan(args, lookup);
  }

  /**
   * The console lines of vLLM for the model it found (empty with {@code --model}).
   */
  public List<String> modelLines() {
    return servedModel == null ? List.of() : List.of(
        "Model not specified, fetching first model from server...",
        "First model name: " + servedModel + ", first model id: " + model);
  }

  /**
   * vLLM's warning when no temperature is sent (generation backends without
   * {@code --temperature}); null otherwise.
   */
  public String temperatureWarning() {
    if (backend.pooling() || args.has("temperature") || !backend.takes(Takes.SAMPLING)) {
      return null;
    }
    return "WARNING: vllm bench serve no longer sets temperature==0 (greedy) in requests by "
        + "default. The default will be determined on the server side and can be model/API "
        + "specific. For the old behavior, include --temperature=0.";
  }

  /**
   * Whether a {@code timed_trace} dataset is replayed at its own timestamps: vLLM's
   * {@code --self-timed}, on by default for that dataset. The hook for the trace datasets'
   * arrivals; false for every other dataset (the flags are refused with them).
   */
  public boolean selfTimed() {
    return TIMED_TRACE.equals(datasetFlags.value("dataset-name").orElseThrow())
        && !args.on("no-self-timed");
  }

  /**
   * vLLM's dataset/backend rules, for a dataset whose content is known.
   *
   * @throws IllegalArgumentException when the backend cannot send it
   */
  public void checkDataset(DatasetContent content) {
    Compatibility.check(backend, datasetFlags.value("dataset-name").orElseThrow(), content);
  }

  /**
   * Flags that are accepted and not sent, as vLLM does with them for this backend: a note
   * for the console, empty when none.
   */
  public List<String> ignoredFlags() {
    List<String> ignored = new ArrayList<>();
    for (Takes part : List.of(Takes.SAMPLING, Takes.IGNORE_EOS)) {
      if (backend.ignores(part)) {
        part.flags().stream().filter(args::has).forEach(f -> ignored.add("--" + f));
      }
    }
    // the pooling metric set has no goodput
    if (backend.pooling() && args.has("goodput")) {
      ignored.add("--goodput");
    }
    // no chat template is applied client-side here: only a chat server applies one
    if (args.has("chat-template-kwargs") && !backend.chatTemplate()) {
      ignored.add("--chat-template-kwargs");
    }
    return ignored;
  }

  /** The arrival profile for the sampled number of requests, with vLLM's rules. */
  public ArrivalProfile arrivals(int numPrompts) {
    return arrivals(numPrompts, Optional.empty());
  }

  /**
   * The arrival profile of the sampled requests: a {@code timed_trace} replayed at its own
   * timestamps ({@code selfTimes}, in seconds) unless {@code --no-self-timed}, else vLLM's
   * rate, ramp and burstiness.
   */
  public ArrivalProfile arrivals(int numPrompts, Optional<double[]> selfTimes) {
    return PlanArrivals.profile(args, selfTimed(), numPrompts, selfTimes);
  }

  /** The protocol: server, model, headers, warm-up, results. No tokenizer yet. */
  public LlmProtocolBuilder protocol() {
    LlmProtocolBuilder p = (baseUrls.size() == 1 ? llm().baseUrl(baseUrl)
        : llm().baseUrls(baseUrls.toArray(new String[0]))
            .baseUrlStrategy(args.value("base-url-strategy").orElseThrow())).model(model)
        .backend(backend.name())
        .requestIdPrefix(requestIdPrefix)
        .results(results);
    if (args.has("served-model-name")) {
      p = p.servedModelName(args.value("served-model-name").orElseThrow());
    } else if (servedModel != null && !servedModel.equals(model)) {
      p = p.servedModelName(servedModel);
    }
    if (args.on("insecure")) {
      p = p.insecureTls();
    }
    for (Map.Entry<String, String> h : headers.entrySet()) {
      LlmProtocolBuilder current = p;
      p = flagged("header", () -> current.header(h.getKey(), h.getValue()));
    }
    if (warmUps != null) {
      p = warmUps == 0 ? p.noWarmUp() : p.warmUp(warmUps);
    }
    if (args.has("cancel-fraction")) {
      p = p.cancelFraction(args.decimal("cancel-fraction").orElseThrow());
      p = args.has("cancel-after-tokens")
          ? p.cancelAfterTokens(args.integer("cancel-after-tokens").orElseThrow())
          : p.cancelAfter(Duration.ofMillis(args.integer("cancel-after-ms").orElseThrow()));
    }
    for (String url : args.values("gpu-metrics-url")) {
      LlmProtocolBuilder current = p;
      p = flagged("gpu-metrics-url", () -> current.gpuMetrics(url));
    }
    if (args.has("otlp-endpoint")) {
      LlmProtocolBuilder current = p;
      p = flagged("otlp-endpoint",
          () -> current.otlp(args.value("otlp-endpoint").orElseThrow()));
    }
    return p;
  }

  /**
   * The request every user sends, as vLLM's request function of the backend sends it, with
   * the dataset's attributes and the flags that apply to it.
   */
  public ActionBuilder request() {
    return backend.request(requestFlags());
  }

  /**
   * What each user runs: the request, or with {@code --multi-turn} its fed conversation's
   * turns (see {@link BenchConversations}).
   */
  public ActionBuilder step() {
    return conversations.map(c -> c.step(requestFlags())).orElseGet(this::request);
  }

  /**
   * The requests to send, one per user: the dataset's, or with {@code --multi-turn} each
   * conversation as its first turn carrying the whole conversation.
   */
  public Samples sample(Tokenizer tokenizer) {
    return conversations.map(c -> c.sample(tokenizer).asSamples())
        .orElseGet(() -> dataset.sample(tokenizer));
  }

  /** The command line's part of every request, for the backend's request factory. */
  private RequestFlags requestFlags() {
    return new PlanRequestFlags(args, endpoint, extraBody, ignoreEosForced());
  }

  /** {@code --multi-turn}: the conversations; empty for single requests. */
  public Optional<BenchConversations> conversations() {
    return conversations;
  }

  /**
   * One LoRA module per request, drawn at random with the run's seed (vLLM draws them with
   * Python's generator, so the same seed picks other modules there); empty without
   * {@code --lora-modules}.
   */
  public List<String> loraChoices(int requests) {
    List<String> modules = args.values("lora-modules");
    if (modules.isEmpty()) {
      return List.of();
    }
    boolean roundRobin = args.value("lora-assignment").orElseThrow().strip()
        .equals(BenchChecks.LORA_ASSIGNMENTS.get(1));
    Random random = new Random(args.integer("seed").orElseThrow());
    List<String> picks = new ArrayList<>(requests);
    for (int i = 0; i < requests; i++) {
      picks.add(modules.get(roundRobin ? i % modules.size() : random.nextInt(modules.size())));
    }
    return picks;
  }

  /**
   * vLLM turns {@code --ignore-eos} on for the random datasets sent through an
   * OpenAI-compatible backend, and for {@code timed_trace}, so that every request generates
   * its whole length.
   */
  public boolean ignoreEosForced() {
    String name = datasetFlags.value("dataset-name").orElseThrow();
    return (name.equals("random") || name.equals("random-mm")) && backend.takes(Takes.SAMPLING)
        || name.equals(TIMED_TRACE) && backend.takes(Takes.IGNORE_EOS);
  }

  public DatasetSpec dataset() {
    return dataset;
  }

  public Backend backend() {
    return backend;
  }

  /** The server's root URL; the first replica's when {@code --base-url} was given several. */
  public String baseUrl() {
    return baseUrl;
  }

  /** Every server's root URL, {@link #baseUrl()} first; one unless replicas were given. */
  public List<String> baseUrls() {
    return baseUrls;
  }

  public String endpoint() {
    return endpoint;
  }

  public String model() {
    return model;
  }

  /** Value of the {@code model} field: the served name when set, else the model. */
  public String requestModelName() {
    return args.value("served-model-name").orElse(servedModel != null ? servedModel : model);
  }

  /** vLLM's {@code tokenizer_id}: the tokenizer flag, else the model. */
  public String tokenizerId() {
    return args.value("tokenizer").orElse(model);
  }

  /** {@code --insecure}: no TLS certificate check. */
  public boolean insecureTls() {
    return args.on("insecure");
  }

  /** {@code --skip-tokenizer-init}: no tokenizer of the model is loaded. */
  public boolean skipTokenizer() {
    return args.on("skip-tokenizer-init");
  }

  /** {@code --prompt-token-ids}: prompts go out as the run's tokenizer's ids. */
  public boolean promptTokenIds() {
    return args.on("prompt-token-ids");
  }

  public Map<String, String> headers() {
    return headers;
  }

  /**
   * Headers of the ready check and profiler calls: the user's, and the bearer key from
   * {@code OPENAI_API_KEY} unless the user set an Authorization header, as the run's requests
   * have them.
   */
  public Map<String, String> controlHeaders(Function<String, String> environment) {
    Map<String, String> out = new LinkedHashMap<>(headers);
    String key = environment.apply("OPENAI_API_KEY");
    boolean userAuthorization = out.keySet().stream()
        .anyMatch(k -> k.equalsIgnoreCase("authorization"));
    if (key != null && !key.isBlank() && !userAuthorization) {
      out.put("Authorization", "Bearer " + key.strip());
    }
    return out;
  }

  public ResultOptions results() {
    return results;
  }

  /** vLLM's {@code --num-warmups}, or null for the plugin's own warm-up ({@code auto}). */
  public Integer warmUps() {
    return warmUps;
  }

  /** The dataset's flags as the run resolved them, converted as parsed. */
  public GivenValues datasetFlags() {
    return datasetFlags;
  }

  public int readyCheckTimeoutSec() {
    return args.integer("ready-check-timeout-sec").orElseThrow();
  }

  public boolean profile() {
    return args.on("profile");
  }

  /**
   * vllm-bench's {@code --profile-batch-threshold}: the profiler starts once the server runs
   * this many requests; empty: it profiles the whole measured run.
   */
  public OptionalInt profileBatchThreshold() {
    return args.has("profile-batch-threshold")
        ? OptionalInt.of(args.integer("profile-batch-threshold").orElseThrow())
        : OptionalInt.empty();
  }

  /** vllm-bench's {@code --profile-duration}: seconds profiled once the threshold is met. */
  public double profileDuration() {
    return args.decimal("profile-duration").orElseThrow();
  }

  public boolean progressBar() {
    return !args.on("disable-tqdm");
  }

  public BenchArgs args() {
    return args;
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
