package dev.gatlingllm.report;

import dev.gatlingllm.metrics.BenchmarkMetrics;
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
 */
public record ReportOutcome(BenchmarkMetrics metrics, Path resultFile, Path pytorchFile,
    String summary, String error) {

  /** True when every step succeeded. */
  public boolean ok() {
    return error == null;
  }
}
