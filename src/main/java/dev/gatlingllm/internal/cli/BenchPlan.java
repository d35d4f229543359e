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

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.action.Backends.Takes;
import dev.gatlingllm.action.Backends;
import dev.gatlingllm.action.RequestFlags;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.arrival.ArrivalTrace;
import dev.gatlingllm.arrival.RampUpStrategy;
import dev.gatlingllm.dataset.DatasetContent;
import dev.gatlingllm.dataset.DatasetSpec;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.MaxModelLen;
import dev.gatlingllm.dataset.PromptTokenIds;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.client.TargetChooser;
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
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

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
    this.endpoint = endpoint(args, backend);
    checkBackendFlags(args, backend);
    this.headers = pairs("header", args.values("header"), "Invalid header format. Please use "
        + "KEY=VALUE format.");
    checkOneRun(args);
    checkProfileFlags(args);
    this.results = results(args);
    this.warmUps = warmUps(args);
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
    this.datasetFlags = datasetFlags(args, requestIdPrefix);
    checkSelfTimed(args, datasetFlags.value("dataset-name").orElseThrow());
    checkMultimodalChat(args, backend, datasetFlags.value("dataset-name").orElseThrow());
    BfclBackend.check(datasetFlags, backend);
    Datasets.declaredContent(datasetFlags).ifPresent(this::checkDataset);
    DatasetSpec drawn = Datasets.fromFlags(datasetFlags);
    // the ids first: --max-model-len counts the tokens the server will see
    DatasetSpec sampled = args.on("prompt-token-ids") ? PromptTokenIds.of(drawn) : drawn;
    this.dataset = !args.has("max-model-len") ? sampled : flagged("max-model-len",
        () -> MaxModelLen.of(sampled, args.integer("max-model-len").orElseThrow()));
    this.conversations = BenchConversations.of(args, backend, datasetFlags);
    this.extraBody = extraBody(args, backend);
    checkLora(args);
    BenchChecks.checkCancel(args);
    Probing.rate(args, backend);
    checkArrivals();
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
   * The body fields every request gets: {@code --extra-body}, and with {@code openai-chat}
   * the {@code --chat-template-kwargs} under the field the server reads them from (the
   * template is applied by the server here; an extra-body field of that name wins).
   */
  private static Map<String, Object> extraBody(BenchArgs args, Backend backend) {
    Map<String, Object> fields = new LinkedHashMap<>();
    if (args.has("chat-template-kwargs") && backend.chatTemplate()) {
      fields.put("chat_template_kwargs", jsonObject(args, "chat-template-kwargs"));
    } else if (args.has("chat-template-kwargs")) {
      jsonObject(args, "chat-template-kwargs");
    }
    if (args.has("extra-body")) {
      if (!backend.takes(Takes.EXTRA_BODY)) {
        throw new IllegalArgumentException("--extra-body is not supported with --backend "
            + backend.name() + ": " + BenchFlags.find("--extra-body").orElseThrow().note());
      }
      fields.putAll(jsonObject(args, "extra-body"));
    }
    return Map.copyOf(fields);
  }

  /** A flag's value read as a JSON object. */
  private static Map<String, Object> jsonObject(BenchArgs args, String flag) {
    String text = args.value(flag).orElseThrow();
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("--" + flag + " is not valid JSON: "
          + e.getOriginalMessage() + " (in: " + text + ")", e);
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("--" + flag + " must be a JSON object such as "
          + "'{\"min_tokens\": 32}', got: " + text);
    }
    return JSON.convertValue(node, new TypeReference<LinkedHashMap<String, Object>>() {});
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The path: {@code --endpoint}, else the backend's usual one (vLLM's own default is
   * {@code /v1/completions} whatever the backend, which makes its users pass the path vLLM's
   * docs give for the others: that path is the default here).
   */
  private static String endpoint(BenchArgs args, Backend backend) {
    String path = args.has("endpoint") ? args.value("endpoint").orElseThrow()
        : backend.defaultEndpoint();
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("--endpoint must start with '/', got '" + path + "'");
    }
    // vLLM checks the URL the same way before it sends anything
    List<String> endings = backend.endpointEndings();
    if (endings.stream().noneMatch(path::endsWith)) {
      throw new IllegalArgumentException("--endpoint " + path + " with --backend "
          + backend.name() + ": its URL must end with '" + String.join("' or '", endings)
          + "' (as vLLM requires)");
    }
    return path;
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

  private static ResultOptions results(BenchArgs args) {
    ResultOptions.Builder b = ResultOptions.builder()
        .saveResult(args.on("save-result"))
        .append(args.on("append-result"))
        .detailed(args.on("save-detailed"))
        .exitZero(args.on("exit-zero"))
        // vLLM writes the pytorch file only when this variable is set
        .pytorch(System.getenv("SAVE_TO_PYTORCH_BENCHMARK_FORMAT") != null);
    b = TimelineFlags.apply(args, b);
    if (args.has("percentile-metrics")) {
      // unset, the result takes vLLM's default of its task: ttft,tpot,itl or, pooling, e2el
      ResultOptions.Builder start = b;
      b = flagged("percentile-metrics",
          () -> start.percentileMetrics(args.value("percentile-metrics").orElseThrow()));
    }
    ResultOptions.Builder withMetrics = b;
    b = flagged("metric-percentiles",
        () -> withMetrics.metricPercentiles(args.value("metric-percentiles").orElseThrow()));
    if (args.has("label")) {
      b = b.label(args.value("label").orElseThrow());
    }
    if (!args.values("metadata").isEmpty()) {
      ResultOptions.Builder current = b;
      b = flagged("metadata",
          () -> current.metadataPairs(args.values("metadata").toArray(new String[0])));
    }
    if (args.has("result-dir")) {
      ResultOptions.Builder current = b;
      b = flagged("result-dir", () -> current.resultDir(args.value("result-dir").orElseThrow()));
    }
    if (args.has("result-filename")) {
      ResultOptions.Builder current = b;
      b = flagged("result-filename",
          () -> current.resultFilename(args.value("result-filename").orElseThrow()));
    }
    if (args.has("goodput")) {
      ResultOptions.Builder current = b;
      b = flagged("goodput", () -> current.goodput(String.join(" ", args.values("goodput"))));
    }
    if (args.on("stop-on-server-noncompliance")) {
      b = b.stopOnServerNonCompliance(true);
    }
    return SteadyStateFlags.apply(args, b).build();
  }

  /** vLLM's {@code --num-warmups}; null for {@code auto} (the plugin's own warm-up). */
  private static Integer warmUps(BenchArgs args) {
    String v = args.value("num-warmups").orElseThrow().strip();
    if (v.equals("auto")) {
      return null;
    }
    int n = args.integer("num-warmups").orElseThrow();
    if (n < 0) {
      throw new IllegalArgumentException("--num-warmups must be >= 0 (or auto), got " + n);
    }
    return n;
  }

  /**
   * The dataset flags for {@link Datasets#fromFlags}: those given, plus vLLM's defaults of
   * the ones whose default differs from the dataset builders' own; the values as converted
   * when parsed.
   */
  private static GivenValues datasetFlags(BenchArgs args, String requestIdPrefix) {
    GivenValues.Builder flags = GivenValues.builder();
    for (String name : List.of("dataset-name", "num-prompts", "seed")) {
      flags.copy(name, args);
    }
    flags.text("request-id-prefix", requestIdPrefix);
    // older vLLM's name of the dataset file
    if (args.has("dataset") && !args.has("dataset-path")) {
      flags.copy("dataset", args, "dataset-path");
    }
    args.names().stream().filter(Datasets.FLAGS::contains).forEach(f -> flags.copy(f, args));
    // vLLM's general lengths win over the dataset's own flags; a dataset without such a
    // length ignores them, as vLLM's do
    String name = args.value("dataset-name").orElseThrow();
    if (args.has("input-len") && INPUT_LEN.containsKey(name)) {
      flags.copy("input-len", args, INPUT_LEN.get(name));
    }
    if (args.has("output-len") && OUTPUT_LEN.containsKey(name)) {
      flags.copy("output-len", args, OUTPUT_LEN.get(name));
    }
    return flags.build();
  }

  /** The flag {@code --input-len} sets, by dataset: vLLM sets {@code random_input_len}. */
  private static final Map<String, String> INPUT_LEN = Map.of("random", "random-input-len",
      "random-mm", "random-input-len", "random-rerank", "random-input-len");

  /** The flag {@code --output-len} sets, by dataset, as vLLM maps it. */
  private static final Map<String, String> OUTPUT_LEN = Map.of("random", "random-output-len",
      "random-mm", "random-output-len", "sharegpt", "sharegpt-output-len",
      "custom", "custom-output-len", "hf", "hf-output-len",
      "spec_bench", "spec-bench-output-len", "prefix_repetition", "prefix-repetition-output-len");

  private void checkArrivals() {
    if (args.has("max-concurrency") && args.integer("max-concurrency").orElseThrow() < 1) {
      throw new IllegalArgumentException("--max-concurrency must be >= 1, got "
          + args.integer("max-concurrency").orElseThrow());
    }
    checkArrivalValues();
    // what the flags alone do not show (a replay with a rate...) is refused by the profile
    flagged("arrival flags", () -> arrivals(1));
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
  }

  /**
   * Each arrival flag's value, refused in the words of the flag the user typed: the arrival
   * profile checks the same values again, but names them as the DSL does ({@code
   * requestRate}, {@code Double.POSITIVE_INFINITY}).
   */
  private void checkArrivalValues() {
    double rate = args.decimal("request-rate").orElseThrow();
    if (!(rate > 0)) {
      throw new IllegalArgumentException("--request-rate must be > 0, or inf to send "
          + "everything at once; got " + args.value("request-rate").orElseThrow().strip());
    }
    double burstiness = args.decimal("burstiness").orElseThrow();
    if (!(burstiness > 0) || Double.isInfinite(burstiness)) {
      throw new IllegalArgumentException("--burstiness must be a finite number > 0 (1: "
          + "Poisson arrivals, below 1 burstier, above 1 more regular); got "
          + args.value("burstiness").orElseThrow().strip());
    }
    if (!args.has("ramp-up-strategy")) {
      return;
    }
    String strategy = args.value("ramp-up-strategy").orElseThrow();
    try {
      RampUpStrategy.fromCliName(strategy);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--ramp-up-strategy must be linear or exponential; "
          + "got " + strategy, e);
    }
    for (String flag : List.of("ramp-up-start-rps", "ramp-up-end-rps")) {
      if (args.has(flag) && args.integer(flag).orElseThrow() < 0) {
        throw new IllegalArgumentException("--" + flag + " must be >= 0; got "
            + args.integer(flag).orElseThrow());
      }
    }
    if (args.has("ramp-up-start-rps") && args.has("ramp-up-end-rps")) {
      int start = args.integer("ramp-up-start-rps").orElseThrow();
      int end = args.integer("ramp-up-end-rps").orElseThrow();
      if (start > end) {
        throw new IllegalArgumentException("--ramp-up-start-rps (" + start
            + ") must be <= --ramp-up-end-rps (" + end + ")");
      }
      if (end == 0) {
        throw new IllegalArgumentException("--ramp-up-end-rps must be > 0; got 0");
      }
      if (start == 0 && strategy.strip().equalsIgnoreCase("exponential")) {
        throw new IllegalArgumentException("--ramp-up-strategy exponential needs "
            + "--ramp-up-start-rps > 0 (it multiplies the rate); got 0");
      }
    }
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
    ArrivalProfile.Builder b = ArrivalProfile.builder().numPrompts(numPrompts)
        .seed(args.integer("seed").orElseThrow())
        .burstiness(args.decimal("burstiness").orElseThrow());
    double rate = args.decimal("request-rate").orElseThrow();
    if (selfTimed() && selfTimes.isPresent()) {
      if (Double.isFinite(rate) || args.has("ramp-up-strategy")) {
        throw new IllegalArgumentException("timed_trace is replayed at its own timestamps: "
            + "--request-rate and --ramp-up-strategy need --no-self-timed");
      }
      b = b.replay(ArrivalTrace.ofSeconds(selfTimes.get()));
    } else if (args.has("ramp-up-strategy")) {
      if (!Double.isInfinite(rate)) {
        throw new IllegalArgumentException("When using ramp-up, do not specify "
            + "--request-rate: the ramp-up flags set the rate. Remove --request-rate " + rate);
      }
      if (!args.has("ramp-up-start-rps") || !args.has("ramp-up-end-rps")) {
        throw new IllegalArgumentException("When using --ramp-up-strategy, both "
            + "--ramp-up-start-rps and --ramp-up-end-rps must be specified");
      }
      b = b.rampUp(RampUpStrategy.fromCliName(args.value("ramp-up-strategy").orElseThrow()),
          args.integer("ramp-up-start-rps").orElseThrow(),
          args.integer("ramp-up-end-rps").orElseThrow());
    } else {
      if (args.has("ramp-up-start-rps") || args.has("ramp-up-end-rps")) {
        throw new IllegalArgumentException("--ramp-up-start-rps and --ramp-up-end-rps need "
            + "--ramp-up-strategy linear or exponential");
      }
      b = b.requestRate(rate);
    }
    if (args.has("max-concurrency")) {
      b = b.maxConcurrency(args.integer("max-concurrency").orElseThrow());
    }
    return b.build();
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
    return backend.request(new Flags());
  }

  /**
   * What each user runs: the request, or with {@code --multi-turn} its fed conversation's
   * turns (see {@link BenchConversations}).
   */
  public ActionBuilder step() {
    return conversations.map(c -> c.step(new Flags())).orElseGet(this::request);
  }

  /**
   * The requests to send, one per user: the dataset's, or with {@code --multi-turn} each
   * conversation as its first turn carrying the whole conversation.
   */
  public Samples sample(Tokenizer tokenizer) {
    return conversations.map(c -> c.sample(tokenizer).asSamples())
        .orElseGet(() -> dataset.sample(tokenizer));
  }

  /** {@code --multi-turn}: the conversations; empty for single requests. */
  public Optional<BenchConversations> conversations() {
    return conversations;
  }

  /** The command line's part of every request, for the backend's request factory. */
  private final class Flags implements RequestFlags {

    @Override
    public String endpoint() {
      return endpoint;
    }

    @Override
    public boolean on(String flag) {
      return args.on(flag) || (flag.equals("ignore-eos") && ignoreEosForced());
    }

    @Override
    public Map<String, Object> extraBody() {
      return extraBody;
    }


    @Override
    public OptionalDouble decimal(String flag) {
      return args.has(flag) ? OptionalDouble.of(args.decimal(flag).orElseThrow())
          : OptionalDouble.empty();
    }

    @Override
    public OptionalInt integer(String flag) {
      return args.has(flag) ? OptionalInt.of(args.integer(flag).orElseThrow())
          : OptionalInt.empty();
    }

    @Override
    public Optional<String> model() {
      return args.has("lora-modules") ? Optional.of("#{" + LORA_ATTRIBUTE + "}")
          : Optional.empty();
    }

    @Override
    public <T> T flagged(String flag, Supplier<T> call) {
      return BenchChecks.flagged(flag, call);
    }
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

  private static Map<String, String> pairs(String flag, List<String> items, String format) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String item : items) {
      int eq = item.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("--" + flag + " '" + item + "': " + format);
      }
      out.put(item.substring(0, eq).strip(), item.substring(eq + 1).strip());
    }
    return out;
  }




  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
