package dev.gatlingllm.internal.scale;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How far this injector's wall clock is from the reference clock the injectors agree on:
 * {@code reference time = local time + offsetNanos}, known to within
 * {@code ±uncertaintyNanos}. The merge places every injector's requests on the reference
 * clock with it.
 *
 * @param source           {@code date-header} (measured against the target server's
 *                         {@code Date} header, see {@link DateHeaderClock}), {@code local}
 *                         (the injector's own clock is trusted, for example NTP-synchronised
 *                         nodes) or {@code given} (set by the user)
 * @param offsetNanos      reference minus local clock
 * @param uncertaintyNanos half the width of the interval the offset is known to lie in; -1
 *                         when unknown (the local clock trusted without a measurement)
 * @param probes           requests the measurement took; 0 when none
 */
public record ClockOffset(String source, long offsetNanos, long uncertaintyNanos, int probes) {

  /** The local clock, trusted: offset 0, uncertainty unknown. */
  public static ClockOffset local() {
    return new ClockOffset("local", 0, -1, 0);
  }

  /** An offset the user measured another way, taken as exact. */
  public static ClockOffset given(long offsetNanos) {
    return new ClockOffset("given", offsetNanos, 0, 0);
  }

  /** As written into the record log (milliseconds with nanosecond digits). */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("source", source);
    m.put("offset_nanos", offsetNanos);
    m.put("uncertainty_nanos", uncertaintyNanos);
    m.put("probes", probes);
    return m;
  }

  /** Reads {@link #toJson()}. */
  public static ClockOffset fromJson(Map<?, ?> json) {
    return new ClockOffset((String) json.get("source"),
        ((Number) json.get("offset_nanos")).longValue(),
        ((Number) json.get("uncertainty_nanos")).longValue(),
        ((Number) json.get("probes")).intValue());
  }

  /** {@code +1.234 ms ± 0.500 ms (date-header, 9 probes)}. */
  public String describe() {
    String unc = uncertaintyNanos < 0 ? "± unknown" : String.format(java.util.Locale.ROOT,
        "± %.3f ms", uncertaintyNanos / 1e6);
    return String.format(java.util.Locale.ROOT, "%+.3f ms %s (%s%s)", offsetNanos / 1e6, unc,
        source, probes > 0 ? ", " + probes + " probes" : "");
  }
}
