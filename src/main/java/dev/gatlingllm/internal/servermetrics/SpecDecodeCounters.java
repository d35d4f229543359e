package dev.gatlingllm.internal.servermetrics;

import dev.gatlingllm.internal.http.AuxHttp;
import dev.gatlingllm.internal.http.AuxHttpException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * vLLM's speculative-decoding counters at one moment, summed over engines: read from the
 * server's {@code /metrics} just before the run and just after it, so that their differences
 * ({@code metrics.SpecDecodeStats}) are this run's alone, as vLLM's {@code bench serve} reads
 * them.
 * A server without speculative decoding (or without {@code /metrics}) has none.
 *
 * @param drafts        {@code vllm:spec_decode_num_drafts}: draft proposals verified
 * @param draftTokens   {@code vllm:spec_decode_num_draft_tokens}: tokens proposed
 * @param accepted      {@code vllm:spec_decode_num_accepted_tokens}: proposed tokens accepted
 * @param acceptedByPos {@code vllm:spec_decode_num_accepted_tokens_per_pos} by its
 *                      {@code position} label (0 = the first drafted token)
 */
public record SpecDecodeCounters(double drafts, double draftTokens, double accepted,
    Map<Integer, Double> acceptedByPos) {

  private static final Logger LOG = LoggerFactory.getLogger(SpecDecodeCounters.class);
  private static final String PREFIX = "vllm:spec_decode_";
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  public SpecDecodeCounters {
    acceptedByPos = Map.copyOf(new TreeMap<>(acceptedByPos));
  }

  /**
   * The counters of one exposition text; empty when it has none of them. A counter is read
   * under its sample name ({@code ..._total}, as the Prometheus client writes a counter), else
   * under its bare name.
   */
  public static Optional<SpecDecodeCounters> of(String exposition) {
    Map<String, PrometheusText.Value> m = PrometheusText.parse(exposition);
    double drafts = counter(m, "num_drafts");
    double draftTokens = counter(m, "num_draft_tokens");
    double accepted = counter(m, "num_accepted_tokens");
    if (Double.isNaN(drafts) && Double.isNaN(draftTokens) && Double.isNaN(accepted)) {
      return Optional.empty();
    }
    Map<String, Double> byPos = PrometheusText.byLabel(exposition,
        PREFIX + "num_accepted_tokens_per_pos_total", "position");
    if (byPos.isEmpty()) {
      byPos = PrometheusText.byLabel(exposition, PREFIX + "num_accepted_tokens_per_pos",
          "position");
    }
    Map<Integer, Double> positions = new TreeMap<>();
    byPos.forEach((pos, value) -> {
      try {
        positions.put(Integer.parseInt(pos), value);
      } catch (NumberFormatException e) {
        // a position that is not a number is no position
      }
    });
    return Optional.of(new SpecDecodeCounters(zeroIfNaN(drafts), zeroIfNaN(draftTokens),
        zeroIfNaN(accepted), positions));
  }

  /**
   * The counters the endpoint shows now; empty when it cannot be read or has none. Called
   * off the event loops, before and after the run; a failure is logged at debug level only,
   * as most servers have no speculative decoding to report.
   */
  public static Optional<SpecDecodeCounters> fetch(URI endpoint, Map<String, String> headers,
      boolean insecureTls) {
    try {
      AuxHttp.Response answer = AuxHttp.get(endpoint).header("Accept", "text/plain")
          .headers(headers).connectTimeout(TIMEOUT).timeout(TIMEOUT).maxBody(8 << 20)
          .insecureTls(insecureTls).send();
      if (answer.status() != 200) {
        LOG.debug("spec decode counters: {} answered HTTP {}", AuxHttp.redact(endpoint),
            answer.status());
        return Optional.empty();
      }
      return of(answer.text());
    } catch (AuxHttpException | RuntimeException e) {
      LOG.debug("spec decode counters: {} not read: {}", AuxHttp.redact(endpoint), e.toString());
      return Optional.empty();
    }
  }

  private static double counter(Map<String, PrometheusText.Value> m, String name) {
    PrometheusText.Value v = m.get(PREFIX + name + "_total");
    if (v == null) {
      v = m.get(PREFIX + name);
    }
    return v == null ? Double.NaN : v.sum();
  }

  private static double zeroIfNaN(double v) {
    return Double.isNaN(v) ? 0 : v;
  }
}
