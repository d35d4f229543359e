package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.arrival.ArrivalClock;
import dev.gatlingllm.internal.live.LiveFigures;
import dev.gatlingllm.internal.metrics.UrlFigures;
import dev.gatlingllm.internal.scale.ScaleOut;
import dev.gatlingllm.internal.report.RunInfo;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The parts of one copy of a run (the run's, or a rehearsal's, {@link #forRehearsal}), each
 * with its own job: what it is made of ({@link RunSetup}: protocol, client, headers, share),
 * when its requests go out ({@link RunPacing}), what it measures from its first send
 * ({@link RunMeasures}), its requests' ids, records and checks ({@link RunRequests}), and what
 * it does once before its first user ({@link RunStart}). What the request actions, the
 * rehearsal, the probes and {@code llm().onStart(...)} are given; the run's results also read
 * its parameters and the start of its benchmark duration from here.
 */
public record RunParts(RunSetup setup, RunPacing pacing, RunMeasures measures,
    RunRequests requests, RunStart start) {

  /**
   * A copy of these parts for rehearsing the run's actions before the run (see {@code
   * action.Rehearsal}): the same setup (client, event loops, headers) and pacer, but its own
   * requests (record store, ids), arrival clock ({@code clock}, or none), concurrency limiter,
   * self-check and first-send time, no server-metrics scraper or live figures, and nothing to
   * start. Nothing done through it reaches the run's results.
   */
  public RunParts forRehearsal(ArrivalClock clock) {
    return new RunParts(setup, pacing.forRehearsal(clock, setup.protocol(), setup.share()),
        ownMeasures(setup), RunRequests.ofRehearsal(setup), RunStart.DONE);
  }

  /**
   * Parts over {@code standIn} (a setup whose client is aimed elsewhere, see {@link
   * StandInWarmUp}) for rehearsing the run's actions there: {@link #forRehearsal} of them
   * then sends nothing to the run's server.
   */
  RunParts overStandIn(RunSetup standIn) {
    return new RunParts(standIn, pacing, ownMeasures(standIn), RunRequests.ofRehearsal(standIn),
        RunStart.DONE);
  }

  /** Measures of a rehearsal's own: a self-check, nothing scraped or exported. */
  private static RunMeasures ownMeasures(RunSetup setup) {
    return new RunMeasures(setup.core().eventLoopGroup(), setup.client(), null, null, null,
        LiveFigures.NONE);
  }

  /** The run's parameters for the result file. */
  public RunInfo runInfo() {
    ArrivalClock clock = pacing.arrivalClock().orElse(null);
    Instant arrivalStart = clock != null && clock.isStarted() ? clock.startInstant() : null;
    RequestKinds kinds = requests.kinds();
    RunInfo.Builder info = ResultMetadata.of(setup.protocol(), kinds.endpointTypes(),
            arrivalStart, ZoneId.systemDefault())
        .toBuilder().taskType(kinds.taskType());
    if (setup.protocol().severalTargets()) {
      // the report splits the records by these, and the record log keeps them for recover
      info = info.extra(UrlFigures.URLS_EXTRA, setup.protocol().targets().stream()
              .map(Object::toString).toList())
          .extra(UrlFigures.STRATEGY_EXTRA, setup.protocol().targetStrategy().flagValue());
    }
    if (setup.injector() != null) {
      info = info.extra(ScaleOut.INJECTOR_KEY,
          setup.injector().facts(setup.settingsHash()).toJson());
    }
    return info.build();
  }

  /**
   * Start of the benchmark duration: the arrival schedule's start when users were paced
   * (vLLM starts its clock before the first arrival), else the first send; -1 when nothing
   * was sent.
   */
  public long benchmarkStartNanos() {
    long first = measures.firstSendNanos();
    ArrivalClock clock = pacing.arrivalClock().orElse(null);
    if (clock != null && clock.isStarted()) {
      return first < 0 ? clock.startNanos() : Math.min(first, clock.startNanos());
    }
    return first;
  }
}
