package dev.gatlingllm.internal.protocol;

import io.gatling.core.actor.ActorRef;
import io.gatling.core.controller.Controller;
import io.gatling.core.controller.Controller$Command$StopLoadGenerator;
import io.gatling.core.controller.Controller$Command$StopLoadGenerator$Reason$Graceful$Forced;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Ends a run from within, as Gatling's {@code stopLoadGenerator} does: nothing more is sent,
 * and the results are written from every request that finished. The one mechanism behind
 * every opt-in live stop ({@code --stop-on-over-saturation}, {@link OverSaturationStop};
 * {@code --stop-on-server-noncompliance}, {@link ComplianceWatch}); the first stop wins.
 *
 * <p>It keeps a ticket for each request in flight: a request ending after the results were
 * written must not be recorded (the store is closed), and the over-saturation test reads
 * when the requests in flight went out.
 *
 * <p>Made only when a stop is asked for: without one the request action's hooks cost one null
 * check ({@link RunMeasures#sending()}).
 */
public final class RunStop {

  /** Given instead of a ticket once the run was stopped: send nothing more. */
  public static final Ticket STOPPED = new Ticket(Long.MIN_VALUE);

  /** One request in flight: when it went out. */
  public static final class Ticket {
    final long startNanos;

    private Ticket(long startNanos) {
      this.startNanos = startNanos;
    }
  }

  private final Consumer<String> stopRun;
  private final LongSupplier clock;
  private final Set<Ticket> inFlight = ConcurrentHashMap.newKeySet();
  /** Gatling's crash message of a request refused after the stop; null while running. */
  private final AtomicReference<String> refusal = new AtomicReference<>();
  /** Set when the results are written: requests ending later are not recorded. */
  private volatile boolean closed;

  RunStop(Consumer<String> stopRun, LongSupplier clock) {
    this.stopRun = stopRun;
    this.clock = clock;
  }

  /**
   * A stop that sends the run's {@code controller} what Gatling's {@code stopLoadGenerator}
   * action sends: {@code StopLoadGenerator(Reason.Graceful.Forced(message))}, a forced but
   * graceful end (Gatling 3.16; 3.15 took a message and a crash flag instead). The classes are
   * Scala case classes nested in companion objects, which javac can name only by their binary
   * names; naming them (rather than finding them by reflection) makes a change of Gatling's
   * shape a compile error instead of a failure when a run stops.
   */
  static RunStop of(ActorRef<Controller.Command> controller) {
    return new RunStop(message -> controller.$bang(new Controller$Command$StopLoadGenerator(
        new Controller$Command$StopLoadGenerator$Reason$Graceful$Forced(message))),
        System::nanoTime);
  }

  /** {@link System#nanoTime()}, or a test's clock. */
  long now() {
    return clock.getAsLong();
  }

  /**
   * A request is going out: its ticket, to give back to {@link #ended}; {@link #STOPPED}
   * once the run was stopped, when it must not be sent.
   */
  Ticket sending() {
    if (refusal.get() != null) {
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

  /**
   * Stops the run, once: {@code refusal} is what a request refused from now on fails with,
   * {@code message} what Gatling is told. False when the run was already stopped (by another
   * stop) or its results written: the caller's stop did not happen.
   */
  boolean stop(String refusal, String message) {
    if (closed || !this.refusal.compareAndSet(null, refusal)) {
      return false;
    }
    stopRun.accept(message);
    return true;
  }

  /** Whether the run was stopped. */
  boolean stopped() {
    return refusal.get() != null;
  }

  /** Why a request is refused after the stop; null while the run was not stopped. */
  public String refusal() {
    return refusal.get();
  }

  /** The requests in flight now. */
  List<Ticket> inFlight() {
    return new ArrayList<>(inFlight);
  }

  /** How many requests are in flight now (after {@link #close()}: never to be recorded). */
  int inFlightCount() {
    return inFlight.size();
  }

  /** The results are being written: later stops do nothing, later ends are not recorded. */
  void close() {
    closed = true;
  }

  /** Whether {@link #close()} was called. */
  boolean closed() {
    return closed;
  }
}
