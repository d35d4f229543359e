package dev.gatlingllm.internal.arrival;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.arrival.ArrivalTrace;
import dev.gatlingllm.arrival.RampUpStrategy;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The computed arrival times of one run: request {@code i} is due {@code offsetNanos(i)}
 * after the start, offsets never decrease. Computed like vLLM's {@code get_request}: per
 * request a rate {@code r_i}, a gap drawn from Gamma(burstiness, 1 / (r_i * burstiness)),
 * arrivals at the cumulative sums of the gaps (so the first request is also one gap after
 * the start), and without a ramp every arrival scaled by {@code (N / rate) / sum} so the last
 * one is exactly at {@code N / rate}. Immutable.
 */
public final class ArrivalSchedule {

  private static final DateTimeFormatter PYTHON_ISO_SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

  private final long[] offsetsNanos;
  /** Per-request rate when it varies (ramps); null when constant. */
  private final double[] rates;
  private final double constantRate;
  private final List<RpsChangeEvent> rpsChangeEvents;

  private ArrivalSchedule(long[] offsetsNanos, double[] rates, double constantRate,
      List<RpsChangeEvent> rpsChangeEvents) {
    this.offsetsNanos = offsetsNanos;
    this.rates = rates;
    this.constantRate = constantRate;
    this.rpsChangeEvents = Collections.unmodifiableList(rpsChangeEvents);
  }

  public static ArrivalSchedule compute(ArrivalProfile profile) {
    if (profile.replayTrace().isPresent()) {
      return replay(profile.replayTrace().get(), profile.numPrompts(), profile.replayTimeScale());
    }
    return sample(profile);
  }

  private static ArrivalSchedule replay(ArrivalTrace trace, int count, double timeScale) {
    long[] offsets = new long[count];
    for (int i = 0; i < count; i++) {
      long recorded = trace.offsetNanos(i);
      offsets[i] = timeScale == 1.0 ? recorded : Math.round(recorded * timeScale);
    }
    return new ArrivalSchedule(offsets, null, Double.NaN, List.of());
  }

