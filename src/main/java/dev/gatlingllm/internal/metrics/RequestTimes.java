package dev.gatlingllm.internal.metrics;

/**
 * A record's figures as vLLM's per-request output holds them (seconds, token counts),
 * converted in one place so the after-run metrics, the per-request goodput check and the
 * detailed result JSON all see the same doubles.
 */
public final class RequestTimes {

  private RequestTimes() {}

  /** TTFT in seconds; 0 when no content arrived (as vLLM's default). */
  public static double ttftSeconds(RequestRecord r) {
    return Math.max(r.ttftNanos(), 0) / 1e9;
  }

  /** Latency (last content chunk minus start) in seconds; 0 when no content arrived. */
  public static double latencySeconds(RequestRecord r) {
    return Math.max(r.latencyNanos(), 0) / 1e9;
  }

  /**
   * Embeddings have no content chunks; their latency is the whole exchange when the client
   * recorded no chunk-based latency.
   */
  public static double embeddingLatencySeconds(RequestRecord r) {
    long nanos = r.latencyNanos() >= 0 ? r.latencyNanos() : r.endNanos() - r.startNanos();
    return Math.max(nanos, 0) / 1e9;
  }

  /** vLLM's per-request TPOT: 0 for outputs of at most one token (counts for goodput only). */
  public static double tpotSeconds(double ttft, double latency, int outputLen) {
    return outputLen > 1 ? (latency - ttft) / (outputLen - 1) : 0.0;
  }

  /** Seconds from the run's origin to the request start. */
  public static double startSeconds(RequestRecord r, long originNanos) {
    return (r.startNanos() - originNanos) / 1e9;
  }

  /**
   * Prompt length: the dataset's count for generation (server usage when the dataset gave
   * none), the server's usage for embeddings (as vLLM takes it), 0 when neither is known.
   */
  public static int promptLen(RequestRecord r, TaskType task) {
    int first = task == TaskType.EMBEDDING ? r.usagePromptTokens() : r.promptTokens();
    int second = task == TaskType.EMBEDDING ? r.promptTokens() : r.usagePromptTokens();
    return first >= 0 ? first : Math.max(second, 0);
  }
}
