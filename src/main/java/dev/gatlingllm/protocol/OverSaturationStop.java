package dev.gatlingllm.protocol;

import dev.gatlingllm.metrics.OverSaturation;
import dev.gatlingllm.metrics.RecordSource;
import dev.gatlingllm.metrics.RecordStore;
import dev.gatlingllm.metrics.RequestRecord;
import dev.gatlingllm.metrics.RequestTimes;
import io.gatling.core.actor.ActorRef;
import io.gatling.core.controller.Controller;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * run as Gatling's {@code stopLoadGenerator} does: nothing more is sent, the results are
 * written from every request that finished, and the result JSON's {@code over_saturation}
 * says {@code stopped_early}, when and why.
 *
 * <p><b>Requests in flight at the stop</b> are kept when they finish before the results are
 * written (a few ms after the stop: Gatling ends its run, then {@code after()} writes the
 * results): they are finished requests measured in full. Those still running then are left
 * to the server, counted in {@code requests_unfinished}, and in no figure: like any request
 * that never finished, they have no end to measure.
 *
 * <p>Made only when the option is on: without it the request action's hooks see no stop and
 * cost one null check ({@link RunMeasures#sending()}).
 */
public final class OverSaturationStop {

  private static final Logger LOG = LoggerFactory.getLogger(OverSaturationStop.class);
  /** How often the test runs. */
  static final long PERIOD_MILLIS = 1_000;
  /** Given instead of a ticket once the run was stopped: send nothing more. */
  public static final Ticket STOPPED = new Ticket(Long.MIN_VALUE);
  /** Gatling's crash message of a request refused after the stop (no record is made). */
  public static final String REFUSAL = "run stopped: over-saturated";

  /** One request in flight: when it went out. */
  public static final class Ticket {
    final long startNanos;

    private Ticket(long startNanos) {
      this.startNanos = startNanos;
    }
  }

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
  private final Consumer<String> stopRun;
  private final LongSupplier clock;
  private final OverSaturation.Options options;
  /** Origin of the test's seconds: when the watch started (the run's first send). */
  private final long originNanos;
  private final Set<Ticket> inFlight = ConcurrentHashMap.newKeySet();
  /** Null until the test passes. */
  private volatile Stop stop;
  /** Set when the results are written: requests ending later are not recorded. */
  private volatile boolean closed;
  private ScheduledExecutorService timer;

  OverSaturationStop(RecordStore store, Consumer<String> stopRun, LongSupplier clock,
      OverSaturation.Options options) {
    this.store = store;
    this.stopRun = stopRun;
    this.clock = clock;
    this.options = options;
    this.originNanos = clock.getAsLong();
  }

  /**
   * Starts watching the run whose finished requests go to {@code store}: the test runs every
   * {@value #PERIOD_MILLIS} ms on a thread of its own (never on an event loop: it sorts every
   * request of the run so far), and a stop is sent to Gatling's {@code controller}.
   */
  static OverSaturationStop start(RecordStore store, ActorRef<Controller.Command> controller) {
    java.lang.reflect.Constructor<?> stopCommand = stopCommand();
    OverSaturationStop watch = new OverSaturationStop(store, message -> {
      try {
        controller.$bang((Controller.Command) stopCommand.newInstance(message, false));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("Gatling's StopLoadGenerator could not be made", e);
      }
    }, System::nanoTime, OverSaturation.Options.DEFAULTS);
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
   * Gatling's {@code Controller.Command.StopLoadGenerator(message, crash)}, what its {@code
   * stopLoadGenerator} action sends: a Scala case class nested in a companion object, which
   * javac cannot name, hence reflection, looked up once when the watch starts.
   */
  private static java.lang.reflect.Constructor<?> stopCommand() {
    try {
      return Class.forName("io.gatling.core.controller.Controller$Command$StopLoadGenerator")
          .getConstructor(String.class, boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("--stop-on-over-saturation needs Gatling's "
          + "Controller.Command.StopLoadGenerator (Gatling 3.15): " + e, e);
    }
  }

  /**
   * A request is going out: its ticket, to give back to {@link #ended}; {@link #STOPPED}
   * once the run was stopped, when it must not be sent.
   */
  Ticket sending() {
    if (stop != null) {
      return STOPPED;
    }
    Ticket t = new Ticket(clock.getAsLong());
    inFlight.add(t);
    return t;
  }

  /** A request ended; false once the results were written, when it must not be recorded. */
  boolean ended(Ticket ticket) {
    inFlight.remove(ticket);
    return !closed;
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
    if (stop != null || closed) {
      return false;
    }
    RecordSource finished = store.snapshot();
    List<Ticket> running = new ArrayList<>(inFlight);
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
    long now = clock.getAsLong();
    Stop s = new Stop(now, originNanos + Math.round(result.sinceSeconds() * 1e9),
        result.evidence(), finished.size(), running.size());
    stop = s;
    cancelTimer();
    String line = String.format(Locale.ROOT, "gatling-llm: stopping the run %.2f s after its "
        + "first request, %s since %.2f s; %d requests finished, %d in flight",
        (now - originNanos) / 1e9, s.reason(), (s.sinceNanos() - originNanos) / 1e9,
        s.finished(), s.inFlight());
    System.out.println(line);
    System.out.flush();
    stopRun.accept("--stop-on-over-saturation: " + s.reason());
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
    closed = true;
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
    out.put("requests_unfinished", inFlight.size());
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
