package dev.gatlingllm.cli;

import static dev.gatlingllm.LlmDsl.awaitArrival;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.listFeeder;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.action.RequestPreview;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.dataset.Conversations;
import dev.gatlingllm.dataset.DatasetContent;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.internal.logging.Refusal;
import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.internal.protocol.LlmRun;
import dev.gatlingllm.internal.protocol.ServedModels;
import dev.gatlingllm.internal.report.DatasetStats;
import dev.gatlingllm.report.ReportOutcome;
import dev.gatlingllm.internal.scale.ScaleOut;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.Simulation;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code vllm bench serve} as a Gatling simulation: the same flags, run procedure, console
 * summary and result file, plus Gatling's report.
 *
 * <pre>
 * ./mvnw gatling:test -Dgatling.simulationClass=dev.gatlingllm.cli.BenchServe \
 *   -Dllm.args="--backend openai-chat --base-url http://127.0.0.1:8000 --model m \
 *               --dataset-name random --request-rate 20 --num-prompts 500 --save-result"
 * </pre>
 *
 * <p>Arguments come from {@code -Dllm.args} (split like a shell) and {@code -Dllm.argsFile}
 * (one flag per line), see {@link CommandLine}; {@code --help} prints every flag. The run
 * follows vLLM's order: flags checked, tokenizer and dataset loaded, ready check with the
 * first prompt, warm-up, profiler start, the measured run with a progress line, profiler
 * stop, then vLLM's summary and result JSON.
 */
public class BenchServe extends Simulation {

  /** How the console names this simulation, as vLLM users name the command. */
  private static final String TOOL = "gatling-llm bench serve";

  /** Hub ids of the tokenizer that ships inside the plugin jar. */
  private static final Set<String> SHIPPED_GPT2 = Set.of("gpt2", "openai-community/gpt2");

  private final BenchPlan plan;
  private final Tokenizer tokenizer;
  private final Profiler profiler;
  private final int total;
  /** The sample's statistics for {@code --plot-dataset-stats}; null without it. */
  private final DatasetStats datasetStats;
  private final Samples samples;
  private final boolean measuring;
  private ProgressLine progress;

  /**
   * The flags the launcher parsed for the next run. Gatling builds a simulation by reflection,
   * with no arguments, so this is the one channel from {@code gatling-llm bench serve} (same
   * JVM) to the simulation it starts: set just before Gatling starts, taken once by the
   * constructor. A run that {@code gatling:test} forks has no launcher in its JVM: it parses
   * {@code -Dllm.args} / {@code -Dllm.argsFile} instead (the JVM's command line is the channel
   * there). Either way the words are parsed once.
   */
  private static final AtomicReference<BenchArgs> HANDED_OVER = new AtomicReference<>();

  /**
   * Gives the next {@code BenchServe} Gatling builds in this JVM its flags, already parsed
   * (the launcher's {@code bench serve}).
   */
  public static void handOver(BenchArgs args) {
    HANDED_OVER.set(Objects.requireNonNull(args, "args"));
  }

  /** Takes back flags handed over but not used (a run that failed before the simulation). */
  public static void clearHandOver() {
    HANDED_OVER.set(null);
  }

