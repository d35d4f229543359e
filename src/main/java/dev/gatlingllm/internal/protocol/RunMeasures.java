package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.client.LlmClient;
import dev.gatlingllm.internal.live.LiveFigures;
import dev.gatlingllm.internal.selfcheck.SelfCheck;
import dev.gatlingllm.internal.selfcheck.SelfCheckReport;
import dev.gatlingllm.internal.servermetrics.GpuMetricsScraper;
import dev.gatlingllm.internal.servermetrics.GpuSeries;
import dev.gatlingllm.internal.servermetrics.ServerMetricsScraper;
import dev.gatlingllm.internal.servermetrics.ServerSeries;
import io.netty.channel.EventLoopGroup;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * What the run measures from its first send to its end: the self-check (the client's own
 * distortion), the server's metrics, when the first request went out, and, when asked, a
 * live stop ({@link RunStop}: over-saturation's test, {@link OverSaturationStop}, and the
 * server compliance watch's first finding, {@link ComplianceWatch}), and the live figures'
 * counts of requests sent and over ({@link LiveFigures}, when exported), and the probe
 * requests sent beside the run ({@link ProbeRequests}, when asked). Nothing runs until
 * {@link #start()}, which the request action calls at the first send, so the window is the
 * run's, not the warm-up's or an injector's lead; the results stop it.
 */
public final class RunMeasures {

  private final EventLoopGroup loops;
  private final LlmClient client;
  /** Starts scraping the servers' metrics (one per replica); null when off (or for a rehearsal). */
  private final Supplier<List<ServerMetricsScraper>> scraping;
  /** Ends the run from within; null when no live stop is asked for (or for a rehearsal). */
  private final RunStop runStop;
  /** Starts the over-saturation stop; null when off (or for a rehearsal). */
  private final Supplier<OverSaturationStop> stopping;
  /** The run's live figures; {@link LiveFigures#NONE} when not exported (or for a rehearsal). */
  private final LiveFigures live;
  private final AtomicLong firstSendNanos = new AtomicLong(Long.MAX_VALUE);
  /** Null before {@link #start()}. */
  private volatile SelfCheck selfCheck;
  /** Null before {@link #start()}, or when the server's metrics are not scraped. */
  private volatile List<ServerMetricsScraper> serverMetrics;
  /** Starts scraping the GPUs' energy; null when off (or for a rehearsal). */
  private Supplier<GpuMetricsScraper> gpuScraping;
  /** Null before {@link #start()}, or when no GPU metrics are scraped. */
  private volatile GpuMetricsScraper gpuMetrics;
  /** Null before {@link #start()}, or when the run is not stopped on over-saturation. */
  private volatile OverSaturationStop overSaturationStop;
  /** The run's probe requests ({@code --probe-request-rate}); null when there are none. */
  private volatile ProbeRequests probes;

  RunMeasures(EventLoopGroup loops, LlmClient client,
      Supplier<List<ServerMetricsScraper>> scraping,
      RunStop runStop, Supplier<OverSaturationStop> stopping, LiveFigures live) {
    this.loops = loops;
    this.live = live;
    this.runStop = runStop;
    this.client = client;
    this.scraping = scraping;
    this.stopping = stopping;
  }

  /**
   * Also scrapes the GPUs' energy from the run's first send ({@code --gpu-metrics-url});
   * called once, while the run is put together, before {@link #start()}.
   */
  RunMeasures withGpuScraping(Supplier<GpuMetricsScraper> scraping) {
    this.gpuScraping = scraping;
    return this;
  }

  /**
   * Starts the self-check, hooks it to the client's writes and retries, and starts scraping
   * the server's metrics; once: later calls give the started self-check.
   */
  public SelfCheck start() {
    SelfCheck check = selfCheck;
    return check != null ? check : startOnce();
  }

  private synchronized SelfCheck startOnce() {
    if (selfCheck == null) {
      SelfCheck started = SelfCheck.start(loops);
      client.onWritten(started::recordWrite);
      client.onResent(started::recordConnectionRetry);
      if (scraping != null) {
        serverMetrics = scraping.get();
      }
      if (gpuScraping != null) {
        gpuMetrics = gpuScraping.get();
      }
      if (stopping != null) {
        overSaturationStop = stopping.get();
      }
      live.loopLag(started::loopLagP99MillisSoFar);
      selfCheck = started;
    }
    return selfCheck;
  }

  /** Whether {@link #start()} was called: the run's first request is on its way. */
  boolean started() {
    return selfCheck != null;
  }

  /** Stops the self-check and gives its figures; null when it never started. */
  public SelfCheckReport stopSelfCheck() {
    SelfCheck check = selfCheck;
    if (check == null) {
      return null;
    }
    client.onWritten(nanos -> { });
    client.onResent(() -> { });
    if (!client.reusesConnections()) {
      check.recordConnectionReuseStopped();
    }
    return check.stop();
  }

  /**
   * Stops scraping the servers' metrics and gives their series, the first replica's first;
   * empty when it never started.
   */
  List<ServerSeries> stopServerMetrics() {
    List<ServerMetricsScraper> scrapers = serverMetrics;
    return scrapers == null ? List.of()
        : scrapers.stream().map(ServerMetricsScraper::stop).toList();
  }

  /**
   * Stops scraping the GPUs' energy (after one last scrape) and gives each endpoint's series;
   * null when it never started.
   */
  List<GpuSeries> stopGpuMetrics() {
    GpuMetricsScraper scraper = gpuMetrics;
    return scraper == null ? null : scraper.stop();
  }

  /**
   * A request is about to be sent (after {@link #start()}): null when no live stop is asked
   * for, {@link RunStop#STOPPED} when the run was stopped and the request must not go out
   * (it fails with {@link #refusal()}), else the request's ticket for {@link #ended}.
   */
  public RunStop.Ticket sending() {
    RunStop stop = runStop;
    RunStop.Ticket ticket = stop == null ? null : stop.sending();
    if (ticket != RunStop.STOPPED) {
      live.sent();
    }
    return ticket;
  }

  /** Why a request is refused once the run was stopped from within; null while it runs. */
  public String refusal() {
    RunStop stop = runStop;
    return stop == null ? null : stop.refusal();
  }

  /**
   * The request of {@code ticket} (from {@link #sending()}) ended; false when its run was
   * stopped from within and its results are already written: it must not be recorded.
   */
  public boolean ended(RunStop.Ticket ticket) {
    live.ended();
    RunStop stop = runStop;
    return ticket == null || stop == null || stop.ended(ticket);
  }

  /**
   * Ends the live stops as the results are written (no later stop, no later record): the
   * result JSON's account of the over-saturation stop (seconds after {@code
   * benchmarkStartNanos}), null when the run was not stopped on over-saturation.
   */
  Map<String, Object> closeOverSaturationStop(long benchmarkStartNanos) {
    RunStop stop = runStop;
    if (stop != null) {
      stop.close();
    }
    OverSaturationStop watch = overSaturationStop;
    return watch == null ? null : watch.close(benchmarkStartNanos);
  }

  /**
   * Exports the live figures one last time, with the self-check's grade (null: not graded),
   * and stops them; bounded in time, never throws, idempotent.
   */
  void closeLiveFigures(String selfCheckGrade) {
    live.close(selfCheckGrade);
  }

  /** Makes {@code probes} the run's: its results stop them and report them. */
  void attachProbes(ProbeRequests probes) {
    this.probes = probes;
  }

  /**
   * Stops the run's probes and gives what they did (see {@link ProbeRequests#stop()}); null
   * when it sends none. Blocks: never call it on an event loop.
   */
  ProbeRequests.Outcome stopProbes() {
    ProbeRequests sent = probes;
    return sent == null ? null : sent.stop();
  }

  /** Marks a send; the earliest one is the start of the benchmark duration. */
  public void markSend(long nanos) {
    firstSendNanos.accumulateAndGet(nanos, Math::min);
  }

  /** When the first request of the run was sent, or -1 when none was. */
  long firstSendNanos() {
    long v = firstSendNanos.get();
    return v == Long.MAX_VALUE ? -1 : v;
  }
}
