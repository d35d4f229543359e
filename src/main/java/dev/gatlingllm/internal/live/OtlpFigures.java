package dev.gatlingllm.internal.live;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.RequestTimes;
import dev.gatlingllm.internal.metrics.TaskType;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporterBuilder;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentSelector;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.View;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.function.ToIntFunction;
import java.util.logging.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link LiveFigures} exported with OpenTelemetry's SDK over OTLP HTTP/protobuf (the JDK's
 * HTTP client sends). docs/live-figures.md lists the figures; their names and buckets are
 * here.
 *
 * <p>Threads: one of its own ({@code gatling-llm-live-figures}) reads the finished requests'
 * records off a queue every second and runs the SDK's periodic export; the JDK client sends
 * on its own. The event loops only count and queue. An export that fails (nothing listening,
 * a 4xx) is said once as a warning, never again, and never fails or holds up the run: the
 * SDK's own per-failure log lines are silenced for that reason.
 */
final class OtlpFigures implements LiveFigures {

  private static final Logger LOG = LoggerFactory.getLogger(LiveFigures.class);

  /** Prefix of every figure's name; Prometheus shows {@code gatling_llm_...}. */
  static final String PREFIX = "gatling_llm.";

  /**
   * TTFT buckets, seconds: fine from 5 ms to 1 s, where served models' first tokens fall, then
   * coarse up to a queue of minutes.
   */
  static final List<Double> TTFT_BUCKETS = List.of(0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1,
      0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0);
  /**
   * ITL buckets, seconds: a token every 1 ms (a fast server, or several per chunk) to 1 s (a
   * stall), finest around the 5 to 50 ms of decoding at load.
   */
  static final List<Double> ITL_BUCKETS = List.of(0.001, 0.0025, 0.005, 0.0075, 0.01, 0.0125,
      0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 2.5, 5.0);
  /** E2EL buckets, seconds: from a short answer (0.1 s) to a long generation under load. */
  static final List<Double> E2EL_BUCKETS = List.of(0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0,
      5.0, 7.5, 10.0, 15.0, 20.0, 30.0, 45.0, 60.0, 90.0, 120.0, 180.0, 300.0, 600.0);

  /** How often the finished requests are read off the queue (the export reads them later). */
  private static final Duration DRAIN_PERIOD = Duration.ofSeconds(1);
  /** The longest a run's end waits for the last export. */
  static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
  /** The longest one export may take; shorter with a shorter interval. */
  private static final Duration EXPORT_TIMEOUT = Duration.ofSeconds(5);

  /**
   * The SDK's exporter and its periodic reader log every failed export through
   * java.util.logging (SEVERE, then "Exporter failed"); this class says it once itself. Held
   * here: java.util.logging keeps its loggers weakly.
   */
  private static final List<java.util.logging.Logger> SDK_EXPORT_LOGS = List.of(
      java.util.logging.Logger.getLogger("io.opentelemetry.exporter"),
      java.util.logging.Logger.getLogger("io.opentelemetry.sdk.metrics.export"));

  private final OtlpSettings settings;
  private final ToIntFunction<String> countOutput;
  private final Attributes attributes;
  private final ScheduledExecutorService thread;
  private final SdkMeterProvider provider;
  private final ScheduledFuture<?> draining;
  private final DoubleHistogram ttft;
  private final DoubleHistogram itl;
  private final DoubleHistogram e2el;

  private final LongAdder sent = new LongAdder();
  private final LongAdder ended = new LongAdder();
  private final ConcurrentLinkedQueue<RequestRecord> finished = new ConcurrentLinkedQueue<>();
  // written by drain() (one thread at a time), read by the export's callbacks
  private final LongAdder completed = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final LongAdder outputTokens = new LongAdder();
  private final LongAdder inputTokens = new LongAdder();
  /**
   * (time, output tokens so far) after each read of the queue, over the last window: the
   * throughput is read over a window of fixed length, so the run's last export, made soon
   * after the one before, does not divide a second's tokens by a fraction of one. Guarded by
   * this.
   */
  private final ArrayDeque<long[]> tokenSamples = new ArrayDeque<>();
  private final long throughputWindowNanos;
  private volatile DoubleSupplier loopLagMillis;
  private volatile String grade;
  /** Whether a failed export was said; a failed read of a record is said apart. */
  private final AtomicBoolean exportWarned = new AtomicBoolean();
  private final AtomicBoolean readWarned = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();

