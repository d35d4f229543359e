package dev.gatlingllm.internal.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The latency distributions vLLM reports, with the names it prints them under: the four of
 * the server's answer, then (vLLM 0.29) the two of the client's own queue in front of
 * {@code --max-concurrency}, whose times are 0 without a cap.
 */
public enum Metric {
  TTFT("ttft", "TTFT", "Time to First Token"),
  TPOT("tpot", "TPOT", "Time per Output Token (excl. 1st token)"),
  ITL("itl", "ITL", "Inter-token Latency"),
  E2EL("e2el", "E2EL", "End-to-end Latency"),
  /** The wait for a concurrency permit, from the arrival to the send. */
  CLIENT_QUEUE_TIME("client_queue_time", "Client Queue Time", "Client Queue Time"),
  /** E2EL plus the client queue time: what a caller behind the cap waited in all. */
  E2EL_INCLUDING_CLIENT_QUEUE("e2el_including_client_queue", "E2EL incl. Client Queue",
      "E2E Latency incl. Client Queue");

  /** The names a {@code --percentile-metrics} list may hold, for messages: every key, quoted. */
  private static final String ALLOWED = String.join(", ",
      keys().stream().map(k -> "\"" + k + "\"").toList());

  /**
   * The latencies of the server's answer, timed from the send: the four of vLLM's steady-state
   * and per-turn figures, which leave the client's own queue out.
   */
  public static final List<Metric> ANSWER = List.of(TTFT, TPOT, ITL, E2EL);

  private final String key;
  private final String label;
  private final String header;

  Metric(String key, String label, String header) {
    this.key = key;
    this.label = label;
    this.header = header;
  }

  /** Every key, in the order of the constants: what {@code --percentile-metrics} may list. */
  public static List<String> keys() {
    List<String> out = new ArrayList<>();
    for (Metric m : values()) {
      out.add(m.key);
    }
    return List.copyOf(out);
  }

  /** Lower-case name used in flags and JSON keys ({@code ttft} in {@code p99_ttft_ms}). */
  public String key() {
    return key;
  }

  /** Upper-case name used in console labels ({@code Mean TTFT (ms):}). */
  public String label() {
    return label;
  }

  /** Section title of the console summary. */
  public String header() {
    return header;
  }

  /** The metric for a key such as {@code "ttft"}; exception naming the allowed keys otherwise. */
  public static Metric ofKey(String key) {
    String k = key.trim().toLowerCase(Locale.ROOT);
    for (Metric m : values()) {
      if (m.key.equals(k)) {
        return m;
      }
    }
    throw new IllegalArgumentException("Unknown metric '" + key
        + "': allowed metric names are " + ALLOWED);
  }

  /**
   * Parses a {@code --percentile-metrics} value such as {@code "ttft,tpot,itl,e2el"}.
   * Order and repeats are kept as given; reporting always walks the metrics in vLLM's order.
   */
  public static List<Metric> parseList(String commaSeparated) {
    if (commaSeparated == null || commaSeparated.isBlank()) {
      throw new IllegalArgumentException("Percentile metrics must not be empty: "
          + "give a comma-separated list of " + ALLOWED);
    }
    List<Metric> out = new ArrayList<>();
    for (String part : commaSeparated.split(",", -1)) {
      try {
        out.add(ofKey(part));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Invalid percentile metrics \"" + commaSeparated + "\": "
            + e.getMessage(), e);
      }
    }
    return List.copyOf(out);
  }
}
