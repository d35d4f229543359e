package dev.gatlingllm.internal.selfcheck;

import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.selfcheck.SelfCheckReport.Grade;
import dev.gatlingllm.internal.selfcheck.SelfCheckReport.RunFigures;
import java.util.ArrayList;
import java.util.List;

/**
 * The self-check's verdict: each delay the client measured of itself, compared with the
 * figure of the run it distorts, graded, with the cause it measured. The overall grade is the
 * worst finding's; its reason is that finding's. Thresholds are shares of the run's own
 * figures, measured in docs/client-overhead.md ("Grading the self-check (session 16)"):
 * a loop lag moves the ITL and TTFT tails by about its own size and their medians by nearly
 * nothing, so the lag's p99 is compared with the typical gap (ITL p50) and the typical TTFT.
 *
 * @param grade    the worst finding's grade ({@link Grade#GOOD} when nothing was found)
 * @param cause    the worst finding's cause as a JSON word, null when good or not graded
 * @param reason   one short sentence: why this grade, with the figures
 * @param warnings one sentence per finding worse than good, worst first
 */
record Grading(Grade grade, String cause, String reason, List<String> warnings) {

  /** Lag p99 at or below this is the probes' own timer wake-up, whatever the figures. */
  static final double LAG_FLOOR_MS = 1.0;
  /** Lag p99 up to this share of the figure it distorts is good (see the class comment). */
  static final double LAG_GOOD_SHARE = 0.20;
  /** Lag p99 beyond this share of the figure: the tail is largely the client's: distorted. */
  static final double LAG_DISTORTED_SHARE = 0.50;
  /** Fewer lag samples than this (1 s of one loop) is too short a window to grade. */
  static final long MIN_LAG_SAMPLES = 100;
  /** Fewer paced sends than this are not graded. */
  static final long MIN_SENDS = 20;
  /** Send lateness p99 up to this share of the mean arrival gap keeps the arrival process. */
  static final double SEND_GOOD_SHARE = 0.25;
  /** Lateness beyond a whole arrival gap reorders and bunches the arrivals: distorted. */
  static final double SEND_DISTORTED_SHARE = 1.0;
  /** GC pauses covering this share of the window reach the p99 of the latencies. */
  static final double GC_DISTORTED_TIME_SHARE = 0.01;

  /** Cause words of the JSON ({@code client_self_check.cause}). */
  static final String RUNNING = "running";
  static final String WAITING_FOR_CPU = "waiting_for_cpu";
  static final String NOT_RUNNABLE = "not_runnable";
  static final String GC_PAUSES = "gc_pauses";
  static final String CPU = "cpu";
  static final String JVM_SETTINGS = "jvm_settings";
  static final String NOT_MEASURED = "not_measured";

  private record Finding(Grade grade, String cause, String reason, String warning) {}

  static Grading of(SelfCheckReport r) {
    List<Finding> findings = new ArrayList<>(5);
    findings.add(loopLag(r));
    findings.add(sendLateness(r));
    findings.add(gc(r));
    if (r.cpuPercentOfOneCore() > SelfCheckReport.CPU_WARN_SHARE * 100 * r.availableProcessors()) {
      findings.add(new Finding(Grade.FAIR, CPU, "the client JVM used "
          + PyFormat.fixed(r.cpuPercentOfOneCore(), 0) + " % of one core of its "
          + r.availableProcessors() + " (its own load)",
          "the client JVM used " + PyFormat.fixed(r.cpuPercentOfOneCore(), 0)
          + " % of one core, more than " + Math.round(SelfCheckReport.CPU_WARN_SHARE * 100)
          + " % of its " + r.availableProcessors() + " available cores; its latencies include"
          + " time spent waiting for a CPU"));
    }
    if (!r.jvm().ok()) {
      findings.add(new Finding(Grade.FAIR, JVM_SETTINGS, "the client JVM's settings differ from"
          + " what its timings need (JVM settings)",
          "the client JVM's settings differ from what its timings need ("
          + String.join("; ", r.jvm().differences()) + "); its own pauses and compiling are in"
          + " these latencies (README, \"The JVM gatling:test runs in\", has the <jvmArgs> to"
          + " paste)"));
    }
    Finding worst = findings.get(0);
    for (Finding f : findings) {
      if (f.grade().ordinal() > worst.grade().ordinal()) {
        worst = f;
      }
    }
    List<String> warnings = new ArrayList<>();
    for (Grade g : new Grade[] {Grade.DISTORTED, Grade.FAIR}) {
      for (Finding f : findings) {
        if (f.grade() == g) {
          warnings.add(g.label() + ": " + f.warning());
        }
      }
    }
    boolean quiet = worst.grade() == Grade.GOOD || worst.grade() == Grade.NOT_GRADED;
    return new Grading(worst.grade(), quiet ? null : worst.cause(), worst.reason(), warnings);
  }

