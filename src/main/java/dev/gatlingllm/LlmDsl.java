package dev.gatlingllm;

import dev.gatlingllm.action.AudioRequestBuilder;
import dev.gatlingllm.action.ConversationBuilder;
import dev.gatlingllm.action.EmbeddingsRequestBuilder;
import dev.gatlingllm.internal.action.LlmActions;
import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.action.RerankRequestBuilder;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.arrival.ArrivalTrace;
import dev.gatlingllm.internal.arrival.InjectionPlan;
import dev.gatlingllm.arrival.RampUpStrategy;
import dev.gatlingllm.dataset.BurstGptDataset;
import dev.gatlingllm.dataset.ShareGptConversations;
import dev.gatlingllm.dataset.SyntheticConversations;
import dev.gatlingllm.dataset.CustomDataset;
import dev.gatlingllm.dataset.CustomMediaDataset;
import dev.gatlingllm.dataset.DatasetSpec;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.HfDataset;
import dev.gatlingllm.dataset.MixedServingBoundaryDataset;
import dev.gatlingllm.dataset.PrefixRepetitionDataset;
import dev.gatlingllm.dataset.RandomDataset;
import dev.gatlingllm.dataset.RandomMultiModalDataset;
import dev.gatlingllm.dataset.RandomRerankDataset;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.dataset.ShareGptDataset;
import dev.gatlingllm.dataset.SonnetDataset;
import dev.gatlingllm.dataset.SpecBenchDataset;
import dev.gatlingllm.dataset.SpeedBenchDataset;
import dev.gatlingllm.dataset.TimedTraceDataset;
import dev.gatlingllm.dataset.TxtSlicesDataset;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.internal.protocol.LlmRun;
import dev.gatlingllm.internal.protocol.RunResults;
import dev.gatlingllm.internal.protocol.ServerTokenizers;
import dev.gatlingllm.report.ReportOutcome;
import dev.gatlingllm.internal.scale.ScaleOut;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.spi.ToolProvider;

/**
 * Entry point of the gatling-llm DSL, the one import a simulation needs beside Gatling's
 * {@code CoreDsl}: {@code import static dev.gatlingllm.LlmDsl.*;}. Requests, datasets,
 * tokenizers, arrival profiles, result options and the embedded simulator all start here;
 * a simulation never needs to name the plugin's types (chain the calls, or use {@code var}).
 *
 * <pre>{@code
 * var prompts = random().inputLen(256).outputLen(64).numPrompts(200).sample(gpt2());
 * var poisson = arrivals().numPrompts(200).requestRate(10).build();
 * setUp(scenario("bench")
 *         .feed(prompts.feeder())
 *         .exec(completions("generate").fromDataset())
 * var llm = llm().baseUrl("http://127.0.0.1:8000").model("my-model").arrivals(poisson);
 * setUp(scenario("bench")
 *         .feed(prompts.feeder())
 *         .exec(completions("generate").fromDataset())
 *         .injectOpen(llm.injection()))      // arrivals paced on the profile's schedule
 *     .protocols(llm);
 * }</pre>
 *
 * <p>Everything a run uses is given to it as an argument: the profile to the protocol
 * ({@code llm().arrivals(profile)}), which paces the run (each user's first request waits for
 * its slot), injects the users ({@code llm.injection()}) and goes into the result file; the
 * tokenizer to the dataset ({@code sample(tokenizer)}) and to the protocol
 * ({@code llm().tokenizer(tokenizer)}, GPT-2 when not given), which counts the output of
 * responses without usage. The results are written after the run without code in
 * {@code after()}. What contradicts itself (two protocols, a max concurrency that differs
 * from the profile's) is refused before the run, with a message naming the fix.
 */
public final class LlmDsl {

  /** {@code --ramp-up-strategy linear}, for {@code arrivals().rampUp(LINEAR, start, end)}. */
  public static final RampUpStrategy LINEAR = RampUpStrategy.LINEAR;

