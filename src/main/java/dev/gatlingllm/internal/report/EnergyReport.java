package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.metrics.TaskType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GPUs' energy over the run ({@code --gpu-metrics-url}): the figures per output token
 * added to the result JSON's {@value #KEY} object, which the run wrote with the energy alone
 * ({@code internal.servermetrics.GpuSeries}), and its section of the summary. The summary is
 * rendered from the object, so a recovered run prints what the run printed.
 */
final class EnergyReport {

  /** The result JSON's key. */
  static final String KEY = "gpu_energy";

  private EnergyReport() {}

  /**
   * {@code run} with {@code joules_per_output_token} and {@code output_tokens_per_joule} in its
   * {@value #KEY} object, from the run's output tokens (vLLM's {@code total_output_tokens});
   * unchanged when it has no such object. A figure that cannot be had (no energy, no output
   * token, a run that generates none) is null.
   */
  static RunInfo withTokens(RunInfo run, BenchmarkMetrics m) {
    if (!(run.extras().get(KEY) instanceof Map<?, ?> energy)) {
      return run;
    }
    long tokens = m.taskType() == TaskType.GENERATION ? m.totalOutput() : 0;
    return run.toBuilder().extra(KEY, withTokens(energy, tokens)).build();
  }

  /** The object with the two figures per token put right after {@code energy_j}. */
  static Map<String, Object> withTokens(Map<?, ?> energy, long outputTokens) {
    Double joules = energy.get("energy_j") instanceof Number n ? n.doubleValue() : null;
    boolean both = joules != null && joules > 0 && outputTokens > 0;
    Map<String, Object> out = new LinkedHashMap<>();
    energy.forEach((k, v) -> {
      String key = k.toString();
      if (key.equals("joules_per_output_token") || key.equals("output_tokens_per_joule")) {
        return;
      }
      out.put(key, v);
      if (key.equals("energy_j")) {
        out.put("joules_per_output_token", both ? joules / outputTokens : null);
        out.put("output_tokens_per_joule", both ? outputTokens / joules : null);
      }
    });
    return out;
  }

  /** The summary's section, after vLLM's block; empty when no GPU was scraped. */
  static String console(Object gpuEnergy) {
    if (!(gpuEnergy instanceof Map<?, ?> e)) {
      return "";
    }
    StringBuilder out = new StringBuilder(512);
    out.append(PyFormat.center(" GPU Energy ", 50, '=')).append('\n');
    line(out, "GPUs:", count(e.get("gpu_count")));
    line(out, "Energy window (s):", fixed(e.get("window_s")));
    line(out, "Total GPU energy (J):", fixed(e.get("energy_j")));
    line(out, "Energy per output token (J/tok):", fixed(e.get("joules_per_output_token"), 4));
    line(out, "Output tokens per joule (tok/J):", fixed(e.get("output_tokens_per_joule")));
    line(out, "Average GPU power, all GPUs (W):", fixed(e.get("avg_power_w")));
    if (e.get("gpus") instanceof List<?> gpus) {
      boolean hosts = gpus.stream().map(g -> g instanceof Map<?, ?> m ? m.get("hostname") : null)
          .distinct().count() > 1;
      for (Object g : gpus) {
        if (g instanceof Map<?, ?> gpu) {
          String name = "GPU " + (hosts ? gpu.get("hostname") + "/" : "")
              + (gpu.get("gpu") != null ? gpu.get("gpu") : "?");
          out.append(PyFormat.center(" " + name + " ", 50, '-')).append('\n');
          line(out, "Energy (J):", fixed(gpu.get("energy_j")));
          line(out, "Average power (W):", fixed(gpu.get("avg_power_w")));
          line(out, "Peak power (W):", fixed(gpu.get("peak_power_w")));
        }
      }
    }
    if (e.get("warnings") instanceof List<?> warnings) {
      for (Object w : warnings) {
        out.append("Warning: ").append(w).append('\n');
      }
    }
    out.append("=".repeat(50)).append('\n');
    return out.toString();
  }

  private static String fixed(Object value) {
    return fixed(value, 2);
  }

  private static String fixed(Object value, int decimals) {
    return value instanceof Number n ? PyFormat.fixed(n.doubleValue(), decimals) : "n/a";
  }

  private static String count(Object value) {
    return value instanceof Number n ? Long.toString(n.longValue()) : "0";
  }

  /** {@code "{:<40} {:<10}"}. */
  private static void line(StringBuilder out, String label, String value) {
    out.append(PyFormat.left(label, 40)).append(' ').append(PyFormat.left(value, 10))
        .append('\n');
  }
}
