package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.metrics.OverSaturation;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.RequestTimes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The opt-in live stop of an over-saturated run ({@code --stop-on-over-saturation},
 * {@code ResultOptions.stopOnOverSaturation}): once a second during the run it runs
 * {@link OverSaturation}'s test on the requests finished so far plus those in flight (started,
 * not ended: an end of {@code +∞}, their TTFT unknown), and when the test passes it ends the
 * run through the run's {@link RunStop}: nothing more is sent, the results are written from
 * every request that finished, and the result JSON's {@code over_saturation} says {@code
 * stopped_early}, when and why.
 *
 * <p><b>Requests in flight at the stop</b> are kept when they finish before the results are
 * written (a few ms after the stop: Gatling ends its run, then {@code after()} writes the
 * results): they are finished requests measured in full. Those still running then are left
 * to the server, counted in {@code requests_unfinished}, and in no figure: like any request
 * that never finished, they have no end to measure.
 *
 * <p>Made only when the option is on.
 */
final class OverSaturationStop {

  private static final Logger LOG = LoggerFactory.getLogger(OverSaturationStop.class);
  /** How often the test runs. */
  static final long PERIOD_MILLIS = 1_000;
  /** Gatling's crash message of a request refused after the stop (no record is made). */
  static final String REFUSAL = "run stopped: over-saturated";

  /**
   * The stop, in nanos of {@link System#nanoTime()}.
   *
   * @param atNanos         when the test passed and the run was told to stop
   * @param sinceNanos      the end of the first passing window (its last start)
   * @param evidence        that window's figures
   * @param finished        requests finished at the stop
   * @param inFlight        requests in flight at the stop
   */
  record Stop(long atNanos, long sinceNanos, OverSaturation.Evidence evidence, int finished,
      int inFlight) {

    /** Why, in one sentence: the window's figures. */
    String reason() {
      return String.format(Locale.ROOT, "over-saturated: in flight +%.1f/s, TTFT +%.0f ms/s, "
          + "completions flat (%d then %d per half-window of %d requests)",
          evidence.inFlightSlope(), evidence.ttftSlopeMsPerS(), evidence.completionsFirstHalf(),
          evidence.completionsSecondHalf(), evidence.requests());
    }
  }

  private final RecordStore store;
  /** Tracks the requests in flight and ends the run; shared with the run's other stops. */
  private final RunStop runStop;
  private final OverSaturation.Options options;
  /** Origin of the test's seconds: when the watch started (the run's first send). */
  private final long originNanos;
  /** Null until the test passes. */
  private volatile Stop stop;
  private ScheduledExecutorService timer;

  OverSaturationStop(RecordStore store, Consumer<String> stopRun, LongSupplier clock,
      OverSaturation.Options options) {
    this(store, new RunStop(stopRun, clock), options);
  }

  OverSaturationStop(RecordStore store, RunStop runStop, OverSaturation.Options options) {
    this.store = store;
    this.runStop = runStop;
    this.options = options;
    this.originNanos = runStop.now();
  }

  /**
   * Starts watching the run whose finished requests go to {@code store}: the test runs every
   * {@value #PERIOD_MILLIS} ms on a thread of its own (never on an event loop: it sorts every
   * request of the run so far), and the run is stopped through {@code runStop}.
   */
  static OverSaturationStop start(RecordStore store, RunStop runStop) {
    OverSaturationStop watch = new OverSaturationStop(store, runStop,
        OverSaturation.Options.DEFAULTS);
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "gatling-llm-over-saturation");
      t.setDaemon(true);
      return t;
    });
    watch.timer = timer;
    timer.scheduleAtFixedRate(watch::checkSafely, PERIOD_MILLIS, PERIOD_MILLIS,
        TimeUnit.MILLISECONDS);
    return watch;
  }

  /**
   * A request is going out: its ticket, to give back to {@link #ended}; {@link RunStop#STOPPED}
   * once the run was stopped, when it must not be sent.
   */
  RunStop.Ticket sending() {
    return runStop.sending();
  }

  /** A request ended; false once the results were written, when it must not be recorded. */
  boolean ended(RunStop.Ticket ticket) {
    return runStop.ended(ticket);
  }

  private void checkSafely() {
    try {
      check();
    } catch (RuntimeException e) {
      // the stop is a convenience: a failing check must not cost the run
      LOG.error("the over-saturation check failed, the run goes on: {}", e.toString(), e);
      cancelTimer();
    }
  }

  /** Runs the test once; stops the run when it passes. Returns whether it stopped it. */
  boolean check() {
    if (stop != null || runStop.stopped() || runStop.closed()) {
      cancelTimer(); // stopped for another reason: nothing left to judge
      return false;
    }
    RecordSource finished = store.snapshot();
    List<RunStop.Ticket> running = runStop.inFlight();
    int n = finished.size() + running.size();
    double[] start = new double[n];
    double[] end = new double[n];
    double[] ttft = new double[n];
    for (int i = 0; i < finished.size(); i++) {
      RequestRecord r = finished.record(i);
      start[i] = RequestTimes.startSeconds(r, originNanos);
      end[i] = (r.endNanos() - originNanos) / 1e9;
      ttft[i] = r.success() && r.ttftNanos() >= 0 ? RequestTimes.ttftSeconds(r) : Double.NaN;
    }
    for (int k = 0; k < running.size(); k++) {
      int i = finished.size() + k;
      start[i] = (running.get(k).startNanos - originNanos) / 1e9;
      end[i] = Double.POSITIVE_INFINITY;
      ttft[i] = Double.NaN;
    }
    OverSaturation.Result result = OverSaturation.detect(start, end, ttft, options);
    if (!result.detected()) {
      return false;
    }
    long now = runStop.now();
    Stop s = new Stop(now, originNanos + Math.round(result.sinceSeconds() * 1e9),
        result.evidence(), finished.size(), running.size());
    cancelTimer();
    if (!runStop.stop(REFUSAL, "--stop-on-over-saturation: " + s.reason())) {
      return false; // another stop came first
    }
    stop = s;
    String line = String.format(Locale.ROOT, "gatling-llm: stopping the run %.2f s after its "
        + "first request, %s since %.2f s; %d requests finished, %d in flight",
        (now - originNanos) / 1e9, s.reason(), (s.sinceNanos() - originNanos) / 1e9,
        s.finished(), s.inFlight());
    System.out.println(line);
    System.out.flush();
    return true;
  }

  /** The stop, or null while the run was not stopped. */
  Stop stop() {
    return stop;
  }

  /**
   * Ends the watch as the results are written: no more checks, no more records. Returns the
   * result JSON's account of the stop (seconds after {@code benchmarkStartNanos}), or null
   * when the run was not stopped.
   */
  Map<String, Object> close(long benchmarkStartNanos) {
    runStop.close();
    cancelTimer();
    Stop s = stop;
    if (s == null) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("at_s", (s.atNanos() - benchmarkStartNanos) / 1e9);
    out.put("since_s", (s.sinceNanos() - benchmarkStartNanos) / 1e9);
    out.put("reason", s.reason());
    out.put("requests_finished", s.finished());
    out.put("requests_in_flight", s.inFlight());
    out.put("requests_unfinished", runStop.inFlightCount());
    out.put("evidence", s.evidence().toJson((originNanos - benchmarkStartNanos) / 1e9));
    return out;
  }

  private void cancelTimer() {
    ScheduledExecutorService t = timer;
    if (t != null) {
      t.shutdown(); // a periodic task ends with it; shutdownNow would interrupt a check
    }
  }
}
