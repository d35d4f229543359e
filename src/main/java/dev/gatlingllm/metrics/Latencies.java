package dev.gatlingllm.metrics;

/**
 * The four latency distributions vLLM reports for a set of requests: the whole run, the
 * steady-state window or one turn index of a conversation run. All are computed by
 * {@link LatencySamples}, so the three cannot apply different rules.
 */
public record Latencies(Distribution ttft, Distribution tpot, Distribution itl,
    Distribution e2el) {

  /** The distribution of one metric. */
  public Distribution distribution(Metric metric) {
    return switch (metric) {
      case TTFT -> ttft;
      case TPOT -> tpot;
      case ITL -> itl;
      case E2EL -> e2el;
    };
  }
}