  /** {@code --ramp-up-strategy exponential}, for {@code arrivals().rampUp(EXPONENTIAL, ...)}. */
  public static final RampUpStrategy EXPONENTIAL = RampUpStrategy.EXPONENTIAL;

  private LlmDsl() {}

  /** A protocol to configure: base URL, model, authentication, timeouts. */
  public static LlmProtocolBuilder llm() {
    return new LlmProtocolBuilder();
  }

  /** A streamed {@code /v1/completions} request. */
  public static LlmRequestBuilder completions(String name) {
    return LlmRequestBuilder.completions(name);
  }

  /** A streamed {@code /v1/chat/completions} request. */
  public static LlmRequestBuilder chat(String name) {
    return LlmRequestBuilder.chat(name);
  }

  /**
   * A whole conversation per virtual user, turn after turn, each turn a {@code chat} request
   * carrying the server's real previous answers and {@code X-Session-ID: <conversation id>};
   * feed the scenario from {@link #conversations()} or {@link #shareGptConversations}. Gatling
   * rows per turn index ({@code <name> turn 1}, {@code <name> turn 1 TTFT}, ...), and
   * {@code per_turn_metrics} in the result file. An arrival profile paces conversations.
   *
   * <pre>{@code
   * .feed(conversations().turns(5).count(100).sample(gpt2()).feeder())
   * .exec(conversation(chat("chat")).thinkTime(ofSeconds(1)))
   * }</pre>
   */
  public static ConversationBuilder conversation(LlmRequestBuilder chat) {
    return ConversationBuilder.of(chat);
  }

  /**
   * Synthetic conversations ({@code vllm-bench --multi-turn} on the random dataset): turns of
   * an exact token length, answers of an exact length, optional shared prefixes.
   */
  public static SyntheticConversations conversations() {
    return SyntheticConversations.builder();
  }

  /** Every turn of the ShareGPT conversations of a file that have at least two turns. */
  public static ShareGptConversations shareGptConversations(String path) {
    return ShareGptConversations.of(Path.of(path));
  }

  /**
   * A streamed {@code /v1/responses} request (the Responses API; vLLM's Rust client's
   * {@code openai-responses}): timed from its {@code response.output_text.delta} events, its
   * token counts from the {@code response.completed} event's usage.
   */
  public static LlmRequestBuilder responses(String name) {
    return LlmRequestBuilder.responses(name);
  }

  /**
   * A streamed {@code /v1/messages} request (the Anthropic Messages API, which vLLM serves
   * too; AIPerf's {@code messages} endpoint type): timed from its {@code text_delta} events,
   * thinking blocks counted as reasoning, its token counts from the usage of
   * {@code message_start} and {@code message_delta}.
   */
  public static LlmRequestBuilder messages(String name) {
    return LlmRequestBuilder.forBackend("anthropic-messages", name);
  }

  /**
   * An embeddings request ({@code /v1/embeddings}): a pooling request with vLLM's reduced
   * metric set; {@code variant(...)} picks the body of another vLLM embeddings backend.
   */
  public static EmbeddingsRequestBuilder embeddings(String name) {
    return EmbeddingsRequestBuilder.embeddings(name);
  }

  /** A rerank request ({@code /v1/rerank}, vLLM's {@code vllm-rerank}): a pooling request. */
  public static RerankRequestBuilder rerank(String name) {
    return RerankRequestBuilder.rerank(name);
  }

  /**
   * A streamed transcription ({@code /v1/audio/transcriptions}; {@code .translations()} for
   * {@code /v1/audio/translations}), uploaded as vLLM's {@code openai-audio} backend does.
   */
  public static AudioRequestBuilder audio(String name) {
    return AudioRequestBuilder.of(name);
  }

  /**
   * An arrival process like {@code vllm bench serve}'s: request rate (Poisson, or gamma with
   * a burstiness), linear / exponential ramp-up, replay of recorded times, max concurrency,
   * seed. Give it to the protocol ({@code llm().arrivals(profile)}) and inject the scenario
   * with the protocol's {@code injection()}: that is all it takes.
   */
  public static ArrivalProfile.Builder arrivals() {
    return ArrivalProfile.builder();
  }

