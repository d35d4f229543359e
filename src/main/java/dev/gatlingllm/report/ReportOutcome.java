package dev.gatlingllm.report;

import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.report.RunReporter;
import java.nio.file.Path;

/**
 * What {@link RunReporter} produced. It never throws; a step that failed leaves its parts
 * null and says why in {@link #error()}.
 *
 * @param metrics     the computed metrics; null when they could not be computed
 * @param resultFile  the result JSON written; null when saving was off or failed
 * @param pytorchFile the pytorch-format file written; null when not asked, empty or failed
 * @param summary     the console summary text; null when the metrics are missing
 * @param error       what went wrong (already logged); null when every step succeeded
 * @param htmlReport  the LLM report written ({@code llm-report.html}); null when off or failed
 *                    (a failed report is logged but does not fail the outcome)
 */
public record ReportOutcome(BenchmarkMetrics metrics, Path resultFile, Path pytorchFile,
    String summary, String error, Path htmlReport) {

  /** An outcome without an HTML report. */
  public ReportOutcome(BenchmarkMetrics metrics, Path resultFile, Path pytorchFile,
      String summary, String error) {
    this(metrics, resultFile, pytorchFile, summary, error, null);
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
}