  private static ArrivalSchedule sample(ArrivalProfile profile) {
    int n = profile.numPrompts();
    double burstiness = profile.burstiness();
    RampUpStrategy ramp = profile.rampUpStrategy().orElse(null);
    int startRps = profile.rampUpStartRps().orElse(0);
    int endRps = profile.rampUpEndRps().orElse(0);
    GammaSampler sampler = new GammaSampler(profile.seed());

    double[] rates = ramp == null ? null : new double[n];
    double[] arrivals = new double[n];
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
      double rate = ramp == null ? profile.requestRate() : ramp.rateAt(startRps, endRps, i, n);
      if (rates != null) {
        rates[i] = rate;
      }
      // A rate of 0 only happens for the first request of a linear ramp from 0, where vLLM
      // would divide by zero; that request goes out at the start instead.
      if (rate != Double.POSITIVE_INFINITY && rate > 0) {
        sum += sampler.next(burstiness, 1.0 / (rate * burstiness));
      }
      arrivals[i] = sum;
    }
    if (ramp == null && sum != 0.0) {
      double factor = (n / profile.requestRate()) / sum;
      for (int i = 0; i < n; i++) {
        arrivals[i] *= factor;
      }
    }
    long[] offsets = new long[n];
    for (int i = 0; i < n; i++) {
      offsets[i] = Math.round(arrivals[i] * 1e9);
    }
    List<RpsChangeEvent> events =
        ramp == null ? List.of() : rpsChangeEvents(startRps, rates, offsets);
    return new ArrivalSchedule(offsets, rates, profile.requestRate(), events);
  }

  /** vLLM: the start rate at time 0, then every integer level the truncated rate passes. */
  private static List<RpsChangeEvent> rpsChangeEvents(int startRps, double[] rates,
      long[] offsets) {
    List<RpsChangeEvent> events = new ArrayList<>();
    events.add(new RpsChangeEvent(startRps, 0L));
    int last = startRps;
    for (int i = 0; i < rates.length; i++) {
      int current = (int) rates[i];
      if (current > last) {
        for (int rps = last + 1; rps <= current; rps++) {
          events.add(new RpsChangeEvent(rps, offsets[i]));
        }
        last = current;
      }
    }
    return events;
  }

  /**
   * The arrivals {@code i} with {@code i mod count == index}, at their offsets in this schedule
   * (from the same start), in order: one injector's share of a benchmark split over
   * {@code count} injectors. The rate steps stay the whole schedule's.
   *
   * @throws IllegalArgumentException when {@code index} is not in {@code 0..count-1}
   */
  public ArrivalSchedule share(int index, int count) {
    if (count < 1 || index < 0 || index >= count) {
      throw new IllegalArgumentException("share " + index + "/" + count + ": the index must be "
          + "in 0.." + (count - 1));
    }
    if (count == 1) {
      return this;
    }
    int n = offsetsNanos.length;
    int size = n <= index ? 0 : (n - index - 1) / count + 1;
    long[] offsets = new long[size];
    double[] shareRates = rates == null ? null : new double[size];
    for (int j = 0; j < size; j++) {
      offsets[j] = offsetsNanos[index + j * count];
      if (shareRates != null) {
        shareRates[j] = rates[index + j * count];
      }
    }
    return new ArrivalSchedule(offsets, shareRates, constantRate, rpsChangeEvents);
  }

  /** Number of arrivals. */
  public int size() {
    return offsetsNanos.length;
  }

  /** When request {@code i} is due, in nanoseconds after the start. */
  public long offsetNanos(int i) {
    return offsetsNanos[i];
  }

  /** A copy of all offsets, in request order. */
  public long[] offsetsNanos() {
    return offsetsNanos.clone();
  }

  /** The last arrival's offset: the span of the schedule. */
  public long lastOffsetNanos() {
    return offsetsNanos[offsetsNanos.length - 1];
  }

  /**
   * The rate request {@code i} was sampled at (req/s): the ramp's rate for that request, the
   * constant rate otherwise, {@link Double#POSITIVE_INFINITY} when all go at once,
   * {@link Double#NaN} for a replay.
   */
  public double rate(int i) {
    Objects.checkIndex(i, offsetsNanos.length);
    return rates == null ? constantRate : rates[i];
  }

  /** vLLM's {@code rps_change_events} with offsets instead of wall-clock times; empty without a ramp. */
  public List<RpsChangeEvent> rpsChangeEvents() {
    return rpsChangeEvents;
  }

  /**
   * {@code rps_change_events} as vLLM writes them: {@code {"rps": int, "timestamp": str}} with
   * the local wall-clock time in Python's {@code datetime.isoformat()} form
   * ({@code 2025-01-31T14:05:09.123456}, no fraction when it is zero).
   *
   * @param start the wall-clock instant of offset 0 (see {@link ArrivalClock#startInstant()})
   * @param zone  the zone to render local times in (vLLM uses the machine's)
   */
  public List<Map<String, Object>> rpsChangeEventsJson(Instant start, ZoneId zone) {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(zone, "zone");
    List<Map<String, Object>> json = new ArrayList<>(rpsChangeEvents.size());
    for (RpsChangeEvent event : rpsChangeEvents) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("rps", event.rps());
      entry.put("timestamp", pythonIso(start.plusNanos(event.offsetNanos()), zone));
      json.add(entry);
    }
    return Collections.unmodifiableList(json);
  }

  static String pythonIso(Instant instant, ZoneId zone) {
    LocalDateTime local = LocalDateTime.ofInstant(instant.truncatedTo(ChronoUnit.MICROS), zone);
    int micros = local.getNano() / 1_000;
    String seconds = PYTHON_ISO_SECONDS.format(local);
    return micros == 0 ? seconds : seconds + String.format(Locale.ROOT, ".%06d", micros);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrivalSchedule other
        && Arrays.equals(offsetsNanos, other.offsetsNanos)
        && Arrays.equals(rates, other.rates)
        && Double.compare(constantRate, other.constantRate) == 0;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(offsetsNanos);
  }

  @Override
  public String toString() {
    return "ArrivalSchedule[" + offsetsNanos.length + " arrivals over "
        + lastOffsetNanos() / 1e9 + " s]";
  }
}
