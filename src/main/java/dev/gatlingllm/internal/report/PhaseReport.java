package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.Cancels;
import dev.gatlingllm.internal.metrics.RequestPhases;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the requests' time went ({@value #PHASES_KEY}, in the detailed result) and the users
 * who left ({@value #CANCEL_KEY}): our additions to vLLM's result JSON, each an object of its
 * own so that vLLM's keys stay as they are.
 */
final class PhaseReport {

  /** The detailed result's key of the connection phases and the TTFT split. */
  static final String PHASES_KEY = "request_phases";
  /** The key of the cancel settings (a run extra) and, in the result, of what became of them. */
  static final String CANCEL_KEY = "cancellation";

  private PhaseReport() {}

  /**
   * The phases: how many requests opened a connection or reused one, the distributions of
   * DNS, TCP connect and TLS over those that opened one (k6's and AIPerf's names), then
   * {@code ttft_network}, {@code ttft_server}, {@code ttft_stream} over the successful requests
   * with each one's mean share of the mean TTFT.
   */
  static Map<String, Object> json(RequestPhases p) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("requests", p.requests());
    out.put("new_connections", p.newConnections());
    out.put("reused_connections", p.reusedConnections());
    ResultDocument.putDistribution(out, "http_req_dns_lookup", p.dns());
    ResultDocument.putDistribution(out, "http_req_connecting", p.connect());
    out.put("tls_handshakes", p.tlsCount());
    ResultDocument.putDistribution(out, "http_req_tls_handshaking", p.tls());
    out.put("ttft_split_requests", p.split());
    ResultDocument.putDistribution(out, "ttft_network", p.network());
    ResultDocument.putDistribution(out, "ttft_server", p.server());
    ResultDocument.putDistribution(out, "ttft_stream", p.stream());
    double ttft = p.network().mean() + p.server().mean() + p.stream().mean();
    Map<String, Object> shares = new LinkedHashMap<>();
    shares.put("network", ttft > 0 ? p.network().mean() / ttft : 0.0);
    shares.put("server", ttft > 0 ? p.server().mean() / ttft : 0.0);
    shares.put("stream", ttft > 0 ? p.stream().mean() / ttft : 0.0);
    out.put("ttft_mean_share", shares);
    return out;
  }

  /**
   * The cancel settings the run carried, then what became of them: requests cancelled, those
   * that had a first token and their TTFT, and what the server counted as aborted over the run
   * ({@code vllm:request_success_total{finished_reason="abort"}}, last scrape minus first; null
   * when its metrics were not scraped or have no such counter).
   */
  static Map<String, Object> cancellationJson(Map<?, ?> settings, Cancels c,
      Object serverMetrics) {
    Map<String, Object> out = new LinkedHashMap<>();
    settings.forEach((k, v) -> out.put(String.valueOf(k), v));
    out.put("cancelled", c.cancelled());
    out.put("cancelled_with_first_token", c.withFirstToken());
    ResultDocument.putDistribution(out, "cancelled_ttft", c.ttft());
    out.put("server_aborted", serverAborted(serverMetrics));
    return out;
  }

  /**
   * The growth of the server's abort counter over the scrapes, or null; summed over the
   * replicas when given the list of each one's scrapes ({@code server_metrics_per_url}): a
   * replica aborts only the requests sent to it.
   */
  static Long serverAborted(Object serverMetrics) {
    if (serverMetrics instanceof List<?> replicas) {
      Long sum = null;
      for (Object replica : replicas) {
        Long aborted = serverAborted(replica);
        if (aborted == null) {
          return null; // a replica without the counter: the sum would not be the server's
        }
        sum = sum == null ? aborted : sum + aborted;
      }
      return sum;
    }
    if (!(serverMetrics instanceof Map<?, ?> m)
        || !(m.get("requests_aborted") instanceof List<?> aborted)) {
      return null;
    }
    Double first = null;
    Double last = null;
    for (Object v : aborted) {
      if (v instanceof Number x) {
        first = first == null ? x.doubleValue() : first;
        last = x.doubleValue();
      }
    }
    return first == null ? null : Math.round(last - first);
  }
}
