package dev.gatlingllm.internal.servermetrics;

import dev.gatlingllm.internal.http.AuxHttp;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Scrapes the GPUs' energy and power from NVIDIA DCGM exporters ({@code --gpu-metrics-url},
 * repeatable) over the benchmark window: one {@link ScrapeLoop} per endpoint, started at the
 * run's first send and stopped when its results are written, with one last scrape then, so
 * that the energy counter is read at both ends of the window. No header of the run is sent:
 * the exporter is another origin, and the server's API key is not its business. A failure is
 * counted and said in the results, never a failed run.
 */
public final class GpuMetricsScraper {

  private static final ScrapeLoop.Names NAMES = new ScrapeLoop.Names("GPU metrics",
      "gatling-llm-gpu-metrics", "", "no " + GpuSample.ENERGY + " or " + GpuSample.POWER
          + " in the answer", "neither " + GpuSample.ENERGY + " nor " + GpuSample.POWER);

  private final List<ScrapeLoop<GpuSample>> loops;

  private GpuMetricsScraper(List<ScrapeLoop<GpuSample>> loops) {
    this.loops = loops;
  }

  private static ScrapeLoop<GpuSample> loop(URI endpoint, Duration interval,
      boolean insecureTls) {
    return new ScrapeLoop<>(endpoint, Map.of(), interval, insecureTls, NAMES, GpuSample::of);
  }

  /** Starts scraping each endpoint now and then every {@code interval}. */
  public static GpuMetricsScraper start(List<URI> endpoints, Duration interval,
      boolean insecureTls) {
    List<ScrapeLoop<GpuSample>> loops = new ArrayList<>();
    for (URI endpoint : endpoints) {
      loops.add(loop(endpoint, interval, insecureTls).start());
    }
    return new GpuMetricsScraper(List.copyOf(loops));
  }

  /**
   * Scrapes each endpoint {@code times} times on the calling thread and keeps nothing, so that
   * the scrapes inside the measured window find their code compiled; logs nothing.
   */
  public static void warmUp(List<URI> endpoints, boolean insecureTls, int times) {
    for (URI endpoint : endpoints) {
      loop(endpoint, Duration.ofSeconds(1), insecureTls).warmUp(times);
    }
  }

  /** Stops every loop after one last scrape and hands back what each endpoint gave. */
  public List<GpuSeries> stop() {
    List<GpuSeries> out = new ArrayList<>();
    for (ScrapeLoop<GpuSample> loop : loops) {
      loop.stop(true);
      out.add(new GpuSeries(AuxHttp.redact(loop.endpoint()), loop.interval().toNanos() / 1e9,
          loop.samples(), loop.failed(), loop.status()));
    }
    return out;
  }
}
