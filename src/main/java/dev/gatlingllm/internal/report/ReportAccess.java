package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.report.ReportOutcome;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The run's door into {@link ReportOutcome}: an outcome is made with, and read for, its
 * computed metrics ({@link BenchmarkMetrics}, an internal type), which users never hold, so
 * {@code ReportOutcome} keeps them package-private. The JDK's "shared secrets":
 * {@code ReportOutcome}'s static initializer installs the {@link Hooks}.
 */
public final class ReportAccess {

  /** What {@code dev.gatlingllm.report} lends, implemented there. */
  public interface Hooks {

    /** An outcome without an HTML report. */
    ReportOutcome outcome(BenchmarkMetrics metrics, Path resultFile, Path pytorchFile,
        String summary, String error);

    /** Its computed metrics; null when they could not be computed. */
    BenchmarkMetrics metrics(ReportOutcome outcome);
  }

  private static volatile Hooks lent;

  private ReportAccess() {}

  /**
   * Called once, by {@code ReportOutcome}.
   *
   * @throws IllegalStateException on a second call
   */
  public static void install(Hooks hooks) {
    if (lent != null) {
      throw new IllegalStateException("the report outcome's hooks are installed already");
    }
    lent = Objects.requireNonNull(hooks, "hooks");
  }

  private static Hooks lent() {
    if (lent == null) {
      // the first outcome of the JVM: loading ReportOutcome installs the hooks
      try {
        Class.forName(ReportOutcome.class.getName(), true, ReportOutcome.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
    return lent;
  }

  /**
   * What a report produced, without an HTML report (see {@link ReportOutcome#withHtmlReport}).
   *
   * @param metrics     the computed metrics; null when they could not be computed
   * @param resultFile  the result JSON written; null when saving was off or failed
   * @param pytorchFile the pytorch-format file written; null when not asked, empty or failed
   * @param summary     the console summary text; null when the metrics are missing
   * @param error       what went wrong (already logged); null when every step succeeded
   */
  public static ReportOutcome outcome(BenchmarkMetrics metrics, Path resultFile,
      Path pytorchFile, String summary, String error) {
    return lent().outcome(metrics, resultFile, pytorchFile, summary, error);
  }

  /** A report that failed before anything was written. */
  public static ReportOutcome failed(String error) {
    return outcome(null, null, null, null, Objects.requireNonNull(error, "error"));
  }

  /** The outcome's computed metrics; null when they could not be computed. */
  public static BenchmarkMetrics metrics(ReportOutcome outcome) {
    return lent().metrics(outcome);
  }
}