  private OtlpFigures(OtlpSettings settings, LiveFigures.RunLabels labels,
      ToIntFunction<String> countOutput) {
    this.settings = settings;
    this.countOutput = countOutput;
    this.attributes = Attributes.of(AttributeKey.stringKey("model"), labels.model(),
        AttributeKey.stringKey("backend"), labels.backend(),
        AttributeKey.stringKey("run_id"), labels.runId());
    SDK_EXPORT_LOGS.forEach(log -> log.setLevel(Level.OFF));
    this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "gatling-llm-live-figures");
      t.setDaemon(true);
      return t;
    });
    Duration timeout = settings.interval().compareTo(EXPORT_TIMEOUT) < 0
        ? settings.interval() : EXPORT_TIMEOUT;
    OtlpHttpMetricExporterBuilder exporter = OtlpHttpMetricExporter.builder()
        .setEndpoint(settings.endpoint().toString())
        .setTimeout(timeout)
        .setCompression(settings.compression())
        // a run is short and the next export carries the same cumulative figures: no retries
        // piling up behind an endpoint that is not there
        .setRetryPolicy(null)
        .setMemoryMode(MemoryMode.IMMUTABLE_DATA);
    for (Map.Entry<String, String> h : settings.headers().entrySet()) {
      exporter = exporter.addHeader(h.getKey(), h.getValue());
    }
    PeriodicMetricReader reader = PeriodicMetricReader.builder(new Watched(exporter.build()))
        .setInterval(settings.interval())
        .setExecutor(thread)
        .build();
    this.provider = SdkMeterProvider.builder()
        .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(
            AttributeKey.stringKey("service.name"), "gatling-llm",
            AttributeKey.stringKey("service.instance.id"), labels.runId()))))
        .registerMetricReader(reader)
        // the SDK's figures about itself (otel.sdk.metric_reader.collection.duration) are not
        // the run's: a dashboard would list them beside the run's
        .registerView(InstrumentSelector.builder().setMeterName("io.opentelemetry.sdk.metrics")
            .build(), View.builder().setAggregation(Aggregation.drop()).build())
        .build();
    Meter meter = provider.get("dev.gatlingllm");
    this.ttft = meter.histogramBuilder(PREFIX + "ttft").setUnit("s")
        .setDescription("Time to first token of each completed request")
        .setExplicitBucketBoundariesAdvice(TTFT_BUCKETS).build();
    this.itl = meter.histogramBuilder(PREFIX + "itl").setUnit("s")
        .setDescription("Inter-token latency: each gap between two content chunks")
        .setExplicitBucketBoundariesAdvice(ITL_BUCKETS).build();
    this.e2el = meter.histogramBuilder(PREFIX + "e2el").setUnit("s")
        .setDescription("End-to-end latency of each completed request")
        .setExplicitBucketBoundariesAdvice(E2EL_BUCKETS).build();
    meter.counterBuilder(PREFIX + "requests.started").setUnit("{request}")
        .setDescription("Requests sent").buildWithCallback(m -> m.record(sent.sum(), attributes));
    meter.counterBuilder(PREFIX + "requests.completed").setUnit("{request}")
        .setDescription("Requests that succeeded (the result's completed)")
        .buildWithCallback(m -> m.record(completed.sum(), attributes));
    meter.counterBuilder(PREFIX + "requests.failed").setUnit("{request}")
        .setDescription("Requests that failed (the result's failed)")
        .buildWithCallback(m -> m.record(failed.sum(), attributes));
    meter.upDownCounterBuilder(PREFIX + "requests.in_flight").setUnit("{request}")
        .setDescription("Requests sent and not yet over")
        .buildWithCallback(m -> m.record(sent.sum() - ended.sum(), attributes));
    meter.counterBuilder(PREFIX + "tokens.output").setUnit("{token}")
        .setDescription("Output tokens of completed requests (the result's total_output_tokens)")
        .buildWithCallback(m -> m.record(outputTokens.sum(), attributes));
    meter.counterBuilder(PREFIX + "tokens.input").setUnit("{token}")
        .setDescription("Prompt tokens of completed requests (the result's total_input_tokens)")
        .buildWithCallback(m -> m.record(inputTokens.sum(), attributes));
    throughputWindowNanos = Math.max(settings.interval().toNanos(), 2 * DRAIN_PERIOD.toNanos());
    tokenSamples.add(new long[] {System.nanoTime(), 0});
    meter.gaugeBuilder(PREFIX + "output_throughput").setUnit("{token}/s")
        .setDescription("Output tokens per second over the last export interval")
        .buildWithCallback(m -> m.record(throughput(), attributes));
    meter.gaugeBuilder(PREFIX + "selfcheck.loop_lag.p99").setUnit("s")
        .setDescription("Client self-check: 99th percentile of the event loops' lag so far")
        .buildWithCallback(m -> {
          DoubleSupplier lag = loopLagMillis;
          double ms = lag == null ? Double.NaN : lag.getAsDouble();
          if (Double.isFinite(ms)) {
            m.record(ms / 1e3, attributes);
          }
        });
    meter.gaugeBuilder(PREFIX + "selfcheck.grade").ofLongs()
        .setDescription("Client self-check's grade at the run's end: 1 for the grade named")
        .buildWithCallback(m -> {
          String g = grade;
          if (g != null) {
            m.record(1, attributes.toBuilder().put("grade", g).build());
          }
        });
    this.draining = thread.scheduleWithFixedDelay(this::drainQuietly, DRAIN_PERIOD.toMillis(),
        DRAIN_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
  }

  static LiveFigures start(OtlpSettings settings, LiveFigures.RunLabels labels,
      ToIntFunction<String> countOutput) {
    OtlpFigures figures;
    try {
      figures = new OtlpFigures(settings, labels, countOutput);
    } catch (RuntimeException | LinkageError e) {
      // a class path without the SDK (a user's project that excluded it), or an SDK that
      // refuses a setting: the run goes on without its live figures
      LOG.warn("live figures: cannot start the OTLP export to {} ({}); the run goes on "
          + "without it", settings.where(), cause(e));
      return LiveFigures.NONE;
    }
    // the headers' names only: their values may be tokens
    LOG.info("live figures: exporting over OTLP to {} every {} s{}", settings.where(),
        settings.interval().toMillis() / 1000.0, settings.headers().isEmpty() ? ""
            : " with headers " + settings.headers().keySet());
    return figures;
  }

  @Override
  public void sent() {
    sent.increment();
  }

  @Override
  public void ended() {
    ended.increment();
  }

  @Override
  public void finished(RequestRecord record) {
    finished.offer(record);
  }

  @Override
  public void loopLag(DoubleSupplier p99Millis) {
    loopLagMillis = p99Millis;
  }

  /** Output tokens per second between the oldest sample of the window and the newest. */
  private synchronized double throughput() {
    long[] oldest = tokenSamples.peekFirst();
    long[] newest = tokenSamples.peekLast();
    double seconds = (newest[0] - oldest[0]) / 1e9;
    return seconds <= 0 ? 0 : (newest[1] - oldest[1]) / seconds;
  }

  private void drainQuietly() {
    try {
      drain();
    } catch (RuntimeException e) {
      // a figure lost is not worth a failed run, nor a line per second
      if (readWarned.compareAndSet(false, true)) {
        LOG.warn("live figures: could not read a finished request ({}); later ones are "
            + "exported, this is not said again", e.toString());
      }
    }
  }

  /** Reads the finished requests into the figures, by the result's rules. */
  private synchronized void drain() {
    RequestRecord r;
    while ((r = finished.poll()) != null) {
      if (!r.success()) {
        failed.increment();
        continue;
      }
      int outputLen = r.outputTokens() > 0 ? r.outputTokens()
          : countOutput.applyAsInt(r.generatedText() == null ? "" : r.generatedText());
      outputTokens.add(outputLen);
      inputTokens.add(RequestTimes.promptLen(r, TaskType.GENERATION));
      if (r.ttftNanos() >= 0) {
        ttft.record(r.ttftNanos() / 1e9, attributes);
      }
      if (r.latencyNanos() >= 0) {
        e2el.record(r.latencyNanos() / 1e9, attributes);
      }
      for (int i = 0, n = r.itlCount(); i < n; i++) {
        itl.record(r.itlMicros(i) / 1e6, attributes);
      }
      // counted last: a reader seeing it sees the request's latencies
      completed.increment();
    }
    long now = System.nanoTime();
    tokenSamples.addLast(new long[] {now, outputTokens.sum()});
    // keep one sample at or before the window's start
    while (tokenSamples.size() > 2) {
      Iterator<long[]> it = tokenSamples.iterator();
      it.next();
      if (now - it.next()[0] < throughputWindowNanos) {
        break;
      }
      tokenSamples.removeFirst();
    }
  }

  @Override
  public void close(String selfCheckGrade) {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    draining.cancel(false);
    try {
      drain();
    } catch (RuntimeException e) {
      LOG.warn("live figures: could not read the last finished requests ({})", e.toString());
    }
    grade = selfCheckGrade;
    // the SDK's shutdown collects and exports once more: the run's last figures
    Thread closing = new Thread(() -> provider.shutdown().join(CLOSE_TIMEOUT.toMillis(),
        TimeUnit.MILLISECONDS), "gatling-llm-live-figures-close");
    closing.setDaemon(true);
    closing.start();
    try {
      closing.join(CLOSE_TIMEOUT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (closing.isAlive()) {
      LOG.warn("live figures: the last export to {} did not finish within {} s; the run's "
          + "results do not depend on it", settings.where(), CLOSE_TIMEOUT.toSeconds());
    }
    thread.shutdownNow();
  }

  /**
   * The exporter, watched: the first failure is one warning naming the endpoint and the cause
   * (never a header), later ones are silent; the run never waits on it.
   */
  private final class Watched implements MetricExporter {
    private final MetricExporter exporter;

    Watched(MetricExporter exporter) {
      this.exporter = exporter;
    }

    @Override
    public CompletableResultCode export(Collection<MetricData> metrics) {
      CompletableResultCode result = exporter.export(metrics);
      result.whenComplete(() -> {
        if (!result.isSuccess() && exportWarned.compareAndSet(false, true)) {
          LOG.warn("live figures: cannot export to {} ({}); the run goes on, later failures "
              + "are not said", settings.where(), cause(result.getFailureThrowable()));
        }
      });
      return result;
    }

    @Override
    public CompletableResultCode flush() {
      return exporter.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
      return exporter.shutdown();
    }

    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType type) {
      return exporter.getAggregationTemporality(type);
    }

    @Override
    public Aggregation getDefaultAggregation(InstrumentType type) {
      return exporter.getDefaultAggregation(type);
    }

    @Override
    public MemoryMode getMemoryMode() {
      return exporter.getMemoryMode();
    }
  }

  /**
   * A failure in a few words, what a person needs to fix the endpoint: the first exception
   * below the SDK's own wrapper (the JDK's {@code ConnectException} for a closed port, which
   * often has no message) and, when it differs, its root cause.
   */
  static String cause(Throwable t) {
    if (t == null) {
      return "the export failed";
    }
    Throwable first = t;
    while (first.getClass().getName().startsWith("io.opentelemetry") && first.getCause() != null
        && first.getCause() != first) {
      first = first.getCause();
    }
    Throwable root = first;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String words = words(first);
    return root == first ? words : words + ", " + words(root);
  }

  private static String words(Throwable t) {
    String message = t.getMessage() == null ? "" : t.getMessage().lines().findFirst()
        .orElse("").strip();
    if (message.length() > 200) {
      message = message.substring(0, 200) + "...";
    }
    return t.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
  }
}
