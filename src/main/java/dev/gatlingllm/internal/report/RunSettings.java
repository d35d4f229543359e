package dev.gatlingllm.internal.report;

import dev.gatlingllm.options.ResultOptions;
import java.time.LocalDateTime;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Everything besides the records that the result JSON and the console summary are computed
 * from: what was run, how it is reported, when the benchmark clock started and the time that
 * dates the result. The record log stores it (its header, then every change, then the final
 * one in its end marker), so a run can be reported again from the log alone.
 *
 * @param run                 what was run
 * @param options             how it is reported
 * @param benchmarkStartNanos {@link System#nanoTime()} just before the first request was
 *                            dispatched; empty when not captured (the duration then runs from
 *                            the earliest scheduled arrival)
 * @param reportTime          the result's {@code date} and the date in its default file name;
 *                            seconds are its finest unit
 */
public record RunSettings(RunInfo run, ResultOptions options, OptionalLong benchmarkStartNanos,
    LocalDateTime reportTime) {

  public RunSettings {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(benchmarkStartNanos, "benchmarkStartNanos");
    reportTime = Objects.requireNonNull(reportTime, "reportTime").withNano(0);
  }

  /** Settings dated now; {@code benchmarkStartNanos < 0} means not captured. */
  public static RunSettings of(RunInfo run, ResultOptions options, long benchmarkStartNanos) {
    return new RunSettings(run, options, benchmarkStartNanos < 0 ? OptionalLong.empty()
        : OptionalLong.of(benchmarkStartNanos), LocalDateTime.now());
  }

  /** These settings with other report options. */
  public RunSettings withOptions(ResultOptions other) {
    return new RunSettings(run, other, benchmarkStartNanos, reportTime);
  }

  /** These settings with another run description. */
  public RunSettings withRun(RunInfo other) {
    return new RunSettings(other, options, benchmarkStartNanos, reportTime);
  }

  /** These settings dated {@code time}. */
  public RunSettings at(LocalDateTime time) {
    return new RunSettings(run, options, benchmarkStartNanos, time);
  }
}
