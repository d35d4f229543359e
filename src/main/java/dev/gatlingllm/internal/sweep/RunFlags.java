package dev.gatlingllm.internal.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Why a run's figures may not mean what they seem to: its client warned about itself (a
 * starved or paused client inflates every latency, which reads as a server regression), its
 * server was past saturation (the latencies grow with the run's length, not with the load),
 * or requests failed (the figures are over the others only). Read from the run's result JSON;
 * the sweep writes them into the run's record under {@value #KEY}, and its table, charts and
 * console show them.
 */
final class RunFlags {

  /** Record key: the run's flags, each a short name, a colon and the reason. */
  static final String KEY = "sweep_flags";
  static final String CLIENT = "client";
  static final String SATURATED = "over-saturated";
  static final String FAILED = "failed requests";

  private RunFlags() {}

  /** The flags of a result JSON; empty when nothing is suspect. */
  static List<String> of(Map<String, Object> result) {
    List<String> flags = new ArrayList<>();
    // only a distorted client: a fair one's figures hold within a tolerable share (a result
    // of a version before the grades has none, and its warnings meant distorted)
    if (result.get("client_self_check") instanceof Map<?, ?> check
        && check.get("warnings") instanceof List<?> warnings && !warnings.isEmpty()
        && (!check.containsKey("grade") || "distorted".equals(check.get("grade")))) {
      flags.add(CLIENT + ": " + warnings.get(0)
          + (warnings.size() > 1 ? " (and " + (warnings.size() - 1) + " more)" : ""));
    }
    if (result.get("over_saturation") instanceof Map<?, ?> o
        && Boolean.TRUE.equals(o.get("detected"))) {
      flags.add(SATURATED + ": in flight and TTFT grew while completions stayed flat"
          + (o.get("since_s") instanceof Number since ? String.format(java.util.Locale.ROOT,
          " from %.1f s", since.doubleValue()) : "")
          + "; its latencies grow with the run's length");
    }
    double failed = SweepData.number(result, "failed");
    if (failed > 0) {
      flags.add(FAILED + ": " + (long) failed + " of "
          + (long) (failed + Math.max(0, SweepData.number(result, "completed")))
          + " requests failed; the figures are over the others");
    }
    return flags;
  }

  /** A record's flags as the sweep wrote them (none for a record of an older sweep). */
  static List<String> in(Map<String, Object> record) {
    if (record.get(KEY) instanceof List<?> list) {
      return list.stream().map(String::valueOf).toList();
    }
    return List.of();
  }

  /** The short names of flags ({@code client}, {@code over-saturated}, ...). */
  static List<String> names(List<String> flags) {
    return flags.stream().map(f -> f.contains(":") ? f.substring(0, f.indexOf(':')) : f)
        .distinct().toList();
  }
}
