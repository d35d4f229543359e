package dev.gatlingllm.internal.live;

import dev.gatlingllm.internal.metrics.RequestRecord;
import java.util.function.DoubleSupplier;
import java.util.function.ToIntFunction;

/**
 * The run's figures as it goes, for a dashboard: requests started, finished and in flight,
 * tokens, latencies, the client's own lag. {@link #NONE} when no export was asked for, which
 * is the default: then no class of OpenTelemetry is loaded, as {@link #start} is the only
 * place that names the implementation.
 *
 * <p>The run calls {@link #sent()} and {@link #ended()} on the event loops, once per request
 * (an atomic increment each), and {@link #finished} once per finished request with its record
 * (a queue offer: its tokens and latencies are read off the event loops, on the export's
 * thread). Nothing is done per token as it arrives.
 */
public interface LiveFigures {

  /** No export: every call does nothing. */
  LiveFigures NONE = new LiveFigures() {
    @Override
    public void sent() {}

    @Override
    public void ended() {}

    @Override
    public void finished(RequestRecord record) {}

    @Override
    public void loopLag(DoubleSupplier p99Millis) {}

    @Override
    public void close(String selfCheckGrade) {}
  };

  /**
   * Starts exporting the figures of one run; loads OpenTelemetry's SDK, so call it off the
   * event loops, before the run.
   *
   * @param labels      what every figure is labelled with (model, backend, run id)
   * @param countOutput tokens of a generated text, for responses without {@code usage} (the
   *                    result's rule); called on the export's thread
   */
  static LiveFigures start(OtlpSettings settings, RunLabels labels,
      ToIntFunction<String> countOutput) {
    return OtlpFigures.start(settings, labels, countOutput);
  }

  /** A request went out (after any concurrency permit). Lock-free, for the event loops. */
  void sent();

  /** A request that {@link #sent()} is over, recorded or not. Lock-free, for the event loops. */
  void ended();

  /** A finished request's record, as the run's record store takes it. Only queues it. */
  void finished(RequestRecord record);

  /**
   * Where the client self-check's loop lag is read from (its 99th percentile so far, in ms),
   * once it has started.
   */
  void loopLag(DoubleSupplier p99Millis);

  /**
   * Exports the last figures (with the self-check's grade when there is one) and stops,
   * waiting a bounded time for the collector; never throws. Idempotent.
   *
   * @param selfCheckGrade the client self-check's grade ({@code good}, {@code fair}, ...);
   *                       null when the run was not graded
   */
  void close(String selfCheckGrade);

  /**
   * The attributes of every figure of a run.
   *
   * @param model   the model id, as the result's {@code model_id}
   * @param backend the backend, as the result's {@code backend}
   * @param runId   names this run among others exporting to the same place
   */
  record RunLabels(String model, String backend, String runId) {}
}
