package dev.gatlingllm.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The four latency distributions vLLM reports, with the names it prints them under. */
public enum Metric {
  TTFT("ttft", "TTFT", "Time to First Token"),
  TPOT("tpot", "TPOT", "Time per Output Token (excl. 1st token)"),
  ITL("itl", "ITL", "Inter-token Latency"),
  E2EL("e2el", "E2EL", "End-to-end Latency");

  private final String key;
  private final String label;
  private final String header;

  Metric(String key, String label, String header) {
    this.key = key;
    this.label = label;
    this.header = header;
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
        + "': allowed metric names are \"ttft\", \"tpot\", \"itl\", \"e2el\"");
  }

  /**
   * Parses a {@code --percentile-metrics} value such as {@code "ttft,tpot,itl,e2el"}.
   * Order and repeats are kept as given; reporting always walks the metrics in vLLM's order.
   */
  public static List<Metric> parseList(String commaSeparated) {
    if (commaSeparated == null || commaSeparated.isBlank()) {
      throw new IllegalArgumentException("Percentile metrics must not be empty: "
          + "give a comma-separated list of \"ttft\", \"tpot\", \"itl\", \"e2el\"");
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
