package dev.gatlingllm.internal.servermetrics;

import java.util.Map;

/**
 * One scrape of a vLLM server's {@code /metrics}, reduced to what the report charts. A figure
 * the server did not expose is NaN. Gauges of several engines (data parallel) are summed,
 * except the KV-cache usage, which is their mean.
 *
 * @param nanos          {@link System#nanoTime()} when the answer was read
 * @param running        {@code vllm:num_requests_running}
 * @param waiting        {@code vllm:num_requests_waiting}
 * @param kvCacheUsage   {@code vllm:kv_cache_usage_perc} (V1), else
 *                       {@code vllm:gpu_cache_usage_perc} (V0); a fraction, 1 = full
 * @param prefixQueries  {@code vllm:prefix_cache_queries_total} (tokens, cumulative)
 * @param prefixHits     {@code vllm:prefix_cache_hits_total} (tokens, cumulative)
 * @param prefixHitRate  {@code vllm:gpu_prefix_cache_hit_rate} (V0's own rate gauge)
 * @param aborted        {@code vllm:request_success_total{finished_reason="abort"}}: requests
 *                       the server stopped because their client left (cumulative)
 */
public record ServerSample(long nanos, double running, double waiting, double kvCacheUsage,
    double prefixQueries, double prefixHits, double prefixHitRate, double aborted) {

  /** vLLM's counter of finished requests, by {@code finished_reason}. */
  static final String REQUEST_SUCCESS = "vllm:request_success_total";

  /** A sample without the abort counter. */
  public ServerSample(long nanos, double running, double waiting, double kvCacheUsage,
      double prefixQueries, double prefixHits, double prefixHitRate) {
    this(nanos, running, waiting, kvCacheUsage, prefixQueries, prefixHits, prefixHitRate,
        Double.NaN);
  }

  /** The figures of one exposition text. */
  public static ServerSample of(long nanos, String exposition) {
    Map<String, PrometheusText.Value> m = PrometheusText.parse(exposition);
    double kv = mean(m, "vllm:kv_cache_usage_perc");
    if (Double.isNaN(kv)) {
      kv = mean(m, "vllm:gpu_cache_usage_perc");
    }
    return new ServerSample(nanos, sum(m, "vllm:num_requests_running"),
        sum(m, "vllm:num_requests_waiting"), kv, sum(m, "vllm:prefix_cache_queries_total"),
        sum(m, "vllm:prefix_cache_hits_total"), mean(m, "vllm:gpu_prefix_cache_hit_rate"),
        abortedOf(m));
  }

  /**
   * The aborted requests: 0 when the server counts finished requests by reason but has not
   * aborted any yet (vLLM writes every reason's sample from the start), NaN when it does not.
   */
  private static double abortedOf(Map<String, PrometheusText.Value> m) {
    double aborted = sum(m, PrometheusText.byReason(REQUEST_SUCCESS, "abort"));
    return Double.isNaN(aborted) && m.containsKey(REQUEST_SUCCESS) ? 0 : aborted;
  }

  /** True when the text had none of vLLM's metrics (not a vLLM server, or a wrong path). */
  public boolean empty() {
    return Double.isNaN(running) && Double.isNaN(waiting) && Double.isNaN(kvCacheUsage)
        && Double.isNaN(prefixQueries) && Double.isNaN(prefixHitRate);
  }

  private static double sum(Map<String, PrometheusText.Value> m, String name) {
    PrometheusText.Value v = m.get(name);
    return v == null ? Double.NaN : v.sum();
  }

  private static double mean(Map<String, PrometheusText.Value> m, String name) {
    PrometheusText.Value v = m.get(name);
    return v == null ? Double.NaN : v.mean();
  }
}