  /**
   * The loops' lag p99 against the run's typical gap and TTFT: a token read that waits for a
   * late loop is stamped late, which lengthens that gap (and a first token's TTFT) by the lag.
   */
  private static Finding loopLag(SelfCheckReport r) {
    SelfCheckReport.Latency lag = r.loopLag();
    RunFigures run = r.run();
    double p99 = lag.p99Ms();
    String amount = "event-loop lag p99 " + ms(p99) + " ms";
    if (lag.samples() < MIN_LAG_SAMPLES) {
      return new Finding(Grade.NOT_GRADED, null, "not enough to grade: " + lag.samples()
          + " loop-lag samples in a " + PyFormat.fixed(r.windowMs() / 1000, 2) + " s window", null);
    }
    if (run.known() && run.succeeded() == 0) {
      return new Finding(Grade.NOT_GRADED, null, "not enough to grade: no successful request"
          + " to compare the client's delay with (" + amount + ")", null);
    }
    String against = run.known() ? against(p99, run) : "";
    double share = run.known() ? lagShare(p99, run) : Double.NaN;
    Grade grade;
    if (p99 <= LAG_FLOOR_MS || share <= LAG_GOOD_SHARE) {
      grade = Grade.GOOD;
    } else if (Double.isNaN(share) || share <= LAG_DISTORTED_SHARE) {
      grade = Grade.FAIR; // no figures to compare with: said, not alarmed
    } else {
      grade = Grade.DISTORTED;
    }
    String cause = lagCause(r);
    String reason = amount + against + (grade == Grade.GOOD ? "" : "; " + causeWords(cause));
    String warning = grade == Grade.GOOD ? null
        : amount + ", max " + ms(lag.maxMs()) + " ms" + against + "; these latencies include up"
            + " to " + ms(p99) + " ms of client delay (p99)" + lagSplitSentence(r);
    return new Finding(grade, cause, reason, warning);
  }

  /** The largest share the lag is of the figures it enters: the typical gap and TTFT. */
  static double lagShare(double lagMs, RunFigures run) {
    double share = 0;
    if (run.itlP50Ms() > 0) {
      share = Math.max(share, lagMs / run.itlP50Ms());
    }
    double first = run.ttftP50Ms() > 0 ? run.ttftP50Ms() : run.e2elP50Ms();
    if (first > 0) {
      share = Math.max(share, lagMs / first);
    }
    return share == 0 ? Double.NaN : share;
  }

  /** ", 12 % of the run's ITL p50 (12.00 ms) and 2 % of its TTFT p50 (70.00 ms)". */
  private static String against(double lagMs, RunFigures run) {
    List<String> parts = new ArrayList<>(2);
    if (run.itlP50Ms() > 0) {
      parts.add(pct(lagMs / run.itlP50Ms()) + " of the run's ITL p50 (" + ms(run.itlP50Ms())
          + " ms)");
    }
    if (run.ttftP50Ms() > 0) {
      parts.add(pct(lagMs / run.ttftP50Ms()) + (parts.isEmpty() ? " of the run's" : " of its")
          + " TTFT p50 (" + ms(run.ttftP50Ms()) + " ms)");
    } else if (run.e2elP50Ms() > 0) {
      parts.add(pct(lagMs / run.e2elP50Ms()) + (parts.isEmpty() ? " of the run's" : " of its")
          + " E2EL p50 (" + ms(run.e2elP50Ms()) + " ms)");
    }
    return parts.isEmpty() ? "" : ", " + String.join(" and ", parts);
  }

  /**
   * Paced requests' lateness p99 against the mean gap between arrivals (the window over the
   * paced sends): late by a small share of a gap keeps the arrival process's shape.
   */
  private static Finding sendLateness(SelfCheckReport r) {
    SelfCheckReport.Latency late = r.sendLateness();
    if (late.samples() < MIN_SENDS) {
      return new Finding(Grade.GOOD, null, "", null);
    }
    double gap = r.windowMs() / late.samples();
    double share = late.p99Ms() / gap;
    Grade grade = late.p99Ms() <= LAG_FLOOR_MS || share <= SEND_GOOD_SHARE ? Grade.GOOD
        : share <= SEND_DISTORTED_SHARE ? Grade.FAIR : Grade.DISTORTED;
    if (grade == Grade.GOOD) {
      return new Finding(grade, null, "", null);
    }
    String cause = lagCause(r);
    String amount = "send lateness p99 " + ms(late.p99Ms()) + " ms, " + pct(share)
        + " of the mean gap between arrivals (" + ms(gap) + " ms)";
    return new Finding(grade, cause, amount + "; " + causeWords(cause), amount
        + "; paced requests went out later than their schedule, so the arrival process"
        + " sent was not the one asked for" + lagSplitSentence(r));
  }