  /** Recorded arrival times to replay ({@code arrivals().replay(...)}), in seconds. */
  public static ArrivalTrace traceOfSeconds(double... timestampsSeconds) {
    return ArrivalTrace.ofSeconds(timestampsSeconds);
  }

  /** The {@code Timestamp} column of a BurstGPT CSV file, as arrival times to replay. */
  public static ArrivalTrace burstGptTrace(String csvPath) {
    return ArrivalTrace.fromBurstGptCsv(Path.of(csvPath));
  }

  /** A column of a CSV file (seconds), as arrival times to replay. */
  public static ArrivalTrace csvTrace(String csvPath, String column) {
    return ArrivalTrace.fromCsv(Path.of(csvPath), column);
  }

  /** A field of each line of a JSONL file (seconds), as arrival times to replay. */
  public static ArrivalTrace jsonlTrace(String jsonlPath, String field) {
    return ArrivalTrace.fromJsonl(Path.of(jsonlPath), field);
  }



  /**
   * Holds each user here until its slot of the run's arrival profile. Optional: without it,
   * each user's first request waits for the slot; place it where the wait belongs when that
   * is not the first request (say, after a login step), or to take a new slot in a loop.
   */
  public static ActionBuilder awaitArrival() {
    return LlmActions.awaitArrival();
  }

  /** Options of the result files, as {@code vllm bench serve}'s flags. */
  public static ResultOptions.Builder results() {
    return ResultOptions.builder();
  }

  /**
   * Prints vLLM's summary and writes the result JSON into the Gatling run folder, next to
   * {@code index.html}. Not needed: without it the plugin writes them itself once the run and
   * Gatling's report are done. Call it from {@code after()} for the outcome, or for results
   * before your own {@code after()} code runs. Never throws (an exception
   * there would cost the HTML report); problems are logged and returned, and the JVM exits
   * with status 3 once Gatling's report is written, which fails {@code gatling:test}
   * ({@code -Dllm.failOnResultError=false} to keep the exit status).
   *
   * <pre>{@code
   * @Override
   * public void after() {
   *   writeResults(this);
   * }
   * }</pre>
   */
  public static ReportOutcome writeResults(Simulation simulation) {
    return RunResults.write(simulation.getClass());
  }

  // ---- datasets: vLLM's --dataset-name values; sample(tokenizer) draws the requests ----

  /** vLLM's {@code random} dataset: random token text of an exact token length. */
  public static RandomDataset random() {
    return Datasets.random();
  }

  /** vLLM's {@code sharegpt} dataset: the first turn of each conversation of the file. */
  public static ShareGptDataset shareGpt(String path) {
    return Datasets.shareGpt(Path.of(path));
  }

  /** vLLM's {@code sonnet} dataset: poem lines after a shared prefix. */
  public static SonnetDataset sonnet(String path) {
    return Datasets.sonnet(Path.of(path));
  }

  /** vLLM's {@code burstgpt} dataset: prompts of a trace's request and response sizes. */
  public static BurstGptDataset burstGpt(String path) {
    return Datasets.burstGpt(Path.of(path));
  }

  /** vLLM's {@code custom} dataset: the {@code prompt} of each JSONL line. */
  public static CustomDataset custom(String path) {
    return Datasets.custom(Path.of(path));
  }

  /** vLLM's {@code prefix_repetition} dataset: random prompts sharing a few prefixes. */
  public static PrefixRepetitionDataset prefixRepetition() {
    return Datasets.prefixRepetition();
  }

  /**
   * vLLM's {@code mixed_serving_boundary} dataset: shared-prefix, long-prefill and long-decode
   * requests in one run; the result splits their figures by class
   * ({@code request_class_metrics}).
   */
  public static MixedServingBoundaryDataset mixedServingBoundary() {
    return Datasets.mixedServingBoundary();
  }

