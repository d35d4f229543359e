package dev.gatlingllm.selfcheck;

import dev.gatlingllm.metrics.PyFormat;
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
    JvmCheck jvm) {

  /** Loop lag p99 above this means the loops, not the server, set part of the latencies. */
  public static final double LOOP_LAG_P99_WARN_MS = 1.0;
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
    loopLagMaxMsPerLoop = List.copyOf(loopLagMaxMsPerLoop);
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
   * JvmCheck#toJson()}), and {@code warnings} (an empty list when the client was not a
   * bottleneck). The percentiles and maximum of a distribution with no samples are left
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
    json.put("warnings", warnings());
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
    for (String warning : warnings()) {
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
   * Plain sentences, one per way the client distorted its own measurements; empty when it
   * was not a bottleneck. Stable wording, only figures from this report.
   */
  public List<String> warnings() {
    List<String> warnings = new ArrayList<>(4);
    if (loopLag.p99Ms() > LOOP_LAG_P99_WARN_MS) {
      String p99 = ms2(loopLag.p99Ms());
      warnings.add("the client itself was a bottleneck: event-loop lag p99 " + p99 + " ms, max "
          + ms2(loopLag.maxMs()) + " ms; these latencies include up to " + p99
          + " ms of client delay (p99)" + lagSplitSentence());
    }
    if (gcPauseMaxMs > GC_PAUSE_WARN_MS) {
      String pauses = gcPauses + (gcPauses == 1 ? " pause" : " pauses");
      warnings.add("the client JVM stopped for garbage collection for up to " + ms2(gcPauseMaxMs)
          + " ms (" + pauses + ", " + ms2(gcPauseTotalMs) + " ms in total); a latency measured"
          + " across a pause includes it");
    }
    if (cpuPercentOfOneCore > CPU_WARN_SHARE * 100 * availableProcessors) {
      warnings.add("the client JVM used " + PyFormat.fixed(cpuPercentOfOneCore, 0)
          + " % of one core, more than " + Math.round(CPU_WARN_SHARE * 100) + " % of its "
          + availableProcessors + " available cores; its latencies include time spent"
          + " waiting for a CPU");
    }
    if (!jvm.ok()) {
      warnings.add("the client JVM's settings differ from what its timings need ("
          + String.join("; ", jvm.differences()) + "); its own pauses and compiling are in"
          + " these latencies (README, \"The JVM gatling:test runs in\", has the <jvmArgs> to"
          + " paste)");
    }
    return List.copyOf(warnings);
  }

  /**
   * What the loops did while late, for the lag warning: running is the client's load;
   * waiting for a CPU is other work on its cores; not runnable is a call blocking a loop or
   * a late wake-up by the OS or hypervisor, which on a virtual machine whose idle cores halt
   * is the host's doing. Empty when the split was not measured or saw no such lag.
   */
  private String lagSplitSentence() {
    if (!lagSplit.measured() || lagSplit.lagMs() <= 0) {
      return "";
    }
    return "; of the loops' lag over " + PyFormat.fixed(lagSplit.overMs(), 0) + " ms ("
        + ms2(lagSplit.lagMs()) + " ms in all), " + lagSplit.percent(lagSplit.runningMs())
        + " % was spent running, " + lagSplit.percent(lagSplit.waitingForCpuMs())
        + " % waiting for a CPU and " + lagSplit.percent(lagSplit.notRunnableMs())
        + " % not runnable (blocked in a call on the loop, or asleep and woken late by the OS"
        + " or hypervisor)";
  }

  private static String ms(double value) {
    return PyFormat.fixed(value, 3);
  }

  private static String ms2(double value) {
    return PyFormat.fixed(value, 2);
  }

  private static double round3(double value) {
    return Math.round(value * 1000) / 1000.0;
  }

  /** Saturates rather than wraps; 2^31 samples would be 124 days of one loop's probes. */
  private static int saturatedInt(long count) {
    return (int) Math.min(count, Integer.MAX_VALUE);
  }
}
