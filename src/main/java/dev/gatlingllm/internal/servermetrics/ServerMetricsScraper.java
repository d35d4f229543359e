package dev.gatlingllm.internal.servermetrics;

import dev.gatlingllm.internal.http.AuxHttp;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Scrapes a Prometheus endpoint (vLLM's {@code /metrics}) at a fixed interval during the run,
 * on one daemon thread of its own ({@link ScrapeLoop}): never on Gatling's event loops, so a
 * slow or silent server delays no token timestamp. A 404 stops it with one log line (the
 * server has no such endpoint); other failures are logged once and counted. Headers
 * (authorization included) are sent but never logged or written.
 */
public final class ServerMetricsScraper {

  private static final ScrapeLoop.Names NAMES = new ScrapeLoop.Names("server metrics",
      "gatling-llm-server-metrics", " (llm().noServerMetrics() turns this off)",
      "no vLLM metric in the answer", "none of vLLM's metrics");

  private final ScrapeLoop<ServerSample> loop;

  private ServerMetricsScraper(ScrapeLoop<ServerSample> loop) {
    this.loop = loop;
  }

  private static ScrapeLoop<ServerSample> loop(URI endpoint, Map<String, String> headers,
      Duration interval, boolean insecureTls) {
    return new ScrapeLoop<>(endpoint, headers, interval, insecureTls, NAMES,
        (nanos, text) -> {
          ServerSample sample = ServerSample.of(nanos, text);
          return sample.empty() ? null : sample;
        });
  }

  /** Starts scraping now and then every {@code interval}. */
  public static ServerMetricsScraper start(URI endpoint, Map<String, String> headers,
      Duration interval) {
    return start(endpoint, headers, interval, false);
  }

  /**
   * {@link #start(URI, Map, Duration)}; {@code insecureTls} accepts any certificate and host
   * name over https, as the run's own requests do with {@code llm().insecureTls()}.
   */
  public static ServerMetricsScraper start(URI endpoint, Map<String, String> headers,
      Duration interval, boolean insecureTls) {
    return new ServerMetricsScraper(loop(endpoint, headers, interval, insecureTls).start());
  }

  /**
   * Scrapes {@code times} times on the calling thread and keeps nothing: run before the
   * measured window, so the scrapes inside it (on the client's cores) find the HTTP and parsing
   * code compiled. Stops early, and logs nothing, when the endpoint does not answer with
   * vLLM's metrics: the run's own scraper then says so once.
   */
  public static void warmUp(URI endpoint, Map<String, String> headers, boolean insecureTls,
      int times) {
    loop(endpoint, headers, Duration.ofSeconds(1), insecureTls).warmUp(times);
  }

  /**
   * Stops (waiting for a scrape under way), scrapes once more unless scraping was turned off, and
   * hands back what was scraped. The last scrape is the run's end: a counter's growth over the
   * run (the aborts of the requests the client cancelled) is then all there, not only what
   * the last periodic scrape, up to an interval earlier, had seen.
   */
  public ServerSeries stop() {
    loop.stop(true);
    return new ServerSeries(AuxHttp.redact(loop.endpoint()), loop.interval().toNanos() / 1e9,
        loop.samples(), loop.failed(), loop.status());
  }
}
