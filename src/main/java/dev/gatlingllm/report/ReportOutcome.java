package dev.gatlingllm.report;

import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.report.ReportAccess;
import dev.gatlingllm.internal.report.RunReporter;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What {@link RunReporter} produced. It never throws; a step that failed leaves its parts
 * null and says why in {@link #error()}. The computed metrics are the plugin's own (an
 * internal type): package-private, read by the run's code through {@link ReportAccess}.
 */
public final class ReportOutcome {

  static {
    // the reporter makes outcomes, and the run's verdict reads their metrics, through this door
    ReportAccess.install(new ReportAccess.Hooks() {
      @Override
      public ReportOutcome outcome(BenchmarkMetrics metrics, Path resultFile, Path pytorchFile,
          String summary, String error) {
        return new ReportOutcome(metrics, resultFile, pytorchFile, summary, error, null);
      }

      @Override
      public BenchmarkMetrics metrics(ReportOutcome outcome) {
        return outcome.metrics;
      }
    });
  }

  private final BenchmarkMetrics metrics;
  private final Path resultFile;
  private final Path pytorchFile;
  private final String summary;
  private final String error;
  private final Path htmlReport;

  private ReportOutcome(BenchmarkMetrics metrics, Path resultFile, Path pytorchFile,
      String summary, String error, Path htmlReport) {
    this.metrics = metrics;
    this.resultFile = resultFile;
    this.pytorchFile = pytorchFile;
    this.summary = summary;
    this.error = error;
    this.htmlReport = htmlReport;
  }

  /** The result JSON written; null when saving was off or failed. */
  public Path resultFile() {
    return resultFile;
  }

  /** The pytorch-format file written; null when not asked, empty or failed. */
  public Path pytorchFile() {
    return pytorchFile;
  }

  /** The console summary text; null when the metrics are missing. */
  public String summary() {
    return summary;
  }

  /** What went wrong (already logged); null when every step succeeded. */
  public String error() {
    return error;
  }

  /**
   * The LLM report written ({@code llm-report.html}); null when off or failed (a failed
   * report is logged but does not fail the outcome).
   */
  public Path htmlReport() {
    return htmlReport;
  }

  /** This outcome with the HTML report that was written. */
  public ReportOutcome withHtmlReport(Path report) {
    return new ReportOutcome(metrics, resultFile, pytorchFile, summary, error, report);
  }

  /** This outcome with a line added to its console summary (when it has one). */
  public ReportOutcome withSummaryLine(String line) {
    return summary == null ? this
        : new ReportOutcome(metrics, resultFile, pytorchFile, summary + line + "\n", error,
            htmlReport);
  }

  /** True when every step succeeded. */
  public boolean ok() {
    return error == null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReportOutcome r && Objects.equals(metrics, r.metrics)
        && Objects.equals(resultFile, r.resultFile) && Objects.equals(pytorchFile, r.pytorchFile)
        && Objects.equals(summary, r.summary) && Objects.equals(error, r.error)
        && Objects.equals(htmlReport, r.htmlReport);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metrics, resultFile, pytorchFile, summary, error, htmlReport);
  }

  @Override
  public String toString() {
    return "ReportOutcome[resultFile=" + resultFile + ", pytorchFile=" + pytorchFile
        + ", htmlReport=" + htmlReport + ", error=" + error + "]";
  }
}
