package dev.gatlingllm.internal.scale;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an injector writes into its record log (the {@value ScaleOut#INJECTOR_KEY} key of its
 * run settings) so that the merge can check and place its requests.
 *
 * @param share            which share it sent
 * @param settingsHash     hash of the whole benchmark's settings, the same on every injector
 *                         of one benchmark (see {@code RunSetup}); the merge refuses logs
 *                         whose hashes differ
 * @param startAt          the common start, when one was given; null otherwise
 * @param clock            its clock's offset against the reference clock
 * @param anchorNanoTime   a {@link System#nanoTime()} reading ...
 * @param anchorEpochNanos ... and the local wall clock (epoch ns) at the same moment: together
 *                         they turn the records' {@code nanoTime} stamps into wall-clock times
 */
public record InjectorFacts(InjectorShare share, String settingsHash, Instant startAt,
    ClockOffset clock, long anchorNanoTime, long anchorEpochNanos) {

  /**
   * The shift that turns this injector's {@code nanoTime} stamps into nanoseconds since the
   * epoch on the reference clock.
   */
  public long toReferenceEpoch() {
    return anchorEpochNanos - anchorNanoTime + clock.offsetNanos();
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("index", share.index());
    m.put("count", share.count());
    m.put("settings_hash", settingsHash);
    m.put("start_at", startAt == null ? null : startAt.toString());
    m.put("clock", clock.toJson());
    m.put("anchor_nano_time", anchorNanoTime);
    m.put("anchor_epoch_nanos", anchorEpochNanos);
    return m;
  }

  /**
   * Reads {@link #toJson()}.
   *
   * @throws IllegalArgumentException when a key is missing or malformed
   */
  public static InjectorFacts fromJson(Map<?, ?> m) {
    try {
      Object start = m.get("start_at");
      return new InjectorFacts(
          new InjectorShare(((Number) m.get("index")).intValue(),
              ((Number) m.get("count")).intValue()),
          (String) m.get("settings_hash"),
          start == null ? null : Instant.parse((String) start),
          ClockOffset.fromJson((Map<?, ?>) m.get("clock")),
          ((Number) m.get("anchor_nano_time")).longValue(),
          ((Number) m.get("anchor_epoch_nanos")).longValue());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("the injector facts " + m + " cannot be read: " + e, e);
    }
  }
}
