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
 * The one scrape loop of a Prometheus endpoint: every {@code interval} on one daemon thread of
 * its own, never on Gatling's event loops, so a slow or silent endpoint delays no token
 * timestamp. What a scrape keeps is its {@link Reading}'s business (vLLM's figures for
 * {@link ServerMetricsScraper}, DCGM's per GPU for {@link GpuMetricsScraper}). A 404, or an
 * answer without the figures the reading looks for, stops it with one log line; other failures
 * are logged once and counted. Headers (authorization included) are sent but never logged.
 *
 * @param <S> what one scrape is read into
 */
final class ScrapeLoop<S> {

  private static final Logger LOG = LoggerFactory.getLogger(ScrapeLoop.class);
  /** Bodies beyond this are cut: a vLLM exposition is tens of kB, DCGM's of 8 GPUs as much. */
  private static final int MAX_BODY = 8 << 20;

  /** Reads one exposition text; null when it holds none of the figures looked for. */
  @FunctionalInterface
  interface Reading<S> {
    S read(long nanos, String text);
  }

  /**
   * How the loop names itself in its log lines and its status.
   *
   * @param what     the subject of a log line, e.g. {@code server metrics}
   * @param thread   the scraping thread's name
   * @param off404   what the 404 line adds, e.g. how to turn the scraping off
   * @param nothing  the status when an answer has none of the figures, e.g.
   *                 {@code no vLLM metric in the answer}
   * @param none     what the log line says such an endpoint has, e.g.
   *                 {@code none of vLLM's metrics}
   */
  record Names(String what, String thread, String off404, String nothing, String none) {}

  private final URI endpoint;
  private final Map<String, String> headers;
  private final Duration interval;
  private final boolean insecureTls;
  private final Names names;
  private final Reading<S> reading;
  private final ScheduledExecutorService thread;
  private final List<S> samples = new ArrayList<>();
  private int failed;
  private String status = "ok";
  private boolean warned;
  private boolean disabled;
  /** Set for the warm-up: nothing is logged. */
  private boolean quiet;

  ScrapeLoop(URI endpoint, Map<String, String> headers, Duration interval, boolean insecureTls,
      Names names, Reading<S> reading) {
    this.endpoint = endpoint;
    this.headers = Map.copyOf(headers);
    this.interval = interval;
    this.insecureTls = insecureTls;
    this.names = names;
    this.reading = reading;
    this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, names.thread());
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts scraping now and then every interval. */
  ScrapeLoop<S> start() {
    thread.scheduleAtFixedRate(this::scrape, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    return this;
  }

  /**
   * Scrapes {@code times} times on the calling thread and keeps nothing, logging nothing:
   * stops early when the endpoint does not answer with the figures looked for.
   */
  void warmUp(int times) {
    quiet = true;
    try {
      for (int i = 0; i < times && failed == 0 && status.equals("ok"); i++) {
        scrape();
      }
    } finally {
      thread.shutdownNow();
    }
  }

  /**
   * Stops, waiting for a scrape under way; with {@code lastScrape}, scrapes once more on the
   * calling thread (unless a 404 or a foreign answer stopped it), so that what was scraped
   * reaches the moment of the stop and not only the last tick before it.
   */
  void stop(boolean lastScrape) {
    thread.shutdown();
    try {
      thread.awaitTermination(interval.toMillis() + 2_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    thread.shutdownNow();
    boolean again;
    synchronized (this) {
      again = lastScrape && !disabled;
    }
    if (again) {
      scrape();
    }
  }

  synchronized List<S> samples() {
    return List.copyOf(samples);
  }

  synchronized int failed() {
    return failed;
  }

  /** {@code ok}, or why there are no samples (for example {@code disabled: HTTP 404}). */
  synchronized String status() {
    return status;
  }

  URI endpoint() {
    return endpoint;
  }

  Duration interval() {
    return interval;
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
          LOG.info("{}: {} answered 404, not scraping it{}", names.what(),
              AuxHttp.redact(endpoint), names.off404());
        }
        return;
      }
      if (code != 200) {
        failure("HTTP " + code);
        return;
      }
      S sample = reading.read(System.nanoTime(), answer.text());
      if (sample == null) {
        disable("disabled: " + names.nothing());
        if (!quiet) {
          LOG.info("{}: {} has {}, not scraping it", names.what(), AuxHttp.redact(endpoint),
              names.none());
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
    disabled = true;
    thread.shutdown();
  }

  private synchronized void failure(String what) {
    failed++;
    if (!warned && !quiet) {
      warned = true;
      LOG.warn("{}: scraping {} failed ({}); will keep trying every {} ms", names.what(),
          AuxHttp.redact(endpoint), what, interval.toMillis());
    }
    if (samples.isEmpty()) {
      status = "no answer: " + what;
    }
  }
}
