package dev.gatlingllm.sweep;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a sweep left behind.
 *
 * @param folder   the sweep's folder ({@code <output dir>/<timestamp>})
 * @param records  every run's result with its parameters, in run order (empty after a dry run)
 * @param answers  the SLA searches' answers ({@code serve_sla}), else empty
 * @param failures the combinations that failed, each with the reason; empty when all ran
 */
public record SweepOutcome(Path folder, List<Map<String, Object>> records,
    List<SlaAnswer> answers, List<String> failures) {

  /**
   * One SLA search's answer.
   *
   * @param point    the combination's folder name ({@code SERVE-...-BENCH-...})
   * @param sla      the constraints, as vLLM writes them ({@code p99_e2el_ms<=500.00})
   * @param variable {@code request_rate} or {@code max_concurrency}
   * @param value    the largest value that met the SLA; 0 when none did
   * @param capped   whether the SLA held up to the value that stands for unlimited
   * @param tested   every value run, in order, with whether it met the SLA
   */
  public record SlaAnswer(String point, String sla, String variable, int value, boolean capped,
      List<Map<String, Object>> tested) {}
}
