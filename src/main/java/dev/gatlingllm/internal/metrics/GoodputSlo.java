package dev.gatlingllm.internal.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Service level objectives for goodput, in milliseconds, as vLLM's {@code --goodput} takes
 * them: a completed request is good when every configured bound holds ({@code ttft <= slo},
 * {@code tpot <= slo} where a one-token output counts as tpot 0, {@code e2el <= slo}).
 * Immutable and thread-safe; {@link #isGood} can be called per request during the run and
 * agrees with the after-run goodput count when given the same output length (the plugin's
 * run-time rows and its result file both take it from {@code protocol.OutputTokens}).
 */
public final class GoodputSlo {

  /** The only SLO names vLLM accepts, in its order. */
  public static final List<String> VALID_NAMES = List.of("ttft", "tpot", "e2el");

  private static final GoodputSlo NONE = new GoodputSlo(new LinkedHashMap<>());
  private static final Pattern NUMBER = Pattern.compile(
      "[+-]?(\\d[\\d_]*(\\.[\\d_]*)?|\\.\\d[\\d_]*)([eE][+-]?\\d+)?");
  private static final Pattern INFINITY = Pattern.compile("[+-]?(inf|infinity)",
      Pattern.CASE_INSENSITIVE);

  private final Map<String, Double> slosMs;
  // Bounds in seconds, compared as vLLM compares them (slo_ms / 1000 >= value_s).
  private final double ttftS;
  private final double tpotS;
  private final double e2elS;

  private GoodputSlo(LinkedHashMap<String, Double> slosMs) {
    this.slosMs = Collections.unmodifiableMap(slosMs);
    this.ttftS = bound(slosMs, "ttft");
    this.tpotS = bound(slosMs, "tpot");
    this.e2elS = bound(slosMs, "e2el");
  }

  private static double bound(Map<String, Double> slos, String key) {
    Double ms = slos.get(key);
    return ms == null ? Double.NaN : ms / 1000.0;
  }

  /** No SLOs: goodput is not computed and reported as null. */
  public static GoodputSlo none() {
    return NONE;
  }

  /** Parses {@code "ttft:500 tpot:50 e2el:1000"} (pairs separated by whitespace). */
  public static GoodputSlo parse(String pairs) {
    if (pairs == null || pairs.isBlank()) {
      return NONE;
    }
    return parse(List.of(pairs.trim().split("\\s+")));
  }

  /** Parses vLLM's {@code --goodput} arguments, one {@code KEY:VALUE} pair per entry. */
  public static GoodputSlo parse(List<String> pairs) {
    LinkedHashMap<String, Double> parsed = new LinkedHashMap<>();
    for (String entry : pairs) {
      for (String pair : entry.trim().split("\\s+")) {
        if (pair.isEmpty()) {
          continue;
        }
        String[] kv = pair.split(":", -1);
        if (kv.length != 2 || !isNumber(kv[1].trim())) {
          throw new IllegalArgumentException("Invalid format found for service level objectives. "
              + "Specify service level objectives for goodput as \"KEY:VALUE\" pairs, where the key "
              + "is a metric name, and the value is a number in milliseconds. Got '" + pair + "'.");
        }
        parsed.put(kv[0], parseNumber(kv[1].trim()));
      }
    }
    return validated(parsed);
  }

  /** SLOs from a map such as {@code Map.of("ttft", 500, "e2el", 2000)} (milliseconds). */
  public static GoodputSlo of(Map<String, ? extends Number> slosMs) {
    LinkedHashMap<String, Double> copy = new LinkedHashMap<>();
    slosMs.forEach((k, v) -> {
      if (v == null) {
        throw new IllegalArgumentException("Invalid value found, " + k
            + ": null. The service level objective value should be non-negative.");
      }
      copy.put(k, v.doubleValue());
    });
    return validated(copy);
  }

  private static GoodputSlo validated(LinkedHashMap<String, Double> slos) {
    for (Map.Entry<String, Double> e : slos.entrySet()) {
      if (!VALID_NAMES.contains(e.getKey())) {
        throw new IllegalArgumentException("Invalid metric name found, " + e.getKey() + ": "
            + PyFormat.repr(e.getValue()) + ". The service level objective name should be one of "
            + "['ttft', 'tpot', 'e2el']. ");
      }
      if (e.getValue() < 0 || e.getValue().isNaN()) {
        throw new IllegalArgumentException("Invalid value found, " + e.getKey() + ": "
            + PyFormat.repr(e.getValue()) + ". The service level objective value should be "
            + "non-negative.");
      }
    }
    return slos.isEmpty() ? NONE : new GoodputSlo(slos);
  }

  private static boolean isNumber(String text) {
    return NUMBER.matcher(text).matches() || INFINITY.matcher(text).matches();
  }

  private static double parseNumber(String text) {
    if (INFINITY.matcher(text).matches()) {
      return text.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    return Double.parseDouble(text.replace("_", ""));
  }

  /** True when no SLO is configured. */
  public boolean isEmpty() {
    return slosMs.isEmpty();
  }

  /** The SLOs in milliseconds, in the order given. */
  public Map<String, Double> asMap() {
    return slosMs;
  }

  /** The SLOs as vLLM's {@code --goodput} arguments ({@code ["ttft:500.0", ...]}). */
  public List<String> asArguments() {
    List<String> out = new ArrayList<>();
    slosMs.forEach((k, v) -> out.add(k + ":" + PyFormat.repr(v)));
    return out;
  }

  /**
   * Whether one request meets every SLO; false for failed requests and when no SLO is set.
   *
   * @param outputLen the request's output length in tokens (usage, or the tokenizer count
   *                  when the server sent none), as used by the after-run metrics
   */
  public boolean isGood(RequestRecord record, int outputLen) {
    if (isEmpty() || !record.success()) {
      return false;
    }
    double ttft = RequestTimes.ttftSeconds(record);
    double latency = RequestTimes.latencySeconds(record);
    return isGood(ttft, RequestTimes.tpotSeconds(ttft, latency, outputLen), latency);
  }

  /** Whether these per-request values (seconds; tpot 0 for one-token outputs) meet every SLO. */
  public boolean isGood(double ttftSeconds, double tpotSeconds, double e2elSeconds) {
    if (isEmpty()) {
      return false;
    }
    return (Double.isNaN(ttftS) || ttftS >= ttftSeconds)
        && (Double.isNaN(tpotS) || tpotS >= tpotSeconds)
        && (Double.isNaN(e2elS) || e2elS >= e2elSeconds);
  }

  @Override
  public String toString() {
    return isEmpty() ? "none" : String.join(" ", asArguments());
  }
}
