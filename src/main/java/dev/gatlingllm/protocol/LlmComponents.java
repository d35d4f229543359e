package dev.gatlingllm.protocol;

import dev.gatlingllm.arrival.ArrivalClock;
import dev.gatlingllm.arrival.ConcurrencyLimiter;
import dev.gatlingllm.arrival.InjectionPlan;
import dev.gatlingllm.arrival.PacedSends;
import dev.gatlingllm.arrival.SlotPacer;
import dev.gatlingllm.client.ClientConfig;
import dev.gatlingllm.client.LlmClient;
import dev.gatlingllm.client.WarmUp;
import dev.gatlingllm.metrics.RecordStore;
import dev.gatlingllm.metrics.TaskType;
import dev.gatlingllm.report.RecordLog;
import dev.gatlingllm.report.RunInfo;
import dev.gatlingllm.scale.InjectorRun;
import dev.gatlingllm.scale.InjectorShare;
import dev.gatlingllm.scale.ScaleOut;
import dev.gatlingllm.selfcheck.JvmCheck;
import dev.gatlingllm.selfcheck.SelfCheck;
import dev.gatlingllm.selfcheck.SelfCheckReport;
import dev.gatlingllm.servermetrics.ServerMetricsScraper;
import dev.gatlingllm.servermetrics.ServerSeries;
import io.gatling.core.CoreComponents;
import io.gatling.core.config.NettyConfiguration;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import io.gatling.netty.util.Transports;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * Per-run state of the protocol: the client, the record store and the request counter. One
 * instance per simulation run, created by Gatling through {@link LlmProtocolKey}.
 */
public final class LlmComponents implements ProtocolComponents {

  private static final Logger LOG = LoggerFactory.getLogger(LlmComponents.class);

  private final CoreComponents core;
  private final LlmProtocol protocol;
  private final LlmClient client;
  private final RecordStore store = new RecordStore();
  private final OutputTokens outputTokens;
  private final AtomicLong requestCounter = new AtomicLong();
  private final AtomicLong firstSendNanos = new AtomicLong(Long.MAX_VALUE);
  private final HttpHeaders baseHeaders;
  private final Set<String> endpointTypes = ConcurrentHashMap.newKeySet();
  private final Set<TaskType> taskTypes = ConcurrentHashMap.newKeySet();
  private final ArrivalClock arrivalClock;
  private final SlotPacer pacer;
  /** Paced sends not gone out yet, in schedule order across the loops; own per copy. */
  private final PacedSends pacedSends = new PacedSends();
  private final ConcurrencyLimiter limiter;
  private final AtomicBoolean warmedUp = new AtomicBoolean();
  private final AtomicBoolean commonStartAwaited = new AtomicBoolean();
  /** Scrapes of the server's metrics before the run: enough for the JIT to compile them. */
  private static final int SCRAPER_WARM_UP_SCRAPES = 40;
  /** Scrapes the server's metrics from the first send on; null before it or when off. */
  private volatile ServerMetricsScraper serverMetrics;
  /** Measures the client's own distortion from the first send on; null before it. */
  private volatile SelfCheck selfCheck;
  /**
   * Where this run's files go: its Gatling run folder (or this run's subfolder of a shared
   * one), known exactly; null when this is not a Gatling run whose folder can be read.
   */
  private final Path runFolder;
  /** Every finished request, on disk as it finishes; null when the log could not be created. */
  private final RecordLog recordLog;
  /** This injector's share of a scaled-out benchmark; the whole one otherwise. */
  private final InjectorShare share;
  /** Scale-out state (clock offset, common start); null when no scale-out was asked for. */
  private final InjectorRun injector;
  /** See {@link #settingsHash()}; null without scale-out. */
  private final String settingsHash;
  /** True for the copy the actions' rehearsal runs on ({@link #forRehearsal}). */
  private final boolean rehearsal;
  /** The server checked against each request; a rehearsal's own, thrown away. */
  private final ServerCompliance compliance;
  /** Longest wait for the server's model list before the run. */
  private static final Duration MODEL_LIST_TIMEOUT = Duration.ofSeconds(5);

