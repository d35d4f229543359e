package dev.gatlingllm.cli;

import static dev.gatlingllm.LlmDsl.awaitArrival;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.listFeeder;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.internal.action.RequestPreview;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.dataset.Conversations;
import dev.gatlingllm.dataset.DatasetContent;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.internal.cli.BenchArgs;
import dev.gatlingllm.internal.cli.BenchFlagSpec;
import dev.gatlingllm.internal.cli.BenchPlan;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.cli.DryRun;
import dev.gatlingllm.internal.cli.HandOver;
import dev.gatlingllm.internal.cli.OfflineModes;
import dev.gatlingllm.internal.cli.PlanTokenizer;
import dev.gatlingllm.internal.cli.Probing;
import dev.gatlingllm.internal.cli.Profiler;
import dev.gatlingllm.internal.cli.ProgressLine;
import dev.gatlingllm.internal.cli.ReadyCheck;
import dev.gatlingllm.internal.cli.ReadyCheckFailure;
import dev.gatlingllm.internal.cli.TestRequest;
import dev.gatlingllm.internal.logging.Refusal;
import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.protocol.LlmRun;
import dev.gatlingllm.internal.protocol.ProtocolAccess;
import dev.gatlingllm.internal.protocol.ServedModels;
import dev.gatlingllm.internal.report.DatasetStats;
import dev.gatlingllm.internal.scale.ScaleOut;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.report.ReportOutcome;
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
import java.util.Set;

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

  private final BenchPlan plan;
  private final Tokenizer tokenizer;
  private final Profiler profiler;
  private final int total;
  /** The sample's statistics for {@code --plot-dataset-stats}; null without it. */
  private final DatasetStats datasetStats;
  private final Samples samples;
  private final boolean measuring;
  private ProgressLine progress;

  public BenchServe() {
    // the launcher's parsed flags (HandOver, the one channel), else the forked JVM's
    BenchArgs args = HandOver.take();
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
        for (String url : plan.baseUrls()) {
          ServedModels.refuseIfNotServed(url, plan.controlHeaders(System::getenv),
              plan.insecureTls(), plan.requestModelName());
        }
      }
      tokenizer = PlanTokenizer.realigned(plan, PlanTokenizer.loadTokenizerOrServer(plan, out()), out());
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
    LlmProtocolBuilder paced = ProtocolAccess.onStart(protocol.arrivals(profile),
        run -> Probing.start(plan, samples, ScaleOut.current().share().sizeOf(total), run));
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
    // replicas: each must answer, all within the one timeout (they start up side by side)
    long deadline = System.nanoTime() + Duration.ofSeconds(timeout).toNanos();
    for (String url : plan.baseUrls()) {
      Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
      ReadyCheck.Outcome outcome = ReadyCheck.await(url, http, test,
          left.isZero() ? Duration.ofSeconds(1) : left, ReadyCheck.RETRY_INTERVAL,
          plan.insecureTls(), out());
      if (!outcome.ready()) {
        String why = "the endpoint " + url + plan.endpoint() + " was not ready within "
            + timeout + " s (" + outcome.attempts() + " attempts; last error: "
            + outcome.lastError() + "); check the server and the flags (--model, --endpoint, "
            + "--base-url)";
        System.err.println(TOOL + ": " + why + ". Nothing was measured.");
        return "not ready within " + timeout + " s" + (plan.baseUrls().size() > 1
            ? " (" + url + ")" : "") + ": " + outcome.lastError();
      }
    }
    out().println("Initial test run completed. Starting main benchmark run...");
    return null;
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
          () -> LlmRun.current().map(run -> run.parts().requests().store().size()).orElse(0),
          out(), 5_000);
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
