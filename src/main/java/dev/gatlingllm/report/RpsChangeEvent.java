package dev.gatlingllm.report;

import java.util.Objects;

/**
 * One step of a ramped request rate, as vLLM logs it in {@code rps_change_events}: the new
 * whole requests-per-second value and when it was reached (local ISO date-time).
 */
public record RpsChangeEvent(int rps, String timestamp) {

  public RpsChangeEvent {
    Objects.requireNonNull(timestamp, "timestamp");
  }
}
