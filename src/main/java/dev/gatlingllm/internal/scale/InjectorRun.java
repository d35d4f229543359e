package dev.gatlingllm.internal.scale;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One injector's scale-out state during a run: its share, its clock offset (measured once,
 * when the run is set up), the anchor between {@link System#nanoTime()} and the wall clock,
 * and the common start.
 */
public final class InjectorRun {

  private static final Logger LOG = LoggerFactory.getLogger(InjectorRun.class);
  /** Users are injected this much before the start at least (Gatling's own set-up, its tick). */
  private static final long START_MARGIN_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final ScaleOut settings;
  private final ClockOffset clock;
  private final long anchorNanoTime;
  private final long anchorEpochNanos;
  private final AtomicBoolean waited = new AtomicBoolean();
  /** The common start on the reference clock: {@code llm.startAt}, or the barrier's. */
  private volatile Instant start;

  InjectorRun(ScaleOut settings, ClockOffset clock, long anchorNanoTime, long anchorEpochNanos) {
    this.settings = settings;
    this.clock = clock;
    this.anchorNanoTime = anchorNanoTime;
    this.anchorEpochNanos = anchorEpochNanos;
    this.start = settings.startAt().orElse(null);
  }

  /**
   * Sets up an injector: measures its clock offset as {@code settings} say (a failed
   * {@code date} measurement is logged, and the local clock trusted).
   *
   * @param target the server whose {@code Date} header is the reference clock
   */
  public static InjectorRun start(ScaleOut settings, URI target, boolean insecureTls) {
    ClockOffset offset;
    switch (settings.clock()) {
      case "local" -> offset = ClockOffset.local();
      case "date" -> {
        try {
          offset = DateHeaderClock.measure(target, insecureTls, settings.probes(),
              DateHeaderClock.DEFAULT_BUDGET);
        } catch (IOException | RuntimeException e) {
          LOG.warn("could not measure the clock offset against {} ({}): this machine's clock "
              + "is trusted as it is (-D{}=local says so without trying)", target, e.getMessage(),
              ScaleOut.CLOCK_PROPERTY);
          offset = ClockOffset.local();
        }
      }
      default -> offset = ClockOffset.given(Math.round(Double.parseDouble(settings.clock()) * 1e6));
    }
    long before = System.nanoTime();
    Instant now = Instant.now();
    long after = System.nanoTime();
    InjectorRun run = new InjectorRun(settings, offset, before + (after - before) / 2,
        now.getEpochSecond() * 1_000_000_000L + now.getNano());
    LOG.info("injector {}: clock offset {}{}", settings.share(), offset.describe(),
        settings.startAt().map(s -> ", start at " + s).orElse(""));
    return run;
  }

  public InjectorShare share() {
    return settings.share();
  }

  public ClockOffset clock() {
    return clock;
  }

  /** The common start on this JVM's {@link System#nanoTime()} clock; empty while unknown. */
  public OptionalLong startNanos() {
    Instant s = start;
    if (s == null) {
      return OptionalLong.empty();
    }
    long referenceEpoch = s.getEpochSecond() * 1_000_000_000L + s.getNano();
    return OptionalLong.of(referenceEpoch - clock.offsetNanos() - anchorEpochNanos
        + anchorNanoTime);
  }

  /** Now on the reference clock, epoch nanoseconds. */
  long referenceNow() {
    return anchorEpochNanos + (System.nanoTime() - anchorNanoTime) + clock.offsetNanos();
  }

  /**
   * Once: passes the start barrier when there is one, then waits until shortly before the
   * common start, so that users are injected ahead of it by about {@code leadNanos} plus a
   * second. Called while Gatling builds the scenario, after the warm-up.
   *
   * @return the common start on this JVM's {@link System#nanoTime()} clock; empty without one
   * @throws IllegalArgumentException when the start is too close or past: this injector
   *                                  could not send its first requests on time
   */
  public OptionalLong awaitStart(long leadNanos, String settingsHash) {
    if (!waited.compareAndSet(false, true)) {
      return startNanos();
    }
    if (settings.barrier().isPresent()) {
      LOG.info("injector {}: ready, waiting at the start barrier {}", share(),
          settings.barrier().get());
      start = StartBarrier.await(settings.barrier().get(), share(), settingsHash,
          this::referenceNow, StartBarrier.DEFAULT_TIMEOUT);
    }
    OptionalLong startNanos = startNanos();
    if (startNanos.isEmpty()) {
      return startNanos;
    }
    long left = startNanos.getAsLong() - System.nanoTime();
    if (left < leadNanos) {
      throw new IllegalArgumentException("the common start " + start + " is " + (left < 0
          ? "already " + Duration.ofNanos(-left).toMillis() + " ms past"
          : "only " + Duration.ofNanos(left).toMillis() + " ms away") + " on injector " + share()
          + " (after its clock measurement and warm-up): its first requests would be late; "
          + "give a later -D" + ScaleOut.START_AT_PROPERTY + " (or use -D"
          + ScaleOut.BARRIER_PROPERTY + ")");
    }
    long wakeAt = startNanos.getAsLong() - leadNanos - START_MARGIN_NANOS;
    LOG.info("injector {}: starting at {}, waiting {} ms", share(), start,
        Math.max(0, (wakeAt - System.nanoTime()) / 1_000_000));
    for (long wait = wakeAt - System.nanoTime(); wait > 0; wait = wakeAt - System.nanoTime()) {
      LockSupport.parkNanos(wait);
    }
    return startNanos;
  }

  /** What the record log keeps of this injector, with the benchmark's settings hash. */
  public InjectorFacts facts(String settingsHash) {
    return new InjectorFacts(share(), settingsHash, start, clock, anchorNanoTime,
        anchorEpochNanos);
  }
}
