package dev.gatlingllm.internal.servermetrics;

import dev.gatlingllm.internal.http.AuxHttp;
import dev.gatlingllm.internal.http.AuxHttpException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
   * The counters the endpoints show now, summed: one endpoint per replica ({@code --base-url}
   * repeated), each with engines of its own. Empty when none has any; a failure is then logged
   * at debug level only, as most servers have no speculative decoding to report. When some
   * replica has them and another does not answer, the sum would not be the run's: empty, and a
   * warning names the replica. Called off the event loops, before and after the run.
   */
  public static Optional<SpecDecodeCounters> fetch(List<URI> endpoints,
      Map<String, String> headers, boolean insecureTls) {
    SpecDecodeCounters sum = null;
    List<String> failures = new ArrayList<>();
    for (URI endpoint : endpoints) {
      try {
        Optional<SpecDecodeCounters> counters = read(endpoint, headers, insecureTls);
        if (counters.isPresent()) {
          sum = sum == null ? counters.get() : sum.plus(counters.get());
        }
      } catch (AuxHttpException | RuntimeException e) {
        failures.add(e instanceof AuxHttpException ? e.getMessage()
            : "GET " + AuxHttp.redact(endpoint) + " failed: " + e);
      }
    }
    if (sum == null) {
      failures.forEach(failure -> LOG.debug("spec decode counters not read: {}", failure));
      return Optional.empty();
    }
    if (!failures.isEmpty()) {
      LOG.warn("speculative decoding not reported: the counters of every replica are needed, "
          + "and {}", String.join("; ", failures));
      return Optional.empty();
    }
    return Optional.of(sum);
  }

  /** The counters of one endpoint; empty when it has none. */
  private static Optional<SpecDecodeCounters> read(URI endpoint, Map<String, String> headers,
      boolean insecureTls) throws AuxHttpException {
    return of(AuxHttp.get(endpoint).header("Accept", "text/plain")
        .headers(headers).connectTimeout(TIMEOUT).timeout(TIMEOUT).maxBody(8 << 20)
        .insecureTls(insecureTls).send().requireOk().text());
  }

  /** These counters and {@code other}'s added, position by position: two replicas' engines. */
  SpecDecodeCounters plus(SpecDecodeCounters other) {
    Map<Integer, Double> byPos = new TreeMap<>(acceptedByPos);
    other.acceptedByPos.forEach((pos, n) -> byPos.merge(pos, n, Double::sum));
    return new SpecDecodeCounters(drafts + other.drafts, draftTokens + other.draftTokens,
        accepted + other.accepted, byPos);
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