  LlmComponents(CoreComponents core, LlmProtocol protocol) {
    // Before anything of the run: a JVM the timings cannot trust says so (or, strict, refuses).
    JvmCheck.beforeTheRun();
    LlmRun.requireFirstProtocol(core, protocol);
    this.core = core;
    this.protocol = protocol;
    NettyConfiguration netty = core.configuration().netty();
    this.client = new LlmClient(
        Transports.newSocketChannelFactory(netty.useNativeTransport(), netty.useIoUring()),
        new ClientConfig(protocol.target(), protocol.connectTimeout(),
            protocol.firstTokenTimeout(), protocol.idleTimeout(), protocol.requestTimeout(),
            protocol.keepAliveTimeout(), protocol.insecureTls()));
    HttpHeaders headers = new DefaultHttpHeaders();
    protocol.headers().forEach(headers::add);
    if (protocol.apiKey() != null) {
      headers.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + protocol.apiKey());
    }
    this.baseHeaders = headers;
    this.outputTokens = new OutputTokens(protocol.tokenCounter());
    ScaleOut scale = ScaleOut.current();
    this.share = scale.share();
    if (scale.requested() && protocol.arrivals().isEmpty()) {
      throw new IllegalArgumentException("scale-out (-D" + ScaleOut.INJECTOR_PROPERTY + ", "
          + "JOB_COMPLETION_INDEX or -D" + ScaleOut.START_AT_PROPERTY + ") splits and starts an "
          + "arrival schedule: inject the scenario with .injectOpen(injection(profile))");
    }
    this.arrivalClock = protocol.arrivals()
        .map(profile -> InjectionPlan.of(share.schedule(profile)).newClock())
        .orElse(null);
    this.pacer = arrivalClock == null ? null : SlotPacer.create();
    this.limiter = newLimiter(protocol, share);
    this.injector = scale.requested() ? InjectorRun.start(scale, URI.create(protocol.target()
        .toString()), protocol.insecureTls()) : null;
    this.settingsHash = injector == null ? null : settingsHash();
    this.rehearsal = false;
    this.compliance = new ServerCompliance(promptCheckOff(protocol));
    if (!protocol.warmUp().enabled()) {
      // the real warm-up's probe does both, with real requests
      warmUpWithoutRequests();
    }
    this.runFolder = GatlingRunFolder.of(core.statsEngine(), RunResults.candidateRoots())
        .orElse(null);
    this.recordLog = RunRecordLog.open(this);
    if (recordLog != null) {
      store.mirrorTo(recordLog::append);
    }
    LlmRun.register(this);
  }

  /** See {@link #forRehearsal(ArrivalClock)}. */
  private LlmComponents(LlmComponents run, ArrivalClock clock) {
    this.core = run.core;
    this.protocol = run.protocol;
    this.client = run.client;
    this.baseHeaders = run.baseHeaders;
    this.outputTokens = run.outputTokens;
    this.share = run.share;
    this.arrivalClock = clock;
    this.pacer = run.pacer;
    // the same kind of limiter, not the same one: the run's permits stay untouched
    this.limiter = newLimiter(protocol, share);
    this.injector = null;
    this.settingsHash = null;
    this.runFolder = run.runFolder;
    this.recordLog = null;
    this.rehearsal = true;
    this.compliance = new ServerCompliance(promptCheckOff(protocol));
    this.warmedUp.set(true);
  }

  /**
   * Prompts counted with the shipped GPT-2 fallback are counted with another tokenizer than
   * the server's (unless it serves a GPT-2): their counts differ from its by design (the
   * simulator counts words), and comparing them would only say so.
   */
  private static String promptCheckOff(LlmProtocol protocol) {
    boolean fallback = OutputTokens.FALLBACK_ID.equals(protocol.tokenizerId());
    return fallback && !protocol.requestModelName().toLowerCase(Locale.ROOT)
        .contains("gpt2")
        ? "prompts counted with the shipped GPT-2 tokenizer, not the server's: give the"
            + " server's tokenizer to compare them" : null;
  }

  /** The cap on requests in flight of this injector's share, or none. */
  private static ConcurrencyLimiter newLimiter(LlmProtocol protocol, InjectorShare share) {
    return protocol.maxConcurrency()
        .map(max -> (ConcurrencyLimiter) ConcurrencyLimiter.bounded(share.maxConcurrency(max)))
        .orElse(ConcurrencyLimiter.unlimited());
  }

  /**
   * A copy of these components for rehearsing the run's actions before the run (see
   * {@code action.Rehearsal}): the same client, event loops, pacer and headers, but its own
   * record store, arrival clock ({@code clock}, or none), concurrency limiter, self-check and
   * first-send time, no record log and no server-metrics scraper, and request ids of their
   * own. Nothing done through it reaches the run's results.
   */
  public LlmComponents forRehearsal(ArrivalClock clock) {
    return new LlmComponents(this, clock);
  }

  /** Gatling's event loops, in the order its group hands them out. */
  public List<EventLoop> eventLoops() {
    List<EventLoop> loops = new ArrayList<>();
    core.eventLoopGroup().forEach(e -> loops.add((EventLoop) e));
    return loops;
  }

  /** Whether these are a rehearsal's components ({@link #forRehearsal}), not the run's. */
  public boolean isRehearsal() {
    return rehearsal;
  }

  private void warmUpWithoutRequests() {
    WarmUp.pipeline();
    String problem = WarmUp.connect(client, core.eventLoopGroup().next());
    if (problem != null) {
      LOG.warn("cannot reach {} before the run ({}): requests will fail until it is up",
          protocol.target(), problem);
    }
  }

  /**
   * Once before the run, with the warm-up (which already talks to the server): the model
   * names the compliance check compares requests with. Without the warm-up the run sends
   * nothing but its own requests, and the model is not checked.
   */
  private void listServedModels() {
    ServedModels.fetch(protocol.target(), headerMap(), protocol.insecureTls(),
        MODEL_LIST_TIMEOUT).ifPresent(compliance::servedModels);
  }

  /**
   * Sends the run's warm-up requests (see {@link WarmUpOptions}) once per run, with the body
   * of the first request action built: called while the simulation is built, before any
   * user starts.
   *
   * @param body     the body of a warm-up request with the given {@code max_tokens}
   * @param rehearse  sends the given number of the warm-up's requests through the run's own
   *                  actions, on copies of them and of these components (see
   *                  {@link #forRehearsal}), and waits for them
   */
  public void warmUpOnce(String path, IntFunction<byte[]> body, IntConsumer rehearse) {
    if (!protocol.warmUp().enabled() || !warmedUp.compareAndSet(false, true)) {
      return;
    }
    List<EventLoop> loops = eventLoops();
    RunWarmUp.run(protocol, client, loops, path, body,
        id -> new DefaultHttpHeaders().add(baseHeaders).set("x-request-id", id), rehearse);
    listServedModels();
    List<String> skipped = GatlingWarmUp.run(core, loops.get(0));
    if (!skipped.isEmpty()) {
      LOG.info("warm-up: Gatling's per-request code not warmed ({}); the JIT compiles it during "
          + "the run's first requests instead", String.join("; ", skipped));
    }
    // The self-check starts on the first send, on an event loop: load its JMX classes now.
    SelfCheck.start(core.eventLoopGroup()).stop();
    // The scraper's first scrapes would compile its HTTP and parsing code inside the run.
    protocol.serverMetrics().ifPresent(uri -> ServerMetricsScraper.warmUp(uri, headerMap(),
        protocol.insecureTls(), SCRAPER_WARM_UP_SCRAPES));
    RunWarmUp.collectBeforeTheRun();
  }

  /**
   * The run's self-check, started by the first call (the first send, so the window is the
   * run's, not the warm-up's or the injector's lead).
   */
  public SelfCheck selfCheck() {
    SelfCheck check = selfCheck;
    return check != null ? check : startSelfCheck();
  }

  private synchronized SelfCheck startSelfCheck() {
    if (selfCheck == null) {
      SelfCheck started = SelfCheck.start(core.eventLoopGroup());
      client.onWritten(started::recordWrite);
      client.onResent(started::recordConnectionRetry);
      if (!rehearsal) {
        protocol.serverMetrics().ifPresent(uri -> serverMetrics = ServerMetricsScraper.start(
            uri, headerMap(), Duration.ofSeconds(1), protocol.insecureTls()));
      }
      selfCheck = started;
    }
    return selfCheck;
  }

  /** Stops the self-check and gives its figures; null when nothing was ever sent. */
  public SelfCheckReport stopSelfCheck() {
    SelfCheck check = selfCheck;
    if (check == null) {
      return null;
    }
    client.onWritten(nanos -> { });
    client.onResent(() -> { });
    if (!client.reusesConnections()) {
      check.recordConnectionReuseStopped();
    }
    return check.stop();
  }

  /** Stops scraping the server's metrics and gives the series; null when it never started. */
  public ServerSeries stopServerMetrics() {
    ServerMetricsScraper scraper = serverMetrics;
    return scraper == null ? null : scraper.stop();
  }

  /** The user's headers and the authorization, for the metrics endpoint. */
  private Map<String, String> headerMap() {
    Map<String, String> out = new LinkedHashMap<>();
    baseHeaders.forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  public CoreComponents core() {
    return core;
  }

  public LlmProtocol protocol() {
    return protocol;
  }

  public LlmClient client() {
    return client;
  }

  public RecordStore store() {
    return store;
  }

  /** This run's folder for its files (see {@link GatlingRunFolder}); empty when not known. */
  Optional<Path> runFolder() {
    return Optional.ofNullable(runFolder);
  }

  /** The run's record log, mirroring {@link #store()}; empty when it could not be created. */
  public Optional<RecordLog> recordLog() {
    return Optional.ofNullable(recordLog);
  }

  /** The server checked against what each request asked. */
  public ServerCompliance compliance() {
    return compliance;
  }

  /** How output tokens are counted, during the run (goodput rows) and after it. */
  public OutputTokens outputTokens() {
    return outputTokens;
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
    String id = requestId != null ? requestId : (rehearsal ? "warmup-action-"
        : protocol.requestIdPrefix()) + (injector != null && slotIndex >= 0 ? slotIndex
            : share.global(requestCounter.getAndIncrement()));
    return new DefaultHttpHeaders().add(baseHeaders).set("x-request-id", id);
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
  public synchronized void registerEndpointType(String type, TaskType task) {
    if (!taskTypes.isEmpty() && !taskTypes.contains(task)) {
      throw new IllegalStateException("request kind '" + type + "' is a " + describe(task)
          + " request but this protocol already has " + describe(taskTypes.iterator().next())
          + " requests (" + String.join(", ", endpointTypes) + "); results have one metric "
          + "set per run, as in vLLM: give each its own simulation");
    }
    taskTypes.add(task);
    endpointTypes.add(type);
  }

  private static String describe(TaskType task) {
    return task == TaskType.GENERATION ? "generation" : "pooling (embeddings/rerank)";
  }

  /** Gate in front of sending: bounded by the max concurrency, else a no-op. */
  public ConcurrencyLimiter limiter() {
    return limiter;
  }

  /** Slots of the arrival schedule; empty when no arrival profile was configured. */
  public Optional<ArrivalClock> arrivalClock() {
    return Optional.ofNullable(arrivalClock);
  }

  /** Holds users until their slot; null without an arrival profile. */
  public SlotPacer pacer() {
    return pacer;
  }

  /** Paced requests waiting for their slot, sent in schedule order by whichever loop is first. */
  public PacedSends pacedSends() {
    return pacedSends;
  }

  /** The run's parameters for the result file. */
  public RunInfo runInfo() {
    Instant arrivalStart = arrivalClock != null && arrivalClock.isStarted()
        ? arrivalClock.startInstant() : null;
    RunInfo.Builder info = ResultMetadata.of(protocol, endpointTypes, arrivalStart,
            ZoneId.systemDefault())
        .toBuilder().taskType(taskTypes.contains(TaskType.EMBEDDING)
            ? TaskType.EMBEDDING : TaskType.GENERATION);
    if (injector != null) {
      info = info.extra(ScaleOut.INJECTOR_KEY, injector.facts(settingsHash).toJson());
    }
    return info.build();
  }

  /**
   * Hash of what makes the benchmark, the same on each of its injectors: model, backend,
   * tokenizer, arrival profile (rate, burstiness, ramp, seed, count, replay), the whole max
   * concurrency, the number of injectors, the common start, the label and the digest of the
   * dataset sample fed through {@code Samples.feeder()}. Not the injector's index.
   */
  String settingsHash() {
    List<String> parts = new ArrayList<>();
    parts.add("model=" + protocol.model());
    parts.add("backend=" + protocol.backend());
    parts.add("tokenizer=" + protocol.tokenizerId());
    parts.add("arrivals=" + protocol.arrivals().map(Object::toString).orElse("none"));
    parts.add("max_concurrency=" + protocol.maxConcurrency().map(String::valueOf).orElse("none"));
    parts.add("injectors=" + share.count());
    ScaleOut scale = ScaleOut.current();
    parts.add("start=" + scale.startAt().map(Object::toString)
        .orElse(scale.barrier().isPresent() ? "barrier" : "none"));
    parts.add("label=" + protocol.results().label());
    parts.add("dataset=" + ScaleOut.dataset().orElse("none"));
    return ScaleOut.digest(parts);
  }

  /**
   * On an injector with a common start ({@code -Dllm.startAt} or {@code -Dllm.startBarrier}):
   * waits until shortly before it and starts the arrival clock at it. Called while the
   * scenario is built, after the warm-up; a no-op otherwise, and after the first call.
   */
  public void awaitCommonStart() {
    if (injector != null && commonStartAwaited.compareAndSet(false, true)) {
      // The plan injects a user up to one bucket after its slot's offset from the injection's
      // start, and at least lead before the slot when the clock starts lead + bucket after
      // the injection: that much must be left before the common start.
      InjectionPlan plan = InjectionPlan.of(share.schedule(protocol.arrivals().orElseThrow()));
      injector.awaitStart(plan.lead().plus(plan.bucket()).toNanos(), settingsHash)
          .ifPresent(arrivalClock::start);
    }
  }

  /** This injector's share of the benchmark (the whole one without scale-out). */
  public InjectorShare share() {
    return share;
  }

  /**
   * Start of the benchmark duration: the arrival schedule's start when users were paced
   * (vLLM starts its clock before the first arrival), else the first send; -1 when nothing
   * was sent.
   */
  public long benchmarkStartNanos() {
    long first = firstSendNanos();
    if (arrivalClock != null && arrivalClock.isStarted()) {
      return first < 0 ? arrivalClock.startNanos() : Math.min(first, arrivalClock.startNanos());
    }
    return first;
  }

  /** Marks a send; the earliest one is the start of the benchmark duration. */
  public void markSend(long nanos) {
    firstSendNanos.accumulateAndGet(nanos, Math::min);
  }

  /** When the first request of the run was sent, or -1 when none was. */
  long firstSendNanos() {
    long v = firstSendNanos.get();
    return v == Long.MAX_VALUE ? -1 : v;
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
