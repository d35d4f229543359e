package dev.gatlingllm.internal.metrics;

/**
 * The latency distributions vLLM reports for a set of requests: the whole run, the
 * steady-state window or one turn index of a conversation run. All are computed by
 * {@link LatencySamples}, so the three cannot apply different rules.
 *
 * @param clientQueue               vLLM's {@code client_queue_time}
 * @param e2elIncludingClientQueue  vLLM's {@code e2el_including_client_queue}
 */
public record Latencies(Distribution ttft, Distribution tpot, Distribution itl,
    Distribution e2el, Distribution clientQueue, Distribution e2elIncludingClientQueue) {

  /** The distribution of one metric. */
  public Distribution distribution(Metric metric) {
    return switch (metric) {
      case TTFT -> ttft;
      case TPOT -> tpot;
      case ITL -> itl;
      case E2EL -> e2el;
      case CLIENT_QUEUE_TIME -> clientQueue;
      case E2EL_INCLUDING_CLIENT_QUEUE -> e2elIncludingClientQueue;
    };
  }
}