  public BenchServe() {
    BenchArgs args = HANDED_OVER.getAndSet(null);
    try {
      if (args == null) {
        args = BenchArgs.parse(CommandLine.fromSystemProperties());
      }
    } catch (RuntimeException e) {
      throw refuse(e);
    }
    if (args.help()) {
      out().print(BenchFlagSpec.usage());
      out().flush();
      if (CommandLine.forkedByGatlingPlugin()) {
        // the JVM gatling:test forked for this run: nothing else is in it, and Gatling refuses
        // a run without requests, so stop here with success, as --help does
        System.exit(0);
      }
      throw new IllegalStateException("--help: the flags were printed; nothing to run");
    }
    if (OfflineModes.requested(args)) {
      runOffline(args);
    }
    try {
      plan = BenchPlan.of(args);
      plan.modelLines().forEach(out()::println);
      if (!plan.results().exitZero()) {
        // before the tokenizer asks the server anything in the model's name
        ServedModels.refuseIfNotServed(plan.baseUrl(), plan.controlHeaders(System::getenv),
            plan.insecureTls(), plan.requestModelName());
      }
      tokenizer = realigned(plan, loadTokenizerOrServer(plan, out()), out());
    } catch (RuntimeException e) {
      throw refuse(e);
    }
    Samples sampled;
    try {
      sampled = plan.sample(tokenizer);
      if (sampled.size() == 0) {
        throw new IllegalArgumentException("the dataset gave no request to send");
      }
      // the flags could not tell for every dataset (a local hf file, ShareGPT rows)
      plan.checkDataset(DatasetContent.of(sampled));
    } catch (RuntimeException e) {
      tokenizer.close();
      throw refuse(e);
    }
    samples = sampled;
    // with --multi-turn a user sends all turns of its conversation
    total = Conversations.turnsOf(samples.records());
    datasetStats = args.on("plot-dataset-stats") ? DryRun.forPlot(samples) : null;
    ArrivalProfile profile;
    try {
      profile = plan.arrivals(samples.size(), samples.arrivalSeconds());
    } catch (RuntimeException e) {
      tokenizer.close();
      throw refuse(e);
    }
    // without a tokenizer of the model, output tokens are the server's usage counts only
    LlmProtocolBuilder protocol = plan.skipTokenizer() ? plan.protocol()
        : plan.protocol().tokenCounter(plan.tokenizerId(), tokenizer::count);
    Map<String, String> headers = plan.controlHeaders(System::getenv);
    RequestPreview.Rendered test;
    try {
      test = TestRequest.of(plan, samples.requests().get(0));
    } catch (RuntimeException e) {
      tokenizer.close();
      throw refuse(e);
    }
    profiler = plan.profile() ? new Profiler(plan.baseUrl(), headers, test, out(),
        plan.insecureTls()) : null;
    if (plan.temperatureWarning() != null) {
      out().println(plan.temperatureWarning());
    }
    if (!plan.ignoredFlags().isEmpty()) {
      out().println("Not sent with --backend " + plan.backend().name() + ", as vLLM does not: "
          + String.join(" ", plan.ignoredFlags()));
    }

    String notReady = readyCheck(plan, headers, test);
    if (notReady != null) {
      measuring = false;
      // Gatling refuses to report a run that lasted 0 ms: the user stays a moment
      setUp(scenario("bench serve").exec(ReadyCheckFailure.builder(notReady))
              .pause(Duration.ofMillis(200))
              .injectOpen(atOnceUsers(1)))
          .protocols(protocol.noWarmUp())
          .assertions(details(ReadyCheckFailure.NAME).failedRequests().count().is(0L));
      return;
    }
    measuring = true;
    printTraffic(profile);
    plan.conversations().ifPresent(c -> c.describe(out()));
    // --probe-request-rate: the run starts them and stops them when it writes its results
    LlmProtocolBuilder paced = protocol.arrivals(profile).onStart(run -> Probing.start(plan,
        samples, ScaleOut.current().share().sizeOf(total), run));
    setUp(scenario("bench serve")
            .feed(listFeeder(samples.forThisInjector(feederRecords(samples))).queue())
            .exec(awaitArrival())
            .exec(plan.step())
            .injectOpen(paced.injection()))
        .protocols(paced);
  }

  /** The console as it is now (tests replace it). */
  private static PrintStream out() {
    return System.out;
  }

  /**
   * A mistake in the flags, their values or the dataset: the run ends with this one line on
   * the console and the stack trace in the log file (see {@link Refusal}).
   */
  private static Refusal refuse(RuntimeException e) {
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    return new Refusal(TOOL, message, e);
  }

  /**
   * {@code --compare} or {@code --dry-run}: done without Gatling, then the JVM that
   * {@code gatling:test} forked ends with success, as with {@code --help}.
   */
  private static void runOffline(BenchArgs args) {
    try {
      OfflineModes.run(args, new PrintWriter(out(), true), OfflineModes.defaultFolder());
    } catch (RuntimeException e) {
      throw refuse(e);
    }
    if (CommandLine.forkedByGatlingPlugin()) {
      System.exit(0);
    }
    throw new IllegalStateException("--compare/--dry-run: done; nothing to run");
  }

