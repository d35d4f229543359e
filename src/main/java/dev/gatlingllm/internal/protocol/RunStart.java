package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.arrival.InjectionPlan;
import dev.gatlingllm.internal.client.ChunkReader;
import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.client.WarmUp;
import dev.gatlingllm.internal.selfcheck.SelfCheck;
import dev.gatlingllm.internal.servermetrics.GpuMetricsScraper;
import dev.gatlingllm.internal.servermetrics.ServerMetricsScraper;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import java.util.function.ObjIntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the run does once, while its simulation is built and before its first user: the
 * warm-up (with the first request action's body) and, on an injector of a scaled-out
 * benchmark, the wait for the common start. The run's request actions ask for both; a
 * rehearsal's copy of the run has done both already ({@link #DONE}).
 */
public final class RunStart {

  /** A copy of the run that warms nothing up and waits for nothing: a rehearsal's. */
  static final RunStart DONE = new RunStart(null, null, null);

  private static final Logger LOG = LoggerFactory.getLogger(RunStart.class);
  /** Scrapes of the server's metrics before the run: enough for the JIT to compile them. */
  private static final int SCRAPER_WARM_UP_SCRAPES = 40;

  /** Null for {@link #DONE}. */
  private final RunSetup setup;
  private final RunPacing pacing;
  private final SpecDecodeWatch specDecode;
  private final AtomicBoolean warmedUp;
  private final AtomicBoolean commonStartAwaited = new AtomicBoolean();

  RunStart(RunSetup setup, RunPacing pacing, SpecDecodeWatch specDecode) {
    this.setup = setup;
    this.pacing = pacing;
    this.specDecode = specDecode;
    this.warmedUp = new AtomicBoolean(setup == null);
  }

  /**
   * Sends the run's warm-up requests (see {@link WarmUpOptions}) once per run, with the body
   * of the first request action built: called while the simulation is built, before any
   * user starts; then reads the server's speculative-decoding counters the run starts from.
   *
   * @param run      the parts of the run this starts
   * @param body     the body of a warm-up request with the given {@code max_tokens}
   * @param reader   how its answer is read (its API's)
   * @param rehearse sends the given number of the warm-up's requests through the run's own
   *                 actions, on copies of them and of the given parts (see {@link
   *                 RunParts#forRehearsal}), and waits for them
   */
  public void warmUpOnce(RunParts run, String path, IntFunction<byte[]> body,
      ChunkReader reader, ObjIntConsumer<RunParts> rehearse) {
    if (!warmedUp.compareAndSet(false, true)) {
      return;
    }
    LlmProtocol protocol = setup.protocol();
    if (!protocol.warmUp().enabled()) {
      // no request may reach the server: the same warm-up, against a stand-in
      StandInWarmUp.run(run, setup, path, body, reader, rehearse);
    } else {
      RunWarmUp.run(protocol, protocol.warmUp(), protocol.severalTargets()
          ? protocol.targets().toString() : protocol.target().toString(), setup.client(),
          setup.eventLoops(), path, body, reader,
          id -> RequestHeaders.withId(setup.baseHeaders(), id),
          n -> rehearse.accept(run, n), 0);
      prepareWithoutRequests(setup);
    }
    RunWarmUp.collectBeforeTheRun();
    specDecode.readBefore();
  }

  /**
   * On an injector with a common start ({@code -Dllm.startAt} or {@code -Dllm.startBarrier}):
   * waits until shortly before it and starts the arrival clock at it. Called while the
   * scenario is built, after the warm-up; a no-op otherwise, and after the first call.
   */
  public void awaitCommonStart() {
    if (setup != null && setup.injector() != null
        && commonStartAwaited.compareAndSet(false, true)) {
      // The plan injects a user up to one bucket after its slot's offset from the injection's
      // start, and at least lead before the slot when the clock starts lead + bucket after
      // the injection: that much must be left before the common start.
      InjectionPlan plan = InjectionPlan.of(setup.share().schedule(
          setup.protocol().arrivals().orElseThrow()));
      setup.injector().awaitStart(plan.lead().plus(plan.bucket()).toNanos(),
          setup.settingsHash()).ifPresent(pacing.arrivalClock().orElseThrow()::start);
    }
  }

  /**
   * Without warm-up requests (vLLM's {@code --num-warmups 0}, the drop-in's default), the run
   * still starts on a prepared client: everything the warm-up prepares that sends no request
   * to the model. Leaving it to the first requests cost them 60 ms of TTFT at concurrency 64
   * and 240 ms at 1,024 (client-truth benchmark, drop-in rungs, session 15): the event loops
   * loaded classes and ran cold code while the first wave waited.
   */
  static void warmUpWithoutRequests(RunSetup setup) {
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
}
