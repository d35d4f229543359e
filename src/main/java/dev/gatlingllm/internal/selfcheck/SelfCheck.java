package dev.gatlingllm.internal.selfcheck;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client measuring its own distortion during a run, so that a distorted run says so:
 * how late each event loop gets to its work and why (its own work, waiting for a CPU, or not
 * runnable: {@link LagCauses}), how late paced requests go out, how long a request takes
 * from its clock start to its bytes being written, the JVM's GC pauses and its CPU use, over
 * the window from {@link #start} to {@link #stop}; the report also carries the JVM's settings
 * against those the timings need ({@link JvmCheck}, read once per JVM).
 *
 * <p>Cost: one short timer task per loop every 10 ms (on an idle loop that is a timer
 * wake-up, which costs more than the task itself; a busy loop checks its timers anyway; on
 * Linux the task also reads its thread's scheduler figures, one 2 µs {@code pread}) and
 * one GC notification listener; the {@code record…} methods are lock-free and
 * allocation-free (an atomic increment and, rarely, a compare-and-set), so they can be
 * called from the event loops on every request. Thread-safe.
 */
public final class SelfCheck {

  /**
   * How often each loop is probed. Every 5 ms until session 10; at C = 16 and 64, where the
   * loops are idle between chunks, those wake-ups were a measurable part of the client's CPU
   * (2 runs each with 20 ms: 3, 3 % of the core at C = 16 against 5, 4 with 5 ms). Every
   * 10 ms (Node's {@code monitorEventLoopDelay} default resolution) halves them; a stall
   * covers a probe with a probability of its length over the period, and the percentiles are
   * an estimate over time either way.
   */
  static final Duration DEFAULT_PROBE_PERIOD = Duration.ofMillis(10);

  private final List<LoopLagProbe> probes;
  private final LatencyHistogram loopLag;
  private final LagCauses lagCauses;
  private final LatencyHistogram sendLateness = new LatencyHistogram();
  private final LatencyHistogram writeTime = new LatencyHistogram();
  private final AtomicLong connectionRetries = new AtomicLong();
  private volatile boolean connectionReuseStopped;
  private final GcPauses gc;
  private final long startNanos;
  private final long startCpuNanos;

  /** Guarded by this: the figures, once stopped. */
  private SelfCheckReport report;

  private SelfCheck(List<LoopLagProbe> probes, LatencyHistogram loopLag, LagCauses lagCauses,
      GcPauses gc, long startNanos, long startCpuNanos) {
    this.probes = probes;
    this.loopLag = loopLag;
    this.lagCauses = lagCauses;
    this.gc = gc;
    this.startNanos = startNanos;
    this.startCpuNanos = startCpuNanos;
  }

  /**
   * Starts measuring: a lag probe on every loop of the group (every 10 ms), the GC pause
   * listener and the CPU baseline. Loops that are already shutting down are left out.
   */
  public static SelfCheck start(EventLoopGroup loops) {
    return start(loops, DEFAULT_PROBE_PERIOD);
  }

  /** {@link #start(EventLoopGroup)} with another probe period, for tests. */
  static SelfCheck start(EventLoopGroup loops, Duration probePeriod) {
    Objects.requireNonNull(loops, "loops");
    if (probePeriod.isNegative() || probePeriod.isZero()) {
      throw new IllegalArgumentException("probePeriod must be positive, got " + probePeriod);
    }
    long startNanos = System.nanoTime();
    long startCpuNanos = processCpuNanos();
    GcPauses gc = GcPauses.start();
    LatencyHistogram loopLag = new LatencyHistogram();
    LagCauses lagCauses = new LagCauses(
        Math.round(SelfCheckReport.LOOP_LAG_P99_WARN_MS * 1_000_000));
    List<LoopLagProbe> probes = new ArrayList<>();
    for (EventExecutor loop : loops) {
      LoopLagProbe probe = LoopLagProbe.start(loop, probePeriod.toNanos(), loopLag, lagCauses);
      if (probe != null) {
        probes.add(probe);
      }
    }
    return new SelfCheck(List.copyOf(probes), loopLag, lagCauses, gc, startNanos,
        startCpuNanos);
  }

  /**
   * A request's bytes were written: {@code nanos} from its clock start to the write
   * completing. Thread-safe and allocation-free, for the event loops.
   */
  public void recordWrite(long nanos) {
    writeTime.record(nanos);
  }

  /**
   * A request was sent again on a new connection because its reused one was stale (closed
   * before any of its response). Thread-safe and allocation-free.
   */
  public void recordConnectionRetry() {
    connectionRetries.incrementAndGet();
  }

  /** The client stopped reusing connections: the server closes each after its response. */
  public void recordConnectionReuseStopped() {
    connectionReuseStopped = true;
  }

  /**
   * A paced request went out {@code nanos} late against its arrival schedule (negative when
   * early, which counts as on time: 0). Thread-safe and allocation-free.
   */
  public void recordSendLateness(long nanos) {
    sendLateness.record(nanos);
  }

  /**
   * The event loops' lag so far, its 99th percentile in ms (0 before the first probe): the
   * self-check's one figure that means something while the run goes on, for the live figures.
   * Reads a copy of the lag histogram (30 KB), so call it seldom (once per export), off the
   * event loops.
   */
  public double loopLagP99MillisSoFar() {
    return millis(loopLag.snapshot().percentileNanos(99));
  }

  /**
   * Stops the probes and the GC listener and returns the figures of the window from
   * {@link #start} to now. Idempotent: later calls return the same report. May wait (up to
   * 1 s, and only when a collection ended just before) for the JVM to deliver that
   * collection's notification, so call it off the event loops. Values recorded
   * after it are not in the report.
   */
  public synchronized SelfCheckReport stop() {
    if (report != null) {
      return report;
    }
    for (LoopLagProbe probe : probes) {
      probe.stop();
    }
    long windowNanos = System.nanoTime() - startNanos;
    long cpuNanos = processCpuNanos() - startCpuNanos;
    SelfCheckReport.Latency lag = latency(loopLag);
    SelfCheckReport.Latency late = latency(sendLateness);
    SelfCheckReport.Latency writes = latency(writeTime);
    List<Double> maxLagPerLoop = new ArrayList<>(probes.size());
    for (LoopLagProbe probe : probes) {
      maxLagPerLoop.add(millis(probe.maxLagNanos()));
    }
    // Last, as it may wait for the JVM's notifications: the figures above are the window's.
    GcPauses.Figures pauses = gc.stop();
    double cpuPercent = startCpuNanos < 0 || cpuNanos < 0 || windowNanos <= 0
        ? Double.NaN
        : 100.0 * cpuNanos / windowNanos;
    report = new SelfCheckReport(millis(windowNanos), lag, maxLagPerLoop, late, writes,
        pauses.pauses(), pauses.totalMs(), pauses.maxMs(), cpuPercent,
        Runtime.getRuntime().availableProcessors(), lagCauses.figures(),
        new SelfCheckReport.Connections(connectionRetries.get(), connectionReuseStopped),
        JvmCheck.thisJvm());
    return report;
  }

  private static SelfCheckReport.Latency latency(LatencyHistogram histogram) {
    LatencyHistogram.Snapshot s = histogram.snapshot();
    if (s.count() == 0) {
      return SelfCheckReport.Latency.NONE;
    }
    return new SelfCheckReport.Latency(s.count(), millis(s.percentileNanos(50)),
        millis(s.percentileNanos(99)), millis(s.percentileNanos(99.9)), millis(s.maxNanos()));
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }

  /** CPU time of the whole JVM so far, or -1 when the platform does not tell. */
  private static long processCpuNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun
        ? sun.getProcessCpuTime()
        : -1;
  }
}