  /**
   * The run's tokenizer file, found as vLLM finds it: the shipped GPT-2 for its hub ids, else
   * a local file or folder ({@code tokenizer.json} or tiktoken), else the hub's
   * {@code tokenizer.json} or {@code tiktoken.model}. Nothing is sent to the server (a dry
   * run uses it).
   */
  static Tokenizer loadTokenizer(BenchPlan plan) {
    String id = plan.tokenizerId();
    if (plan.skipTokenizer()) {
      // --skip-tokenizer-init: nothing of the model is loaded; the datasets still need one
      return Tokenizer.gpt2();
    }
    try {
      // the hub's GPT-2 tokenizer ships in the plugin jar: no download, also offline
      if (SHIPPED_GPT2.contains(id) && !Files.exists(Path.of(id))) {
        return Tokenizer.gpt2();
      }
      return Tokenizer.resolve(id);
    } catch (RuntimeException e) {
      throw cannotLoad(plan, e);
    }
  }

  /**
   * {@link #loadTokenizer}, and when no tokenizer file can be had (offline and not cached, a
   * 404 from the hub) but the server answers {@code /tokenize}, the server's tokenizer, said
   * in one line on {@code console}.
   */
  static Tokenizer loadTokenizerOrServer(BenchPlan plan, PrintStream console) {
    try {
      return loadTokenizer(plan);
    } catch (IllegalArgumentException e) {
      String id = plan.tokenizerId();
      // a local path that exists but is no tokenizer is the user's mistake, not a fallback
      if (plan.skipTokenizer() || Files.exists(Path.of(id))) {
        throw e;
      }
      try {
        Tokenizer server = Tokenizer.fromServer(plan.baseUrl(), plan.requestModelName(),
            plan.controlHeaders(System::getenv), plan.insecureTls());
        console.println("Tokenizer '" + id + "' could not be loaded ("
            + (e.getCause() != null ? e.getCause() : e).getMessage()
            + "); counting tokens with the server's /tokenize instead.");
        return server;
      } catch (RuntimeException noServer) {
        e.addSuppressed(noServer);
        throw e;
      }
    }
  }

  private static IllegalArgumentException cannotLoad(BenchPlan plan, RuntimeException e) {
    String id = plan.tokenizerId();
    return new IllegalArgumentException("cannot load the tokenizer '" + id + "'"
        + (plan.args().has("tokenizer") ? "" : " (vLLM's default: the --model)")
        + ": " + e.getMessage() + ". Give --tokenizer a tokenizer.json, a tiktoken file, "
        + "their folder (such as datasets/tokenizers/gpt2) or a Hugging Face model id", e);
  }

  /**
   * vLLM 0.29's re-alignment: for random and prefix_repetition prompts, the tokenizer with
   * the server's alongside when the server answers {@code /tokenize} and {@code /detokenize}
   * (probed once, here, before sampling); either way one console line says which. Nothing is
   * probed for other datasets, with {@code --skip-tokenizer-init}, when the tokenizer
   * already is the server's, or with {@code --prompt-token-ids}: ids are not tokenized again,
   * so the server counts exactly the ids sent, and text re-aligned to its counts would then
   * be sent as the other tokenizer's ids, of another length.
   */
  static Tokenizer realigned(BenchPlan plan, Tokenizer tokenizer, PrintStream console) {
    String dataset = plan.dataset().name();
    if (plan.skipTokenizer() || plan.promptTokenIds() || tokenizer.isServer()
        || plan.conversations().isPresent()
        || !(dataset.equals("random") || dataset.equals("prefix_repetition"))) {
      return tokenizer;
    }
    try {
      Tokenizer server = Tokenizer.fromServer(plan.baseUrl(), plan.requestModelName(),
          plan.controlHeaders(System::getenv), plan.insecureTls());
      console.println("The server answers /tokenize: " + dataset + " prompts are re-aligned "
          + "to its token counts.");
      return tokenizer.realignedBy(server);
    } catch (RuntimeException e) {
      if (dev.gatlingllm.internal.http.AuxHttpException.untrustedCertificate(e)) {
        console.println("/tokenize not asked: " + dev.gatlingllm.internal.http.AuxHttp.UNTRUSTED
            + ": give --insecure to accept it. " + Character.toUpperCase(dataset.charAt(0))
            + dataset.substring(1) + " prompts keep the lengths of tokenizer " + tokenizer.id()
            + ".");
        return tokenizer;
      }
      console.println("The server has no usable /tokenize (" + e.getMessage() + "): " + dataset
          + " prompts keep the lengths of tokenizer " + tokenizer.id() + ".");
      return tokenizer;
    }
  }