  /** vLLM's {@code random-mm} dataset: random text plus random images. */
  public static RandomMultiModalDataset randomMultiModal() {
    return Datasets.randomMultiModal();
  }

  /** vLLM's {@code random-rerank} dataset: a random query and batches of documents. */
  public static RandomRerankDataset randomRerank() {
    return Datasets.randomRerank();
  }

  /** vLLM's {@code spec_bench} dataset: the first turn of Spec-Bench's questions. */
  public static SpecBenchDataset specBench(String path) {
    return Datasets.specBench(Path.of(path));
  }

  /** vLLM's {@code custom_image} dataset: JSONL prompts with their {@code image_files}. */
  public static CustomMediaDataset customImage(String path) {
    return Datasets.customImage(Path.of(path));
  }

  /** vLLM's {@code custom_audio} dataset: JSONL prompts with their {@code audio_files}. */
  public static CustomMediaDataset customAudio(String path) {
    return Datasets.customAudio(Path.of(path));
  }

  /**
   * vLLM's {@code txt-slices} dataset: slices of a text file (or http(s) URL) at the random
   * dataset's lengths.
   */
  public static TxtSlicesDataset txtSlices(String pathOrUrl) {
    return Datasets.txtSlices(pathOrUrl);
  }

  /**
   * vLLM's {@code speed_bench} dataset: NVIDIA SPEED-Bench questions from its prepared folder
   * (one {@code <subset>.jsonl} per subset).
   */
  public static SpeedBenchDataset speedBench(String folder) {
    return Datasets.speedBench(Path.of(folder));
  }

  /**
   * vLLM's {@code timed_trace} dataset: a recorded trace (Mooncake's JSONL among them) whose
   * hash ids become shared prompt blocks; replay its arrivals with {@link #traceArrivals}.
   */
  public static TimedTraceDataset timedTrace(String path) {
    return Datasets.timedTrace(Path.of(path));
  }

  /**
   * The sampled requests' own arrival times ({@code timed_trace}), to replay:
   * {@code arrivals().replay(traceArrivals(samples))}.
   *
   * @throws IllegalArgumentException when the dataset carries no arrival times
   */
  public static ArrivalTrace traceArrivals(Samples samples) {
    return ArrivalTrace.ofSeconds(samples.arrivalSeconds().orElseThrow(() ->
        new IllegalArgumentException("the " + samples.dataset() + " dataset carries no arrival "
            + "times; only " + Datasets.SELF_TIMED + " do")));
  }

  /** vLLM's {@code hf} dataset: a Hugging Face hub id, or a local Parquet / JSON(L) file. */
  public static HfDataset hf(String idOrPath) {
    return Datasets.hf(idOrPath);
  }

  /**
   * Any dataset from {@code vllm bench serve}'s dataset flags, e.g.
   * {@code dataset("--dataset-name", "sonnet", "--dataset-path", "sonnet.txt")}.
   */
  public static DatasetSpec dataset(String... vllmFlags) {
    return Datasets.fromArgs(vllmFlags);
  }

  // ---- tokenizers ----

  /**
   * The GPT-2 tokenizer the plugin ships. Loaded in a simulation, it also counts the output of
   * responses without {@code usage} and names the result's {@code tokenizer_id}.
   */
  public static Tokenizer gpt2() {
    Tokenizer tokenizer = Tokenizer.gpt2();
    return tokenizer;
  }

  /**
   * A tokenizer: a {@code tokenizer.json}, a tiktoken file ({@code *.tiktoken},
   * {@code tiktoken.model}) or their folder, else a hub model id (its {@code tokenizer.json},
   * else its {@code tiktoken.model}; downloaded once, then cached); null, empty or
   * {@code gpt2} (the hub's GPT-2 is the shipped one) gives {@link #gpt2()}. To re-align
   * random and prefix_repetition prompts to the server's counts as vLLM 0.29 does, sample
   * with {@code tokenizer(id).realignedByServer(baseUrl, model, headers, false)}. Loaded in a
   * simulation, it also counts the output of responses without {@code usage}, and the
   * value given is the result's {@code tokenizer_id}.
   */
  public static Tokenizer tokenizer(String pathOrModelId) {
    Tokenizer tokenizer = Tokenizer.GPT2_ID.equals(pathOrModelId)
        && !Files.exists(Path.of(pathOrModelId))
        ? Tokenizer.gpt2() : Tokenizer.resolve(pathOrModelId);
    return tokenizer;
  }

