package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.arrival.ArrivalClock;
import dev.gatlingllm.internal.metrics.UrlFigures;
import dev.gatlingllm.internal.scale.ScaleOut;
import dev.gatlingllm.internal.report.RunInfo;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The parts of one copy of a run (the run's, or a rehearsal's) and what the results say about
 * it, read by its record log during the run and by {@link RunResults} at its end: the run's
 * parameters and the start of its benchmark duration.
 */
record RunFacts(RunSetup setup, RequestKinds kinds, RunPacing pacing, RunMeasures measures) {

  /** The run's parameters for the result file. */
  RunInfo runInfo() {
    ArrivalClock clock = pacing.arrivalClock().orElse(null);
    Instant arrivalStart = clock != null && clock.isStarted() ? clock.startInstant() : null;
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
  long benchmarkStartNanos() {
    long first = measures.firstSendNanos();
    ArrivalClock clock = pacing.arrivalClock().orElse(null);
    if (clock != null && clock.isStarted()) {
      return first < 0 ? clock.startNanos() : Math.min(first, clock.startNanos());
    }
    return first;
  }
}