  /** @return null when ready (or skipped), else why not */
  private static String readyCheck(BenchPlan plan, Map<String, String> headers,
      RequestPreview.Rendered test) {
    int timeout = plan.readyCheckTimeoutSec();
    if (timeout == 0) {
      out().println("Skipping endpoint ready check.");
      return null;
    }
    out().println("Starting initial single prompt test run...");
    HttpHeaders http = new DefaultHttpHeaders();
    headers.forEach(http::set);
    ReadyCheck.Outcome outcome = ReadyCheck.await(plan.baseUrl(), http, test,
        Duration.ofSeconds(timeout), ReadyCheck.RETRY_INTERVAL, plan.insecureTls(), out());
    if (outcome.ready()) {
      out().println("Initial test run completed. Starting main benchmark run...");
      return null;
    }
    String why = "the endpoint " + plan.baseUrl() + plan.endpoint() + " was not ready within "
        + timeout + " s (" + outcome.attempts() + " attempts; last error: "
        + outcome.lastError() + "); check the server and the flags (--model, --endpoint, "
        + "--base-url)";
    System.err.println(TOOL + ": " + why + ". Nothing was measured.");
    return "not ready within " + timeout + " s: " + outcome.lastError();
  }

  static void printTraffic(ArrivalProfile profile) {
    if (profile.rampUpStrategy().isPresent()) {
      out().println("Traffic ramp-up strategy: " + profile.rampUpStrategy().get().cliName() + ".");
      out().println("Will increase RPS from " + profile.rampUpStartRps().getAsInt() + " to "
          + profile.rampUpEndRps().getAsInt() + " RPS over the duration of the benchmark.");
    } else {
      out().println("Traffic request rate: " + PyFormat.repr(profile.requestRate()));
    }
    out().println("Burstiness factor: " + PyFormat.repr(profile.burstiness()) + " ("
        + (profile.burstiness() == 1.0 ? "Poisson process" : "Gamma distribution") + ")");
    out().println("Maximum request concurrency: " + (profile.maxConcurrency().isPresent()
        ? profile.maxConcurrency().getAsInt() : "None"));
  }

  /** The dataset's records, each with its LoRA module when modules were given. */
  private List<Map<String, Object>> feederRecords(Samples samples) {
    List<String> lora = plan.loraChoices(samples.size());
    if (lora.isEmpty()) {
      return samples.records();
    }
    List<Map<String, Object>> records = new ArrayList<>(samples.size());
    for (int i = 0; i < samples.size(); i++) {
      Map<String, Object> record = new HashMap<>(samples.records().get(i));
      record.put(BenchPlan.LORA_ATTRIBUTE, lora.get(i));
      records.add(record);
    }
    return records;
  }

  /** After the warm-up (done while Gatling built the scenario), before the first user. */
  @Override
  public void before() {
    if (!measuring) {
      return;
    }
    if (profiler != null && plan.profileBatchThreshold().isPresent()) {
      profiler.startAtBatchSize(plan.profileBatchThreshold().getAsInt(),
          plan.profileDuration());
    } else if (profiler != null) {
      profiler.start();
    }
    if (plan.progressBar()) {
      // on an injector of a scaled-out benchmark: its share
      progress = new ProgressLine(ScaleOut.current().share().sizeOf(total),
          () -> LlmRun.current().map(run -> run.store().size()).orElse(0), out(), 5_000);
    }
  }

  @Override
  public void after() {
    if (plan == null) {
      return;
    }
    try {
      if (progress != null) {
        progress.close();
      }
      if (profiler != null && measuring) {
        profiler.finish();
      }
    } catch (RuntimeException e) {
      System.err.println(TOOL + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ReportOutcome outcome = LlmDsl.writeResults(this);
    if (datasetStats != null && measuring) {
      DryRun.plotBeside(datasetStats, plan, outcome, OfflineModes.defaultFolder(),
          new PrintWriter(out(), true));
    }
    tokenizer.close();
  }
}