  /**
   * A tiktoken rank file whose pre-tokenizer pattern is the model's own (a model that ships
   * {@code tiktoken.model} with its own regular expression); {@link #tokenizer(String)} picks
   * the pattern from the file's encoding name instead.
   */
  public static Tokenizer tiktoken(String rankFile, String splitPattern) {
    Tokenizer tokenizer = Tokenizer.tiktoken(Path.of(rankFile), splitPattern);
    return tokenizer;
  }

  /**
   * The server's own tokenizer, through its {@code /tokenize} and {@code /detokenize} (vLLM's
   * fallback when no tokenizer file can be had): every count is an HTTP call, made before the
   * run or on the output-counting thread, never on an event loop.
   *
   * @param headers sent with each call (an API key, for instance); never logged
   */
  public static Tokenizer serverTokenizer(String baseUrl, String model,
      Map<String, String> headers, boolean insecureTls) {
    Tokenizer tokenizer = Tokenizer.fromServer(baseUrl, model, headers, insecureTls);
    return tokenizer;
  }

  // ---- the embedded simulator, for try-outs ----

  /** Settings of an embedded vLLM-like server: TTFT, ITL, jitter, faults, ... */
  public static SimulatorConfig.Builder simulator() {
    return SimulatorConfig.builder();
  }

  /**
   * Starts an embedded vLLM-like server on a free port ({@code .baseUrl()} says where),
   * stopped once the results of the run are written. It counts prompts with the tokenizer
   * {@code config} names, else with the shipped GPT-2 (the tokenizer {@link #gpt2()} samples
   * with and the protocol counts with by default), so that its {@code usage.prompt_tokens} is
   * the run's own count; name the dataset's tokenizer in {@code config.tokenizer(id)} when it
   * is another.
   */
  public static Simulator startSimulator(SimulatorConfig.Builder config) {
    SimulatorConfig built = config.build().tokenizer() == null
        ? config.tokenizer(Tokenizer.GPT2_ID).build() : config.build();
    Simulator simulator = Simulator.start(built);
    String url = simulator.baseUrl();
    if (built.tokenizer() != null) {
      ServerTokenizers.note(url, built.tokenizer());
    }
    LlmRun.closeAfterRun(() -> {
      ServerTokenizers.forget(url);
      simulator.close();
    });
    return simulator;
  }

  // ---- sweeps ----

  /**
   * Runs {@code vllm bench sweep}'s equivalent with its command-line arguments ({@code serve},
   * {@code serve_sla}, {@code workload}, {@code plot}, {@code plot_pareto} and their flags;
   * {@code --help} lists them), printing to the console.
   *
   * <p>The sweep is a tool around {@code bench serve}, which builds its simulation with this
   * DSL; so the DSL finds the sweep by name, as the JDK's {@link ToolProvider}
   * {@code "gatling-llm-sweep"} ({@code dev.gatlingllm.internal.sweep.SweepTool}), instead of depending
   * on its package. {@code dev.gatlingllm.sweep.Sweep} is the typed Java API.
   *
   * @return the exit status: 0 when every run succeeded, 1 when some failed, 2 when the
   *     arguments were refused
   */
  public static int sweep(String... args) {
    return ServiceLoader.load(ToolProvider.class, LlmDsl.class.getClassLoader()).stream()
        .map(ServiceLoader.Provider::get)
        .filter(tool -> tool.name().equals("gatling-llm-sweep"))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("the sweep tool (gatling-llm-sweep) is "
            + "not on the class path: META-INF/services/java.util.spi.ToolProvider is missing"))
        .run(System.out, System.err, args);
  }
}
