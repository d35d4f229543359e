package dev.gatlingllm.internal.servermetrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The samples of one run and what became of the scraping, as the result JSON's
 * {@value #KEY} object: parallel arrays over the samples, times in seconds from the
 * benchmark start, and the prefix-cache hit rate of each interval (hits over queries
 * between two scrapes, or V0's own gauge). Holds the endpoint without any credentials.
 *
 * @param status {@code ok}, or why there are no samples (for example {@code disabled: HTTP 404})
 */
public record ServerSeries(String endpoint, double intervalSeconds, List<ServerSample> samples,
    int failedScrapes, String status) {

  /** The one extra result JSON key the series go under. */
  public static final String KEY = "server_metrics";
  /** With several replicas: each one's series, in the order of the base URLs. */
  public static final String PER_URL_KEY = "server_metrics_per_url";

  public ServerSeries {
    samples = List.copyOf(samples);
  }

  /** The JSON object, with times relative to {@code originNanos}. */
  public Map<String, Object> toJson(long originNanos) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("endpoint", endpoint);
    out.put("status", status);
    out.put("interval_s", intervalSeconds);
    out.put("failed_scrapes", failedScrapes);
    List<Object> time = new ArrayList<>();
    List<Object> running = new ArrayList<>();
    List<Object> waiting = new ArrayList<>();
    List<Object> kv = new ArrayList<>();
    List<Object> queries = new ArrayList<>();
    List<Object> hits = new ArrayList<>();
    List<Object> hitRate = new ArrayList<>();
    List<Object> aborted = new ArrayList<>();
    boolean abortsCounted = false;
    ServerSample previous = null;
    for (ServerSample s : samples) {
      time.add(Math.round((s.nanos() - originNanos) / 1e6) / 1e3);
      running.add(finite(s.running()));
      waiting.add(finite(s.waiting()));
      kv.add(finite(s.kvCacheUsage()));
      queries.add(finite(s.prefixQueries()));
      hits.add(finite(s.prefixHits()));
      hitRate.add(hitRate(previous, s));
      aborted.add(finite(s.aborted()));
      abortsCounted |= Double.isFinite(s.aborted());
      previous = s;
    }
    out.put("time_s", time);
    out.put("num_requests_running", running);
    out.put("num_requests_waiting", waiting);
    out.put("kv_cache_usage_perc", kv);
    out.put("prefix_cache_queries", queries);
    out.put("prefix_cache_hits", hits);
    out.put("prefix_cache_hit_rate", hitRate);
    if (abortsCounted) {
      // vllm:request_success_total{finished_reason="abort"}, cumulative: what the server did
      // with the requests whose client left (--cancel-fraction), beside the client's count
      out.put("requests_aborted", aborted);
    }
    return out;
  }

  /** Hits over queries since the previous scrape; V0's gauge when there are no counters. */
  static Double hitRate(ServerSample previous, ServerSample s) {
    if (!Double.isNaN(s.prefixQueries()) && !Double.isNaN(s.prefixHits())) {
      if (previous == null || Double.isNaN(previous.prefixQueries())) {
        return null;
      }
      double queries = s.prefixQueries() - previous.prefixQueries();
      return queries > 0 ? (s.prefixHits() - previous.prefixHits()) / queries : null;
    }
    return finite(s.prefixHitRate());
  }

  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }
}
