package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.arrival.ArrivalClock;
import dev.gatlingllm.internal.arrival.InjectionPlan;
import dev.gatlingllm.internal.client.CancelAfter;
import dev.gatlingllm.internal.client.ChunkReader;
import dev.gatlingllm.internal.client.LlmClient;
import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.client.WarmUp;
import dev.gatlingllm.internal.live.LiveFigures;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.scale.InjectorShare;
import dev.gatlingllm.internal.selfcheck.JvmCheck;
import dev.gatlingllm.internal.selfcheck.SelfCheck;
import dev.gatlingllm.internal.servermetrics.GpuMetricsScraper;
import dev.gatlingllm.internal.servermetrics.ServerMetricsScraper;
import dev.gatlingllm.internal.servermetrics.SpecDecodeCounters;
import dev.gatlingllm.internal.metrics.SpecDecodeStats;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RunInfo;
import io.gatling.core.CoreComponents;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpHeaders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.ObjIntConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * One run of the protocol, as Gatling's protocol components: one instance per simulation run,
 * made by {@link #open} through {@link LlmProtocolKey}. Its parts follow the run's life:
 * <ul>
 *   <li>while the simulation is built: the {@link RunSetup} (client, headers, scale-out), the
 *       {@link RunPacing} (arrival clock, pacer, limiter), the request kinds, the warm-up;
 *   <li>from the first send: the {@link RunMeasures} (self-check, server metrics), started by
 *       the request action with {@link RunMeasures#start()}, and the records, in the
 *       {@link RecordStore} and the {@link RecordLog} on disk;
 *   <li>at the end: {@link RunResults} stops the measures and writes the results from the
 *       store and the {@link RunFacts}.
 * </ul>
 */
public final class LlmComponents implements ProtocolComponents {

  private static final Logger LOG = LoggerFactory.getLogger(LlmComponents.class);
  /** Scrapes of the server's metrics before the run: enough for the JIT to compile them. */
  private static final int SCRAPER_WARM_UP_SCRAPES = 40;
  /** Longest wait for the server's model list before the run. */
  private static final Duration MODEL_LIST_TIMEOUT = Duration.ofSeconds(5);

  /** This copy's parts: the run's setup, request kinds, pacing and measures. */
  private final RunFacts facts;
  /** {@code facts.setup()}, at hand. */
  private final RunSetup setup;
  private final RequestHeaders headers;
  private final RecordStore store;
  /** The server checked against each request; a rehearsal's own, thrown away. */
  private final ServerCompliance compliance;
  /**
   * Where this run's files go (see {@link GatlingRunFolder}); null when no Gatling run
   * folder is known.
   */
  private final Path runFolder;
  /** Every finished request, on disk as it finishes; null when the log could not be created. */
  private final RecordLog recordLog;
  /** True for the copy the actions' rehearsal runs on ({@link #forRehearsal}). */
  private final boolean rehearsal;
  private final AtomicBoolean warmedUp;
  private final AtomicBoolean commonStartAwaited = new AtomicBoolean();
  /** Numbers the unpaced requests for the cancel choice, in the order they are built. */
  private final AtomicLong unpacedRequests = new AtomicLong();
  /** The run's probe requests ({@code --probe-request-rate}); null when there are none. */
  private volatile ProbeRequests probes;
  /** The run's model against the server's list, checked once in {@link #open}; null in copies. */
  private ServedModels.Check modelCheck;
  /** vLLM's speculative-decoding counters just before the run; empty when not read or none. */
  private volatile Optional<SpecDecodeStats.Counts> specDecodeBefore = Optional.empty();

  private LlmComponents(RunFacts facts, RecordStore store, Path runFolder, RecordLog recordLog,
      boolean rehearsal) {
    this.facts = facts;
    this.setup = facts.setup();
    this.headers = new RequestHeaders(setup.baseHeaders(), rehearsal ? "warmup-action-"
        : setup.protocol().requestIdPrefix(), setup.share(),
        !rehearsal && setup.injector() != null);
    this.store = store;
    this.compliance = new ServerCompliance(promptCheckOff(setup.protocol()));
    this.runFolder = runFolder;
    this.recordLog = recordLog;
    this.rehearsal = rehearsal;
    // a rehearsal is part of the warm-up
    this.warmedUp = new AtomicBoolean(rehearsal);
  }

  /**
   * Starts a run of {@code protocol}: checks the JVM, makes the client and the pacing, joins
   * the scale-out, finds the run's folder, opens its record log and makes it this JVM's
   * current run ({@link LlmRun}).
   *
   * @throws IllegalStateException    when the run already has another protocol
   * @throws IllegalArgumentException when scale-out is asked for without an arrival schedule
   */
  static LlmComponents open(CoreComponents core, LlmProtocol protocol) {
    // Before anything of the run: a JVM the timings cannot trust says so (or, strict, refuses).
    JvmCheck.beforeTheRun();
    LlmRun.requireFirstProtocol(core, protocol);
    RunSetup setup = RunSetup.build(core, protocol);
    // Before the warm-up sends anything: a model the server does not serve is refused here,
    // not found in a run whose every request failed.
    ServedModels.Check models = ServedModels.checkAll(protocol.targets(), setup.headerMap(),
        protocol.insecureTls(), MODEL_LIST_TIMEOUT, protocol.requestModelName(),
        protocol.results().exitZero());
    RunPacing pacing = RunPacing.of(protocol, setup.share());
    if (!protocol.warmUp().enabled()) {
      // the real warm-up's probe does both, with real requests
      warmUpWithoutRequests(setup);
    }
    Path runFolder = GatlingRunFolder.of(core.statsEngine(), GatlingRunFolder.roots())
        .orElse(null);
    Supplier<GpuMetricsScraper> gpuScraping = protocol.gpuMetrics().isEmpty() ? null
        : () -> GpuMetricsScraper.start(protocol.gpuMetrics(), Duration.ofSeconds(1),
            protocol.insecureTls());
    Supplier<List<ServerMetricsScraper>> scraping = protocol.serverMetricsEndpoints().isEmpty()
        ? null : () -> protocol.serverMetricsEndpoints().stream()
            .map(uri -> ServerMetricsScraper.start(uri, setup.headerMap(), Duration.ofSeconds(1),
                protocol.insecureTls()))
            .toList();
    if (protocol.results().stopOnOverSaturation() && setup.share().isSplit()) {
      // each injector sees only its share, would stop alone, and the merge keeps one account
      throw new IllegalArgumentException("stopOnOverSaturation (--stop-on-over-saturation) on "
          + "a scaled-out run (injector " + setup.share() + "): each injector would judge and "
          + "stop on its own share of the load; leave it out when scaling out");
    }
    RecordStore store = new RecordStore();
    boolean complianceStop = protocol.results().stopOnServerNonCompliance();
    RunStop runStop = protocol.results().stopOnOverSaturation() || complianceStop
        ? RunStop.of(core.controller()) : null;
    Supplier<OverSaturationStop> stopping = protocol.results().stopOnOverSaturation()
        ? () -> OverSaturationStop.start(store, runStop) : null;
    // started here, before the warm-up, off the event loops: the SDK's classes load now
    LiveFigures live = protocol.otlp().map(settings -> LiveFigures.start(settings,
        new LiveFigures.RunLabels(protocol.model(), protocol.backend(), runId(runFolder)),
        setup.outputTokens())).orElse(LiveFigures.NONE);
    RunFacts facts = new RunFacts(setup, new RequestKinds(), pacing,
        new RunMeasures(core.eventLoopGroup(), setup.client(), scraping, runStop, stopping,
            live).withGpuScraping(gpuScraping));
    RecordLog log = RunRecordLog.open(runFolder, protocol.results(), facts);
    Consumer<RequestRecord> mirror = log == null ? live::finished : r -> {
      log.append(r);
      live.finished(r);
    };
    if (log != null || live != LiveFigures.NONE) {
      store.mirrorTo(mirror);
    }
    LlmComponents run = new LlmComponents(facts, store, runFolder, log, false);
    run.modelCheck = models;
    if (models.listed() != null) {
      run.compliance.servedModels(models.listed());
    }
    // findings are said as they come, and end the run when asked: the run's, not a rehearsal's
    run.compliance.watch(new ComplianceWatch(complianceStop ? runStop : null));
    LlmRun.register(run);
    return run;
  }

  /**
   * What names this run among others exporting to the same place: its Gatling run folder's
   * name ({@code benchserve-20261129021512345}), which also finds its files; else a random id.
   */
  private static String runId(Path runFolder) {
    return runFolder != null && runFolder.getFileName() != null
        ? runFolder.getFileName().toString() : UUID.randomUUID().toString();
  }

  /**
   * A copy of these components for rehearsing the run's actions before the run (see
   * {@code action.Rehearsal}): the same client, event loops, pacer and headers, but its own
   * record store, arrival clock ({@code clock}, or none), concurrency limiter, self-check and
   * first-send time, no record log and no server-metrics scraper, and request ids of their
   * own. Nothing done through it reaches the run's results.
   */
  public LlmComponents forRehearsal(ArrivalClock clock) {
    RunFacts own = new RunFacts(setup, new RequestKinds(),
        facts.pacing().forRehearsal(clock, setup.protocol(), setup.share()),
        new RunMeasures(setup.core().eventLoopGroup(), setup.client(), null, null, null,
            LiveFigures.NONE));
    return new LlmComponents(own, new RecordStore(), runFolder, null, true);
  }

  /**
   * Components over {@code standIn} (a setup whose client is aimed elsewhere, see {@link
   * StandInWarmUp}) for rehearsing the run's actions there: {@link #forRehearsal} of them
   * then sends nothing to the run's server.
   */
  LlmComponents overStandIn(RunSetup standIn) {
    return new LlmComponents(new RunFacts(standIn, new RequestKinds(), facts.pacing(),
        new RunMeasures(standIn.core().eventLoopGroup(), standIn.client(), null, null, null,
            LiveFigures.NONE)),
        new RecordStore(), runFolder, null, true);
  }

  /**
   * Prompts counted with the shipped GPT-2 fallback are counted with another tokenizer than
   * the server's (unless it serves a GPT-2, or is an embedded simulator counting with it):
   * their counts differ from its by design, and comparing them would only say so.
   */
  private static String promptCheckOff(LlmProtocol protocol) {
    boolean fallback = OutputTokens.FALLBACK_ID.equals(protocol.tokenizerId());
    boolean serverCountsAlike = ServerTokenizers.of(protocol.target())
        .filter(protocol.tokenizerId()::equals).isPresent();
    return fallback && !serverCountsAlike && !protocol.requestModelName()
        .toLowerCase(Locale.ROOT).contains("gpt2")
        ? "prompts counted with the shipped GPT-2 tokenizer, not the server's: give the"
            + " server's tokenizer to compare them" : null;
  }

  /** Gatling's event loops, in the order its group hands them out. */
  public List<EventLoop> eventLoops() {
    return setup.eventLoops();
  }

  /** Whether these are a rehearsal's components ({@link #forRehearsal}), not the run's. */
  public boolean isRehearsal() {
    return rehearsal;
  }

  /**
   * When the client cancels the request of index {@code slotIndex} (its arrival slot; -1 when
   * it was not paced, then the order requests are built in numbers it): usually never. A
   * rehearsal's requests (the warm-up) are never cancelled.
   */
  public CancelAfter cancelFor(long slotIndex) {
    Cancellation cancellation = setup.protocol().cancellation();
    if (rehearsal || !cancellation.cancels()) {
      return CancelAfter.NEVER;
    }
    return cancellation.forRequest(slotIndex >= 0 ? slotIndex : unpacedRequests.getAndIncrement());
  }

  /**
   * Without warm-up requests (vLLM's {@code --num-warmups 0}, the drop-in's default), the run
   * still starts on a prepared client: everything the warm-up prepares that sends no request
   * to the model. Leaving it to the first requests cost them 60 ms of TTFT at concurrency 64
   * and 240 ms at 1,024 (client-truth benchmark, drop-in rungs, session 15): the event loops
   * loaded classes and ran cold code while the first wave waited.
   */
  private static void warmUpWithoutRequests(RunSetup setup) {
    WarmUp.pipeline();
    List<Target> targets = setup.protocol().targets();
    for (int t = 0; t < targets.size(); t++) {
      String problem = WarmUp.connect(setup.client(), setup.core().eventLoopGroup().next(), t);
      if (problem != null) {
        LOG.warn("cannot reach {} before the run ({}): requests {}will fail until it is up",
            targets.get(t), problem, targets.size() > 1 ? "sent to it " : "");
      }
    }
    prepareWithoutRequests(setup);
  }

  /** The run's own code that the warm-up compiles without sending anything to the model. */
  private static void prepareWithoutRequests(RunSetup setup) {
    LlmProtocol protocol = setup.protocol();
    List<String> skipped = GatlingWarmUp.run(setup.core(), setup.eventLoops().get(0));
    if (!skipped.isEmpty()) {
      LOG.info("warm-up: Gatling's per-request code not warmed ({}); the JIT compiles it during "
          + "the run's first requests instead", String.join("; ", skipped));
    }
    // The self-check starts on the first send, on an event loop: load its JMX classes now.
    SelfCheck.start(setup.core().eventLoopGroup()).stop();
    // The scraper's first scrapes would compile its HTTP and parsing code inside the run.
    protocol.serverMetrics().ifPresent(uri -> ServerMetricsScraper.warmUp(uri,
        setup.headerMap(), protocol.insecureTls(), SCRAPER_WARM_UP_SCRAPES));
    GpuMetricsScraper.warmUp(protocol.gpuMetrics(), protocol.insecureTls(),
        SCRAPER_WARM_UP_SCRAPES);
  }

  /**
   * Sends the run's warm-up requests (see {@link WarmUpOptions}) once per run, with the body
   * of the first request action built: called while the simulation is built, before any
   * user starts.
   *
   * @param body     the body of a warm-up request with the given {@code max_tokens}
   * @param reader   how its answer is read (its API's)
   * @param rehearse  sends the given number of the warm-up's requests through the run's own
   *                  actions, on copies of them and of the given components (see
   *                  {@link #forRehearsal}), and waits for them
   */
  public void warmUpOnce(String path, IntFunction<byte[]> body, ChunkReader reader,
      ObjIntConsumer<LlmComponents> rehearse) {
    LlmProtocol protocol = setup.protocol();
    if (!warmedUp.compareAndSet(false, true)) {
      return;
    }
    if (!protocol.warmUp().enabled()) {
      // no request may reach the server: the same warm-up, against a stand-in
      StandInWarmUp.run(this, setup, path, body, reader, rehearse);
      RunWarmUp.collectBeforeTheRun();
      readSpecDecodeBefore();
      return;
    }
    List<EventLoop> loops = eventLoops();
    RunWarmUp.run(protocol, protocol.warmUp(), protocol.severalTargets()
        ? protocol.targets().toString() : protocol.target().toString(), setup.client(),
        loops, path,
        body, reader, id -> RequestHeaders.withId(setup.baseHeaders(), id),
        n -> rehearse.accept(this, n), 0);
    prepareWithoutRequests(setup);
    RunWarmUp.collectBeforeTheRun();
    readSpecDecodeBefore();
  }

  /**
   * Reads the server's speculative-decoding counters once the warm-up is over and before the
   * run's first request, as vLLM does, so that {@link #specDecodeStats()} counts this run's
   * drafts only (on the thread building the simulation, never on an event loop).
   */
  private void readSpecDecodeBefore() {
    specDecodeBefore = readSpecDecode();
  }

  private Optional<SpecDecodeStats.Counts> readSpecDecode() {
    LlmProtocol protocol = setup.protocol();
    return SpecDecodeCounters.fetch(protocol.specDecodeMetrics(), setup.headerMap(),
            protocol.insecureTls())
        .map(c -> new SpecDecodeStats.Counts(c.drafts(), c.draftTokens(), c.accepted(),
            c.acceptedByPos()));
  }

  /**
   * The run's speculative decoding: the counters read now, after the run, against those read
   * before it; empty when the server has none (or they could not be read).
   */
  Optional<SpecDecodeStats> specDecodeStats() {
    if (specDecodeBefore.isEmpty()) {
      return Optional.empty();
    }
    return SpecDecodeStats.between(specDecodeBefore, readSpecDecode());
  }

  public CoreComponents core() {
    return setup.core();
  }

  public LlmProtocol protocol() {
    return setup.protocol();
  }

  public LlmClient client() {
    return setup.client();
  }

  public RecordStore store() {
    return store;
  }

  /** When the run's requests go out: arrival clock, pacer, limiter. */
  public RunPacing pacing() {
    return facts.pacing();
  }

  /** What the run measures from its first send on; started by the request action. */
  public RunMeasures measures() {
    return facts.measures();
  }

  /** This run's folder for its files (see {@link GatlingRunFolder}); empty when not known. */
  Optional<Path> runFolder() {
    return Optional.ofNullable(runFolder);
  }

  /** The run's record log, mirroring {@link #store()}; empty when it could not be created. */
  public Optional<RecordLog> recordLog() {
    return Optional.ofNullable(recordLog);
  }

  /** The run's model against the server's {@code /v1/models}; empty in a rehearsal's copy. */
  Optional<ServedModels.Check> modelCheck() {
    return Optional.ofNullable(modelCheck);
  }

  /** The server checked against what each request asked. */
  public ServerCompliance compliance() {
    return compliance;
  }

  /** How output tokens are counted, during the run (goodput rows) and after it. */
  public OutputTokens outputTokens() {
    return setup.outputTokens();
  }

  /**
   * Fresh headers for one request: user headers, authorization, and {@code x-request-id}
   * (the given id, else the protocol's prefix followed by a run-wide counter from 0).
   */
  public HttpHeaders requestHeaders(String requestId) {
    return requestHeaders(requestId, -1);
  }

  /**
   * {@link #requestHeaders(String)}; on an injector of a scaled-out benchmark the id without
   * a given one is the prefix and {@code slotIndex}, the benchmark's index of the request (its
   * arrival slot), so that ids are unique over all injectors and name the same request in
   * every run of the benchmark.
   *
   * @param slotIndex the request's index in the benchmark; -1 when it was not paced
   */
  public HttpHeaders requestHeaders(String requestId, long slotIndex) {
    return headers.forRequest(requestId, slotIndex);
  }

  /** Records that a request of this endpoint type ({@code completions}, {@code chat}) exists. */
  public void registerEndpointType(String type) {
    registerEndpointType(type, TaskType.GENERATION);
  }

  /**
   * Records a request kind and its metric set. One run has one metric set, as in vLLM:
   * generation and pooling requests (embeddings, rerank) cannot share a protocol.
   *
   * @throws IllegalStateException when the run already has requests of the other set
   */
  public void registerEndpointType(String type, TaskType task) {
    facts.kinds().register(type, task);
  }

  /** Makes {@code probes} the run's: its results stop them and report them. */
  void attachProbes(ProbeRequests probes) {
    this.probes = probes;
  }

  /** The run's probe requests, if it sends any. */
  public Optional<ProbeRequests> probes() {
    return Optional.ofNullable(probes);
  }

  /** The run's parameters for the result file. */
  public RunInfo runInfo() {
    return facts.runInfo();
  }

  /**
   * On an injector with a common start ({@code -Dllm.startAt} or {@code -Dllm.startBarrier}):
   * waits until shortly before it and starts the arrival clock at it. Called while the
   * scenario is built, after the warm-up; a no-op otherwise, and after the first call.
   */
  public void awaitCommonStart() {
    if (!rehearsal && setup.injector() != null && commonStartAwaited.compareAndSet(false, true)) {
      // The plan injects a user up to one bucket after its slot's offset from the injection's
      // start, and at least lead before the slot when the clock starts lead + bucket after
      // the injection: that much must be left before the common start.
      InjectionPlan plan = InjectionPlan.of(setup.share().schedule(
          setup.protocol().arrivals().orElseThrow()));
      setup.injector().awaitStart(plan.lead().plus(plan.bucket()).toNanos(),
          setup.settingsHash()).ifPresent(facts.pacing().arrivalClock().orElseThrow()::start);
    }
  }

  /** This injector's share of the benchmark (the whole one without scale-out). */
  public InjectorShare share() {
    return setup.share();
  }

  /**
   * Start of the benchmark duration: the arrival schedule's start when users were paced
   * (vLLM starts its clock before the first arrival), else the first send; -1 when nothing
   * was sent.
   */
  public long benchmarkStartNanos() {
    return facts.benchmarkStartNanos();
  }

  @Override
  public Function1<Session, Session> onStart() {
    return session -> session;
  }

  @Override
  public Function1<Session, BoxedUnit> onExit() {
    return ProtocolComponents.NoopOnExit();
  }
}
