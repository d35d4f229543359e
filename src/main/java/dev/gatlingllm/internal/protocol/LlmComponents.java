package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.live.LiveFigures;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.SpecDecodeStats;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.selfcheck.JvmCheck;
import dev.gatlingllm.internal.servermetrics.GpuMetricsScraper;
import dev.gatlingllm.internal.servermetrics.ServerMetricsScraper;
import io.gatling.core.CoreComponents;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * One run of the protocol, as Gatling's protocol components: one instance per simulation run,
 * made by {@link #open} through {@link LlmProtocolKey}, the one thing Gatling hands over. It
 * holds the run's {@link RunParts}, which the actions, the rehearsal, the probes and
 * {@code llm().onStart(...)} take apart (each the parts it uses), and what only the run's
 * results read at its end ({@link RunResults}): the run's folder, its record log, its model
 * checked against the server's list, and the server's speculative decoding over the run.
 * The parts follow the run's life:
 * <ul>
 *   <li>while the simulation is built: the {@link RunSetup} (client, headers, scale-out), the
 *       {@link RunPacing} (arrival clock, pacer, limiter), the request kinds, the warm-up and
 *       the common start ({@link RunStart});
 *   <li>from the first send: the {@link RunMeasures} (self-check, server metrics, probes),
 *       started by the request action with {@link RunMeasures#start()}, and the records, in
 *       the {@link RunRequests}' store and the {@link RecordLog} on disk;
 *   <li>at the end: {@link RunResults} stops the measures and writes the results from the
 *       store and the parts' run parameters.
 * </ul>
 */
public final class LlmComponents implements ProtocolComponents {

  /** Longest wait for the server's model list before the run. */
  private static final Duration MODEL_LIST_TIMEOUT = Duration.ofSeconds(5);

  private final RunParts parts;
  /**
   * Where this run's files go (see {@link GatlingRunFolder}); null when no Gatling run
   * folder is known.
   */
  private final Path runFolder;
  /** Every finished request, on disk as it finishes; null when the log could not be created. */
  private final RecordLog recordLog;
  /** The run's model against the server's list, checked once in {@link #open}. */
  private final ServedModels.Check modelCheck;
  private final SpecDecodeWatch specDecode;

  private LlmComponents(RunParts parts, Path runFolder, RecordLog recordLog,
      ServedModels.Check modelCheck, SpecDecodeWatch specDecode) {
    this.parts = parts;
    this.runFolder = runFolder;
    this.recordLog = recordLog;
    this.modelCheck = modelCheck;
    this.specDecode = specDecode;
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
      RunStart.warmUpWithoutRequests(setup);
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
    SpecDecodeWatch specDecode = new SpecDecodeWatch(setup);
    RunParts parts = new RunParts(setup, pacing,
        new RunMeasures(core.eventLoopGroup(), setup.client(), scraping, runStop, stopping,
            live).withGpuScraping(gpuScraping),
        RunRequests.ofRun(setup, store), new RunStart(setup, pacing, specDecode));
    RecordLog log = RunRecordLog.open(runFolder, protocol.results(), parts);
    Consumer<RequestRecord> mirror = log == null ? live::finished : r -> {
      log.append(r);
      live.finished(r);
    };
    if (log != null || live != LiveFigures.NONE) {
      store.mirrorTo(mirror);
    }
    ServerCompliance compliance = parts.requests().compliance();
    if (models.listed() != null) {
      compliance.servedModels(models.listed());
    }
    // findings are said as they come, and end the run when asked: the run's, not a rehearsal's
    compliance.watch(new ComplianceWatch(complianceStop ? runStop : null));
    LlmComponents run = new LlmComponents(parts, runFolder, log, models, specDecode);
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

  /** The parts of the run of {@code ctx}'s simulation, as Gatling's registry holds them. */
  public static RunParts partsOf(ScenarioContext ctx) {
    return ctx.protocolComponentsRegistry().components(LlmProtocolKey.INSTANCE).parts();
  }

  /** The run's parts, each with its own job. */
  public RunParts parts() {
    return parts;
  }

  /** This run's folder for its files (see {@link GatlingRunFolder}); empty when not known. */
  Optional<Path> runFolder() {
    return Optional.ofNullable(runFolder);
  }

  /** The run's record log, mirroring its store; empty when it could not be created. */
  public Optional<RecordLog> recordLog() {
    return Optional.ofNullable(recordLog);
  }

  /** The run's model against the server's {@code /v1/models}; empty when not checked. */
  Optional<ServedModels.Check> modelCheck() {
    return Optional.ofNullable(modelCheck);
  }

  /**
   * The run's speculative decoding: the counters read now, after the run, against those read
   * before it; empty when the server has none (or they could not be read).
   */
  Optional<SpecDecodeStats> specDecodeStats() {
    return specDecode.stats();
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
