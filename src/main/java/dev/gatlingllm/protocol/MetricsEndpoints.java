package dev.gatlingllm.protocol;

import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.protocol.BackendFacts;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Prometheus endpoints a run reads, from what {@link LlmProtocolBuilder} was given: the
 * server's metrics scraped during the run, the speculative-decoding counters read around it,
 * and the GPUs' DCGM exporters.
 */
final class MetricsEndpoints {

  private MetricsEndpoints() {}

  /**
   * The server's metrics scraped during the run: {@code given} (a path on every replica, each
   * has its own queue and cache, or one URL; "" for none), else the path where the backend's
   * server publishes them, if its name says.
   */
  static List<URI> server(String given, String backend, List<Target> targets) {
    return onEvery(targets, given != null ? given
        : BackendFacts.load().serverMetricsPath(backend));
  }

  /**
   * Where the speculative-decoding counters are read before and after the run, and summed:
   * the scraped endpoints, else {@code /metrics} of every replica whatever the backend (vLLM's
   * benchmark reads them from there with every backend); none when scraping was turned off
   * ({@code given} "").
   */
  static List<URI> specDecode(String given, List<Target> targets) {
    return onEvery(targets, given != null ? given : "/metrics");
  }

  /** {@code path} on every replica (once: a whole URL is one endpoint); empty for "". */
  private static List<URI> onEvery(List<Target> targets, String path) {
    List<URI> uris = new ArrayList<>();
    for (Target target : targets) {
      URI uri = on(target, path);
      if (uri != null && !uris.contains(uri)) {
        uris.add(uri);
      }
    }
    return uris;
  }

  /** {@code url} as scraped: http or https with a host; {@code /metrics} when it has no path. */
  static URI gpuExporter(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("gpuMetrics: not a URL: " + url);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw new IllegalArgumentException("gpuMetrics must be an http(s) URL with a host, such "
          + "as http://gpu-node:9400/metrics (DCGM exporter's), got " + url);
    }
    return uri.getRawPath() == null || uri.getRawPath().isEmpty()
        ? URI.create(url.replaceFirst("/*$", "") + "/metrics") : uri;
  }

  /** A path on the target's host, or a whole URL; null for "". */
  private static URI on(Target target, String value) {
    if (value.isEmpty()) {
      return null;
    }
    if (!value.startsWith("/")) {
      return URI.create(value);
    }
    String host = target.host().contains(":") ? "[" + target.host() + "]" : target.host();
    return URI.create((target.tls() ? "https://" : "http://") + host + ":"
        + target.port() + value);
  }
}
