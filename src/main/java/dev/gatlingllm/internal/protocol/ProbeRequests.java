package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.client.ChunkReader;
import dev.gatlingllm.internal.client.LlmClient;
import dev.gatlingllm.internal.client.LlmRequest;
import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * vLLM 0.29's {@code --probe-request-rate}: single-token requests sent at a fixed rate beside
 * the run, on the run's client but outside its {@code --max-concurrency} cap, its record store
 * and Gatling's statistics. They show the latency a caller who does not queue behind the
 * benchmark would see under its load; the benchmark's own figures never include them.
 *
 * <p>Bounded: the probes stop once the run has recorded all its requests (or when its
 * results are written, whichever comes first), and those still in flight then are given
 * {@link #DRAIN} to finish; any left are counted as unfinished, not measured.
 *
 * <p>Thread-safe: ticks run on one event loop, completions on the loop that read the answer,
 * {@link #stop()} on the thread that writes the results.
 */
public final class ProbeRequests {

  /**
   * One probe's request: path, body bytes, content type, prompt length, and how its API's
   * answer is read (a Responses or Messages stream is not the OpenAI chunk).
   */
  public record Body(String path, byte[] bytes, String contentType, int promptTokens,
      ChunkReader reader) {
    public Body {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(bytes, "bytes");
      Objects.requireNonNull(contentType, "contentType");
      Objects.requireNonNull(reader, "reader");
    }

    /** A request of an OpenAI API (completions, chat). */
    public Body(String path, byte[] bytes, String contentType, int promptTokens) {
      this(path, bytes, contentType, promptTokens, ChunkReader.OPENAI);
    }
  }

  /**
   * What the probes did.
   *
   * @param ratePerSecond the probe rate
   * @param sent          probes sent (or that failed before their send)
   * @param unfinished    probes still in flight when the drain ended: in no figure
   * @param records       every finished probe's record, successful or not
   */
  public record Outcome(double ratePerSecond, int sent, int unfinished,
      List<RequestRecord> records) {}

  /** The name of a probe's record (never a Gatling row). */
  public static final String NAME = "probe";
  /** How long {@link #stop()} waits for probes in flight. */
  static final Duration DRAIN = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(ProbeRequests.class);

  private final double ratePerSecond;
  private final IntFunction<Body> bodies;
  private final String idPrefix;
  private final int runRequests;
  private final ConcurrentLinkedQueue<RequestRecord> finished = new ConcurrentLinkedQueue<>();
  private final AtomicInteger sent = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final AtomicBoolean warnedUnbuilt = new AtomicBoolean();
  private volatile ScheduledFuture<?> ticks;
  private volatile Outcome outcome;

  /**
   * @param ratePerSecond probes a second, finite and above 0
   * @param bodies        the request of probe {@code k} (0, 1, ...): one output token asked
   * @param idPrefix      the probes' {@code x-request-id} prefix (followed by {@code k})
   * @param runRequests   how many requests the run records: the probes stop once it has
   * @throws IllegalArgumentException for a rate that is not a finite number above 0
   */
  public ProbeRequests(double ratePerSecond, IntFunction<Body> bodies, String idPrefix,
      int runRequests) {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("the probe rate must be a finite number of probes a "
          + "second above 0, got " + ratePerSecond);
    }
    this.ratePerSecond = ratePerSecond;
    this.bodies = Objects.requireNonNull(bodies, "bodies");
    this.idPrefix = Objects.requireNonNull(idPrefix, "idPrefix");
    this.runRequests = runRequests;
  }

  /**
   * Starts the probes on the run's first event loop, a period apart from the first one that
   * finds the run started, and hands them to the run's measures, which its results stop.
   * Of the run they take its loops and client (setup), its measures (started yet?) and its
   * requests (how many are recorded, the headers each is sent with).
   */
  public void start(RunParts run) {
    EventLoop loop = run.setup().eventLoops().get(0);
    long period = Math.max(1, Math.round(1e9 / ratePerSecond));
    RunMeasures measures = run.measures();
    RunRequests requests = run.requests();
    LlmClient client = run.setup().client();
    measures.attachProbes(this);
    ticks = loop.scheduleAtFixedRate(() -> tick(measures, requests, client, loop), period,
        period, TimeUnit.NANOSECONDS);
  }

  private void tick(RunMeasures measures, RunRequests requests, LlmClient client,
      EventLoop loop) {
    if (stopped.get()) {
      return;
    }
    if (!measures.started()) {
      // no request of the run is on its way yet (its warm-up, or users injected ahead of
      // their arrivals, may be): no load to probe
      return;
    }
    if (requests.store().size() >= runRequests) {
      // the run is over: a probe now would see an idle server
      halt();
      return;
    }
    int k = sent.getAndIncrement();
    long now = System.nanoTime();
    LlmRequest request;
    try {
      Body body = bodies.apply(k);
      HttpHeaders headers = requests.headers(idPrefix + k);
      headers.set(HttpHeaderNames.CONTENT_TYPE, body.contentType());
      request = new LlmRequest(NAME, body.path(), headers, body.bytes(), body.promptTokens(),
          LlmRequest.NOT_SCHEDULED, false, body.reader());
    } catch (RuntimeException e) {
      if (warnedUnbuilt.compareAndSet(false, true)) {
        LOG.warn("a probe request could not be built: {}", e.toString(), e);
      }
      finished.add(RequestRecord.builder(NAME).startNanos(now)
          .error("probe not built: " + e.getClass().getSimpleName()).build());
      return;
    }
    inFlight.incrementAndGet();
    if (stopped.get()) {
      // stop() began between the first check and here: its count must hold every probe sent
      inFlight.decrementAndGet();
      sent.decrementAndGet();
      return;
    }
    try {
      client.send(loop, request, record -> {
        finished.add(record);
        inFlight.decrementAndGet();
      });
    } catch (RuntimeException e) {
      inFlight.decrementAndGet();
      finished.add(RequestRecord.builder(NAME).startNanos(now)
          .error("probe not sent: " + e.getClass().getSimpleName()).build());
    }
  }

  private void halt() {
    stopped.set(true);
    ScheduledFuture<?> t = ticks;
    if (t != null) {
      t.cancel(false);
    }
  }

  /**
   * Stops sending, waits up to {@link #DRAIN} for the probes in flight and gives what they
   * did; later calls give the same outcome. Blocks: never call it on an event loop.
   */
  public synchronized Outcome stop() {
    if (outcome != null) {
      return outcome;
    }
    halt();
    long deadline = System.nanoTime() + DRAIN.toNanos();
    while (inFlight.get() > 0 && deadline - System.nanoTime() > 0) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    int unfinished = inFlight.get();
    if (unfinished > 0) {
      LOG.warn("{} probe requests were still in flight {} s after the run: they are left out",
          unfinished, DRAIN.toSeconds());
    }
    outcome = new Outcome(ratePerSecond, sent.get(), unfinished, List.copyOf(finished));
    return outcome;
  }
}