  /**
   * A GC pause stops every loop: a latency measured across it includes it. Longer than
   * {@link SelfCheckReport#GC_PAUSE_WARN_MS} it shows in a latency's maximum (fair); when the
   * pauses also cover 1 % of the window they reach the p99, and longer than half the typical
   * gap or TTFT they move it (distorted).
   */
  private static Finding gc(SelfCheckReport r) {
    if (r.gcPauseMaxMs() <= SelfCheckReport.GC_PAUSE_WARN_MS) {
      return new Finding(Grade.GOOD, null, "", null);
    }
    double timeShare = r.windowMs() > 0 ? r.gcPauseTotalMs() / r.windowMs() : 0;
    double share = r.run().known() ? lagShare(r.gcPauseMaxMs(), r.run()) : Double.NaN;
    Grade grade = timeShare >= GC_DISTORTED_TIME_SHARE && share > LAG_DISTORTED_SHARE
        ? Grade.DISTORTED : Grade.FAIR;
    String pauses = r.gcPauses() + (r.gcPauses() == 1 ? " pause" : " pauses");
    String reason = "GC pauses of up to " + ms(r.gcPauseMaxMs()) + " ms (" + pauses + ", "
        + pct(timeShare) + " of the window)";
    return new Finding(grade, GC_PAUSES, reason, "the client JVM stopped for garbage collection"
        + " for up to " + ms(r.gcPauseMaxMs()) + " ms (" + pauses + ", " + ms(r.gcPauseTotalMs())
        + " ms in total); a latency measured across a pause includes it");
  }

  /**
   * What the lag measured went to: GC pauses when they account for most of it, else the
   * largest part of the loops' split; {@value #NOT_MEASURED} without a split.
   */
  static String lagCause(SelfCheckReport r) {
    SelfCheckReport.LagSplit s = r.lagSplit();
    if (r.gcPauseTotalMs() > 0 && s.lagMs() > 0 && r.gcPauseTotalMs() >= 0.5 * s.lagMs()) {
      return GC_PAUSES;
    }
    if (!s.measured() || s.lagMs() <= 0) {
      return NOT_MEASURED;
    }
    if (s.runningMs() >= s.waitingForCpuMs() && s.runningMs() >= s.notRunnableMs()) {
      return RUNNING;
    }
    return s.waitingForCpuMs() >= s.notRunnableMs() ? WAITING_FOR_CPU : NOT_RUNNABLE;
  }

  /** A cause word as a reader takes it. */
  static String causeWords(String cause) {
    return switch (cause) {
      case RUNNING -> "mostly running: the client's own load";
      case WAITING_FOR_CPU -> "mostly waiting for a CPU: other processes on the client's cores";
      case NOT_RUNNABLE -> "mostly not runnable: a call blocking a loop, or the OS or"
          + " hypervisor waking it late";
      case GC_PAUSES -> "mostly GC pauses of the client JVM";
      case CPU -> "the client's own load";
      case JVM_SETTINGS -> "the client JVM's settings";
      default -> "cause not measured on this platform";
    };
  }

  /**
   * What the loops did while late, for the warnings: running is the client's load; waiting
   * for a CPU is other work on its cores; not runnable is a call blocking a loop or a late
   * wake-up by the OS or hypervisor, which on a virtual machine whose idle cores halt is the
   * host's doing. Empty when the split was not measured or saw no such lag.
   */
  private static String lagSplitSentence(SelfCheckReport r) {
    SelfCheckReport.LagSplit s = r.lagSplit();
    if (!s.measured() || s.lagMs() <= 0) {
      return "";
    }
    return "; of the loops' lag over " + PyFormat.fixed(s.overMs(), 0) + " ms ("
        + ms(s.lagMs()) + " ms in all), " + s.percent(s.runningMs())
        + " % was spent running, " + s.percent(s.waitingForCpuMs())
        + " % waiting for a CPU and " + s.percent(s.notRunnableMs())
        + " % not runnable (blocked in a call on the loop, or asleep and woken late by the OS"
        + " or hypervisor)";
  }

  private static String pct(double share) {
    return Math.round(100 * share) + " %";
  }

  private static String ms(double value) {
    return PyFormat.fixed(value, 2);
  }
}
