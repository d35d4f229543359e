package dev.gatlingllm.internal.servermetrics;

import dev.gatlingllm.internal.http.AuxHttp;
import dev.gatlingllm.internal.http.AuxHttpException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scrapes a Prometheus endpoint (vLLM's {@code /metrics}) at a fixed interval during the run,
 * on one daemon thread of its own: never on Gatling's event loops, so a slow or silent server
 * delays no token timestamp. A 404 stops it with one log line (the server has no such
 * endpoint); other failures are logged once and counted. Headers (authorization included)
 * are sent but never logged or written.
 */
public final class ServerMetricsScraper {

  private static final Logger LOG = LoggerFactory.getLogger(ServerMetricsScraper.class);
  /** Bodies beyond this are cut: a vLLM exposition is tens of kB. */
  private static final int MAX_BODY = 8 << 20;

  private final URI endpoint;
  private final Map<String, String> headers;
  private final Duration interval;
  private final ScheduledExecutorService thread;
  private final List<ServerSample> samples = new ArrayList<>();
  private int failed;
  private String status = "ok";
  private boolean warned;
  /** Set for the warm-up: nothing is logged. */
  private boolean quiet;
  /** Accept any certificate, as the client does with {@code llm().insecureTls()}. */
  private final boolean insecureTls;

  private ServerMetricsScraper(URI endpoint, Map<String, String> headers, Duration interval,
      boolean insecureTls) {
    this.endpoint = endpoint;
    this.insecureTls = insecureTls;
    this.headers = Map.copyOf(headers);
    this.interval = interval;
    this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "gatling-llm-server-metrics");
      t.setDaemon(true);
      return t;
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
    ServerMetricsScraper s = new ServerMetricsScraper(endpoint, headers, interval, insecureTls);
    s.thread.scheduleAtFixedRate(s::scrape, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    return s;
  }

  /**
   * Scrapes {@code times} times on the calling thread and keeps nothing: run before the
   * measured window, so the scrapes inside it (on the client's cores) find the HTTP and parsing
   * code compiled. Stops early, and logs nothing, when the endpoint does not answer with
   * vLLM's metrics: the run's own scraper then says so once.
   */
  public static void warmUp(URI endpoint, Map<String, String> headers, boolean insecureTls,
      int times) {
    ServerMetricsScraper s =
        new ServerMetricsScraper(endpoint, headers, Duration.ofSeconds(1), insecureTls);
    s.quiet = true;
    try {
      for (int i = 0; i < times && s.failed == 0 && s.status.equals("ok"); i++) {
        s.scrape();
      }
    } finally {
      s.thread.shutdownNow();
    }
  }

  /**
   * Stops (waiting for a scrape under way), scrapes once more when the endpoint answered, and
   * hands back what was scraped. The last scrape is the run's end: a counter's growth over the
   * run (the aborts of the requests the client cancelled) is then all there, not only what
   * the last periodic scrape, up to an interval earlier, had seen.
   */
  public ServerSeries stop() {
    thread.shutdown();
    try {
      thread.awaitTermination(interval.toMillis() + 2_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    thread.shutdownNow();
    boolean answered;
    synchronized (this) {
      answered = status.equals("ok") && !samples.isEmpty();
    }
    if (answered) {
      scrape();
    }
    synchronized (this) {
      return new ServerSeries(AuxHttp.redact(endpoint), interval.toNanos() / 1e9, samples,
          failed, status);
    }
  }

  private void scrape() {
    try {
      Duration timeout = Duration.ofMillis(Math.max(200, interval.toMillis() * 9 / 10));
      AuxHttp.Response answer = AuxHttp.get(endpoint).header("Accept", "text/plain")
          .headers(headers).connectTimeout(timeout).timeout(timeout).maxBody(MAX_BODY)
          .insecureTls(insecureTls).send();
      int code = answer.status();
      if (code == 404) {
        disable("disabled: HTTP 404");
        if (!quiet) {
          LOG.info("server metrics: {} answered 404, not scraping it (llm().noServerMetrics() "
              + "turns this off)", AuxHttp.redact(endpoint));
        }
        return;
      }
      if (code != 200) {
        failure("HTTP " + code);
        return;
      }
      ServerSample sample = ServerSample.of(System.nanoTime(), answer.text());
      if (sample.empty()) {
        disable("disabled: no vLLM metric in the answer");
        if (!quiet) {
          LOG.info("server metrics: {} has none of vLLM's metrics, not scraping it",
              AuxHttp.redact(endpoint));
        }
        return;
      }
      synchronized (this) {
        samples.add(sample);
        status = "ok";
      }
    } catch (AuxHttpException e) {
      failure(e.getMessage());
    } catch (RuntimeException e) {
      failure(e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private synchronized void disable(String why) {
    status = why;
    thread.shutdown();
  }

  private synchronized void failure(String what) {
    failed++;
    if (!warned && !quiet) {
      warned = true;
      LOG.warn("server metrics: scraping {} failed ({}); will keep trying every {} ms",
          AuxHttp.redact(endpoint), what, interval.toMillis());
    }
    if (samples.isEmpty()) {
      status = "no answer: " + what;
    }
  }
}
