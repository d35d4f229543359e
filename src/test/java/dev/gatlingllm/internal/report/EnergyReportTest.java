package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gatlingllm.internal.servermetrics.GpuSeries;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The figures per output token and the summary's section, on values worked out by hand. */
class EnergyReportTest {

  private static Map<String, Object> energy(Double joules) {
    Map<String, Object> gpu = new LinkedHashMap<>();
    gpu.put("endpoint", "http://n:9400/metrics");
    gpu.put("gpu", "0");
    gpu.put("hostname", "n");
    gpu.put("energy_j", joules);
    gpu.put("avg_power_w", 412.5);
    gpu.put("peak_power_w", 530.0);
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("gpu_count", 1);
    e.put("window_s", 12.0);
    e.put("interval_s", 1.0);
    e.put("energy_j", joules);
    e.put("avg_power_w", 412.5);
    e.put("warnings", List.of());
    e.put("gpus", List.of(gpu));
    return e;
  }

  @Test
  void joulesPerTokenAndTokensPerJouleComeRightAfterTheEnergy() {
    // 4950 J over 12 000 output tokens: 0.4125 J/tok, 2.424242... tok/J
    Map<String, Object> out = EnergyReport.withTokens(energy(4950.0), 12_000);
    assertEquals(0.4125, (Double) out.get("joules_per_output_token"), 1e-12);
    assertEquals(12_000 / 4950.0, (Double) out.get("output_tokens_per_joule"), 1e-12);
    assertEquals(List.of("gpu_count", "window_s", "interval_s", "energy_j",
        "joules_per_output_token", "output_tokens_per_joule", "avg_power_w", "warnings",
        "gpus"), new ArrayList<>(out.keySet()));
    // again (a recovered run's object already has them): the same, once
    assertEquals(out, EnergyReport.withTokens(out, 12_000));
  }

  @Test
  void noEnergyOrNoTokenGivesNullFigures() {
    Map<String, Object> none = EnergyReport.withTokens(energy(null), 100);
    assertNull(none.get("joules_per_output_token"));
    assertNull(none.get("output_tokens_per_joule"));
    Map<String, Object> noTokens = EnergyReport.withTokens(energy(10.0), 0);
    assertNull(noTokens.get("joules_per_output_token"));
    assertNull(noTokens.get("output_tokens_per_joule"));
  }

  @Test
  void theSummarySectionIsPrintedAsVllmPrintsItsOwn() {
    Map<String, Object> e = EnergyReport.withTokens(energy(4950.0), 12_000);
    String expected = ""
        + "=================== GPU Energy ===================\n"
        + "GPUs:                                    1         \n"
        + "Energy window (s):                       12.00     \n"
        + "Total GPU energy (J):                    4950.00   \n"
        + "Energy per output token (J/tok):         0.4125    \n"
        + "Output tokens per joule (tok/J):         2.42      \n"
        + "Average GPU power, all GPUs (W):         412.50    \n"
        + "--------------------- GPU 0 ----------------------\n"
        + "Energy (J):                              4950.00   \n"
        + "Average power (W):                       412.50    \n"
        + "Peak power (W):                          530.00    \n"
        + "==================================================\n";
    assertEquals(expected, EnergyReport.console(e));
    assertEquals("", EnergyReport.console(null));
  }

  @Test
  void theKeyIsTheOneTheRunWrites() {
    assertEquals(GpuSeries.KEY, EnergyReport.KEY);
  }
}
