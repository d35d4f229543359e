package dev.gatlingllm.internal.selfcheck;

import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the client measured of its own distortion over one window (see {@link SelfCheck}).
 * Durations are in milliseconds.
 *
 * <p>Percentiles are nearest-rank over a fixed-bucket histogram: never below the true value
 * at that rank and at most 0.78 % above it. Loop-lag samples are one per probe period per
 * loop, including the periods a stall swallowed (each with the lag it would have seen), so
 * its percentiles are shares of time: "p99 2 ms" means the loops were 2 ms or more behind
 * for 1 % of the window. Timer wake-up is in every lag sample (tens of µs on epoll, up to
 * 0.5 ms more on NIO loops), so sub-millisecond lags are upper bounds.
 *
 * @param windowMs            length of the window
 * @param loopLag             how late the probes ran, all loops pooled
 * @param loopLagMaxMsPerLoop the largest lag of each loop, in the group's order
 * @param sendLateness        paced requests' send time against their schedule (early counts
 *                            as 0); {@link Latency#NONE} when the run was not paced
 * @param writeTime           from a request's clock start to its bytes written
 * @param gcPauses            collections that stopped the JVM and ended inside the window
 * @param gcPauseTotalMs      their summed duration (JMX reports whole milliseconds)
 * @param gcPauseMaxMs        the longest of them
 * @param cpuPercentOfOneCore CPU time of the whole JVM over the window, in % of one core
 *                            (200 = two cores busy); NaN when the platform does not tell
 * @param availableProcessors the cores the JVM may use
 * @param lagSplit            where the loops' lag over {@link #LOOP_LAG_P99_WARN_MS} went
 * @param connections         requests sent again on a new connection, and whether reuse stopped
 * @param jvm                 the client JVM's settings against those the timings need
 * @param run                 the run's own figures the delays are graded against
 *                            ({@link RunFigures#UNKNOWN} until {@link #against} is called)
 */
public record SelfCheckReport(
    double windowMs,
    Latency loopLag,
    List<Double> loopLagMaxMsPerLoop,
    Latency sendLateness,
    Latency writeTime,
    int gcPauses,
    double gcPauseTotalMs,
    double gcPauseMaxMs,
    double cpuPercentOfOneCore,
    int availableProcessors,
    LagSplit lagSplit,
    Connections connections,
    JvmCheck jvm,
    RunFigures run) {

  /**
   * Loop lag below this is the probes' own timer wake-up: the split of the lag into causes
   * counts only the lag above it, and a lag p99 below it is good whatever the run's figures.
   */
  public static final double LOOP_LAG_P99_WARN_MS = Grading.LAG_FLOOR_MS;
  /** A GC pause longer than this shows in a token-level latency tail. */
  public static final double GC_PAUSE_WARN_MS = 10.0;
  /** CPU above this share of the available cores leaves the client waiting for CPU. */
  public static final double CPU_WARN_SHARE = 0.90;

  /** Title of the console section, centred like vLLM's section titles. */
  static final String TITLE = "Client self-check (gatling-llm)";

  /** Width of vLLM's summary; its labels are padded to 40 columns. */
  private static final int WIDTH = 50;
  private static final int LABEL_WIDTH = 40;

  public SelfCheckReport {
    Objects.requireNonNull(loopLag, "loopLag");
    Objects.requireNonNull(sendLateness, "sendLateness");
    Objects.requireNonNull(writeTime, "writeTime");
    Objects.requireNonNull(lagSplit, "lagSplit");
    Objects.requireNonNull(connections, "connections");
    Objects.requireNonNull(jvm, "jvm");
    Objects.requireNonNull(run, "run");
    loopLagMaxMsPerLoop = List.copyOf(loopLagMaxMsPerLoop);
  }

  /** The figures as measured, before the run's own figures are known. */
  public SelfCheckReport(double windowMs, Latency loopLag, List<Double> loopLagMaxMsPerLoop,
      Latency sendLateness, Latency writeTime, int gcPauses, double gcPauseTotalMs,
      double gcPauseMaxMs, double cpuPercentOfOneCore, int availableProcessors,
      LagSplit lagSplit, Connections connections, JvmCheck jvm) {
    this(windowMs, loopLag, loopLagMaxMsPerLoop, sendLateness, writeTime, gcPauses,
        gcPauseTotalMs, gcPauseMaxMs, cpuPercentOfOneCore, availableProcessors, lagSplit,
        connections, jvm, RunFigures.UNKNOWN);
  }

  /** This report, graded against the run's own figures. */
  public SelfCheckReport against(RunFigures figures) {
    return new SelfCheckReport(windowMs, loopLag, loopLagMaxMsPerLoop, sendLateness, writeTime,
        gcPauses, gcPauseTotalMs, gcPauseMaxMs, cpuPercentOfOneCore, availableProcessors,
        lagSplit, connections, jvm, figures);
  }

  /**
   * How much the client distorted the run's figures, worst first: only {@link #DISTORTED} is
   * an alarm. Ordered by severity.
   */
  public enum Grade {
    /** The client's delays are small against the figures they enter. */
    GOOD("good"),
    /** Too short a window, or no successful request to compare the client's delay with. */
    NOT_GRADED("not graded"),
    /** A delay worth knowing about, within a tolerable share of the figures. */
    FAIR("fair"),
    /** A figure's tail is largely the client's own delay. */
    DISTORTED("distorted");

    private final String label;

    Grade(String label) {
      this.label = label;
    }

    /** The word printed and written into the JSON: "good", "not graded", "fair", "distorted". */
    public String label() {
      return label;
    }
  }

  /**
   * The run's figures a client delay is compared with, in ms: the medians and p99 of TTFT and
   * ITL (and E2EL, for runs without a first token) of its successful requests.
   *
   * @param succeeded successful requests; -1 when the figures are not known
   */
  public record RunFigures(long succeeded, double ttftP50Ms, double ttftP99Ms, double itlP50Ms,
      double itlP99Ms, double e2elP50Ms) {
    /** Not known: the self-check is graded on its own figures only. */
    public static final RunFigures UNKNOWN = new RunFigures(-1, 0, 0, 0, 0, 0);

    boolean known() {
      return succeeded >= 0;
    }

    /**
     * The figures of the successful requests of a run, with the rules of
     * {@code metrics.LatencySamples} (TTFT of each, every gap between content chunks); kept
     * in this package's fixed-bucket histograms (nearest rank, at most 0.78 % high), so
     * grading a run of a hundred million tokens allocates nothing per token.
     */
    public static RunFigures of(RecordSource records) {
      LatencyHistogram ttft = new LatencyHistogram();
      LatencyHistogram itl = new LatencyHistogram();
      LatencyHistogram e2el = new LatencyHistogram();
      long succeeded = 0;
      for (int i = 0; i < records.size(); i++) {
        RequestRecord r = records.record(i);
        if (!r.success()) {
          continue;
        }
        succeeded++;
        if (r.ttftNanos() > 0) {
          ttft.record(r.ttftNanos());
        }
        if (r.latencyNanos() > 0) {
          e2el.record(r.latencyNanos());
        }
        for (int k = 0; k < r.itlCount(); k++) {
          itl.record(r.itlMicros(k) * 1_000L);
        }
      }
      LatencyHistogram.Snapshot t = ttft.snapshot();
      LatencyHistogram.Snapshot g = itl.snapshot();
      return new RunFigures(succeeded, t.percentileNanos(50) / 1e6, t.percentileNanos(99) / 1e6,
          g.percentileNanos(50) / 1e6, g.percentileNanos(99) / 1e6,
          e2el.snapshot().percentileNanos(50) / 1e6);
    }
  }

  /** The grade: the worst of the client's delays against the run's figures. */
  public Grade grade() {
    return Grading.of(this).grade();
  }

  /**
   * One short sentence: why this grade, with the amount against the figure and the cause,
   * e.g. "event-loop lag p99 4.60 ms, 46 % of the run's ITL p50 (10.00 ms); mostly running:
   * the client's own load".
   */
  public String reason() {
    return Grading.of(this).reason();
  }

  /**
   * The event loops' lag in probe runs later than {@code overMs}, summed and split by what
   * each loop thread did meanwhile (see {@code LagCauses}): running, runnable but waiting for a
   * CPU, or not runnable (blocked in a call on the loop, or asleep and woken late by the OS or
   * hypervisor). In ms; all 0 when {@code measured} is false.
   */
  public record LagSplit(boolean measured, double overMs, double lagMs, double runningMs,
      double waitingForCpuMs, double notRunnableMs) {
    /** No scheduler figures on this platform. */
    public static final LagSplit NOT_MEASURED = new LagSplit(false, 0, 0, 0, 0, 0);

    /** {@code part} as a whole percentage of the lag. */
    long percent(double part) {
      return lagMs <= 0 ? 0 : Math.round(100 * part / lagMs);
    }
  }

  /**
   * How the client's connections fared: requests sent again on a new connection because the
   * reused one was stale (closed by the server before any of the response; never failures),
   * and whether the client stopped reusing connections because the server closes each one
   * after its response.
   */
  public record Connections(long retries, boolean reuseStopped) {
    /** No retry, reuse on. */
    public static final Connections NONE = new Connections(0, false);
  }

  /**
   * A distribution of durations in milliseconds.
   *
   * @param samples how many values it holds; the other figures are 0 when none
   */
  public record Latency(long samples, double p50Ms, double p99Ms, double p999Ms, double maxMs) {
    /** No values recorded. */
    public static final Latency NONE = new Latency(0, 0, 0, 0, 0);
  }

  /**
   * The object written into the vLLM result JSON under {@code "client_self_check"}, in this
   * order: durations in ms rounded to 3 decimals, counts as integers, whether connection
   * reuse stopped as a boolean, the lag's split as an
   * object ({@code loop_lag_split}, {@code null} where not measured), {@code null} for an
   * unknown CPU figure, the JVM's settings and verdict ({@code jvm}, see {@link
   * JvmCheck#toJson()}), the {@code grade} ({@link Grade#label()}), its {@code cause} (a word:
   * running, waiting_for_cpu, not_runnable, gc_pauses, cpu, jvm_settings, not_measured; null
   * when good or not graded) and {@code grade_reason}, and {@code warnings} (an empty list
   * when good). The percentiles and maximum of a distribution with no samples are left
   * out, its {@code _samples} count stays.
   */
  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("window_ms", round3(windowMs));
    json.put("event_loops", loopLagMaxMsPerLoop.size());
    putLatency(json, "loop_lag", loopLag, true);
    List<Double> perLoop = new ArrayList<>(loopLagMaxMsPerLoop.size());
    for (double max : loopLagMaxMsPerLoop) {
      perLoop.add(round3(max));
    }
    json.put("max_loop_lag_ms_per_loop", perLoop);
    json.put("loop_lag_split", lagSplitJson());
    putLatency(json, "send_lateness", sendLateness, false);
    putLatency(json, "write_time", writeTime, false);
    json.put("connection_retries", connections.retries());
    json.put("connection_reuse_stopped", connections.reuseStopped());
    json.put("gc_pauses", gcPauses);
    json.put("gc_pause_total_ms", round3(gcPauseTotalMs));
    json.put("max_gc_pause_ms", round3(gcPauseMaxMs));
    json.put("cpu_percent_of_one_core",
        Double.isNaN(cpuPercentOfOneCore) ? null : round3(cpuPercentOfOneCore));
    json.put("available_processors", availableProcessors);
    json.put("jvm", jvm.toJson());
    Grading grading = Grading.of(this);
    json.put("grade", grading.grade().label());
    json.put("cause", grading.cause());
    json.put("grade_reason", grading.reason());
    json.put("warnings", grading.warnings());
    return json;
  }

  /** The lag's split, or null where it could not be measured. */
  private Map<String, Object> lagSplitJson() {
    if (!lagSplit.measured()) {
      return null;
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("over_ms", round3(lagSplit.overMs()));
    json.put("lag_ms", round3(lagSplit.lagMs()));
    json.put("running_ms", round3(lagSplit.runningMs()));
    json.put("waiting_for_cpu_ms", round3(lagSplit.waitingForCpuMs()));
    json.put("not_runnable_ms", round3(lagSplit.notRunnableMs()));
    return json;
  }

  /** vLLM's key style: {@code median_}, {@code p99_}, {@code p99.9_}, {@code max_}. */
  private static void putLatency(Map<String, Object> json, String name, Latency l,
      boolean withP999) {
    json.put(name + "_samples", saturatedInt(l.samples()));
    if (l.samples() == 0) {
      return;
    }
    json.put("median_" + name + "_ms", round3(l.p50Ms()));
    json.put("p99_" + name + "_ms", round3(l.p99Ms()));
    if (withP999) {
      json.put("p99.9_" + name + "_ms", round3(l.p999Ms()));
    }
    json.put("max_" + name + "_ms", round3(l.maxMs()));
  }

  /**
   * The section printed under vLLM's summary, in its style: a title centred in 50 columns
   * with dashes, {@code "{:<40} {:<10}"} lines (durations with 3 decimals, since the
   * interesting values are often below a millisecond), warnings, then vLLM's closing rule.
   */
  public String consoleText() {
    StringBuilder out = new StringBuilder(1024);
    out.append(PyFormat.center(TITLE, WIDTH, '-')).append('\n');
    line(out, "Self-check window (s):", PyFormat.fixed(windowMs / 1000, 2));
    line(out, "Event loops:", Integer.toString(loopLagMaxMsPerLoop.size()));
    line(out, "Loop lag samples:", Long.toString(loopLag.samples()));
    if (loopLag.samples() > 0) {
      line(out, "Median loop lag (ms):", ms(loopLag.p50Ms()));
      line(out, "P99 loop lag (ms):", ms(loopLag.p99Ms()));
      line(out, "P99.9 loop lag (ms):", ms(loopLag.p999Ms()));
      line(out, "Max loop lag (ms):", ms(loopLag.maxMs()));
      StringBuilder perLoop = new StringBuilder();
      for (double max : loopLagMaxMsPerLoop) {
        perLoop.append(perLoop.length() == 0 ? "" : " ").append(ms(max));
      }
      line(out, "Max loop lag per loop (ms):", perLoop.toString());
    }
    if (lagSplit.measured()) {
      String over = "Lag over " + PyFormat.fixed(lagSplit.overMs(), 0) + " ms";
      line(out, over + " (ms):", ms(lagSplit.lagMs()));
      line(out, over + ", running (ms):", ms(lagSplit.runningMs()));
      line(out, over + ", waiting for CPU (ms):", ms(lagSplit.waitingForCpuMs()));
      line(out, over + ", not runnable (ms):", ms(lagSplit.notRunnableMs()));
    }
    if (sendLateness.samples() > 0) {
      line(out, "Median send lateness (ms):", ms(sendLateness.p50Ms()));
      line(out, "P99 send lateness (ms):", ms(sendLateness.p99Ms()));
      line(out, "Max send lateness (ms):", ms(sendLateness.maxMs()));
    }
    if (writeTime.samples() > 0) {
      line(out, "Median write time (ms):", ms(writeTime.p50Ms()));
      line(out, "P99 write time (ms):", ms(writeTime.p99Ms()));
      line(out, "Max write time (ms):", ms(writeTime.maxMs()));
    }
    line(out, "Connection retries:", Long.toString(connections.retries()));
    line(out, "Connection reuse:", connections.reuseStopped() ? "stopped" : "on");
    line(out, "GC pauses:", Integer.toString(gcPauses));
    line(out, "GC pause total (ms):", ms(gcPauseTotalMs));
    line(out, "Max GC pause (ms):", ms(gcPauseMaxMs));
    line(out, "Client CPU (% of one core):",
        Double.isNaN(cpuPercentOfOneCore) ? "n/a" : PyFormat.fixed(cpuPercentOfOneCore, 2));
    line(out, "Available processors:", Integer.toString(availableProcessors));
    line(out, "JVM settings:", jvm.ok() ? "ok" : jvm.differences().size() + " differ");
    Grading grading = Grading.of(this);
    line(out, "Self-check grade:", grading.grade().label());
    if (!grading.reason().isEmpty()) {
      out.append("  ").append(grading.reason()).append('\n');
    }
    for (String warning : grading.warnings()) {
      out.append("Warning: ").append(warning).append('\n');
    }
    out.append("=".repeat(WIDTH)).append('\n');
    return out.toString();
  }

  /** {@code "{:<40} {:<10}"}, as vLLM prints its summary lines (trailing spaces included). */
  private static void line(StringBuilder out, String label, String value) {
    out.append(PyFormat.left(label, LABEL_WIDTH)).append(' ')
        .append(PyFormat.left(value, 10)).append('\n');
  }

  /**
   * Plain sentences, one per finding worse than good, worst first, each starting with its
   * grade ("distorted: ...", "fair: ..."): empty when the grade is good or not graded. Stable
   * wording, only figures from this report.
   */
  public List<String> warnings() {
    return Grading.of(this).warnings();
  }

  private static String ms(double value) {
    return PyFormat.fixed(value, 3);
  }

  private static double round3(double value) {
    return Math.round(value * 1000) / 1000.0;
  }

  /** Saturates rather than wraps; 2^31 samples would be 124 days of one loop's probes. */
  private static int saturatedInt(long count) {
    return (int) Math.min(count, Integer.MAX_VALUE);
  }
}
