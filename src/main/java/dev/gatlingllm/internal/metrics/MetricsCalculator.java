package dev.gatlingllm.internal.metrics;

import java.util.List;
import java.util.Objects;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Computes {@link BenchmarkMetrics} from per-request records, as vLLM's
 * {@code calculate_metrics} does (DESIGN.md section 4). Immutable and thread-safe.
 *
 * <pre>{@code
 * MetricsCalculator calc = MetricsCalculator.builder()
 *     .percentiles(Percentiles.parse("50,90,99"))
 *     .goodput(GoodputSlo.parse("ttft:500 tpot:50"))
 *     .tokenCounter(tokenizer::countWithoutSpecialTokens)
 *     .build();
 * BenchmarkMetrics m = calc.compute(store.snapshot(), durationSeconds, benchmarkStartNanos);
 * }</pre>
 */
public final class MetricsCalculator {

  private static final Logger LOG = LoggerFactory.getLogger(MetricsCalculator.class);

  private final TaskType taskType;
  private final double[] percentiles;
  private final GoodputSlo goodput;
  private final ToIntFunction<String> tokenCounter;

  private MetricsCalculator(Builder b) {
    this.taskType = b.taskType;
    this.percentiles = b.percentiles;
    this.goodput = b.goodput;
    this.tokenCounter = b.tokenCounter;
  }

  /** Generation metrics, percentile 99, no SLOs, no tokenizer. */
  public static Builder builder() {
    return new Builder(TaskType.GENERATION, Percentiles.DEFAULT, GoodputSlo.none(), null);
  }

  /**
   * Computes the metrics.
   *
   * @param records         the run's requests; any order (results are order-independent,
   *                        {@link BenchmarkMetrics#outputLen} follows this order)
   * @param durationSeconds the benchmark duration (see {@link RunDuration})
   * @param originNanos     the benchmark start; request start times are taken relative to
   *                        it, as the detailed JSON's {@code start_times} are
   */
  public BenchmarkMetrics compute(RecordSource records, double durationSeconds, long originNanos) {
    if (!(durationSeconds >= 0)) {
      throw new IllegalArgumentException("durationSeconds must be >= 0, got " + durationSeconds);
    }
    BenchmarkMetrics m = taskType == TaskType.EMBEDDING
        ? embeddings(records, durationSeconds)
        : generation(records, durationSeconds, originNanos);
    if (m.completed() == 0 && m.failed() == 0) {
      LOG.warn("No request was recorded: did the scenario reach a completions or chat request "
          + "of this protocol?");
    } else if (m.completed() == 0) {
      LOG.warn("All requests failed. This is likely due to a misconfiguration on the benchmark "
          + "arguments ({} failed requests).", m.failed());
    } else if (durationSeconds == 0) {
      LOG.warn("The benchmark duration is 0 s: throughputs are reported as 0");
    }
    return m;
  }

  /**
   * The metrics of a part of a run ({@link RecordSource#subset}) by the very rules of the
   * whole, over the whole run's duration: one base URL's share of a run against replicas.
   * Says nothing of a part with no request or none successful (a replica that was down): the
   * whole run's figures say what is worth saying, and the part's failures are its figures.
   */
  public BenchmarkMetrics computePart(RecordSource part, double durationSeconds,
      long originNanos) {
    if (!(durationSeconds >= 0)) {
      throw new IllegalArgumentException("durationSeconds must be >= 0, got " + durationSeconds);
    }
    return taskType == TaskType.EMBEDDING ? embeddings(part, durationSeconds)
        : generation(part, durationSeconds, originNanos);
  }

  /** Computes the metrics of records held in a list, with the earliest start as origin. */
  public BenchmarkMetrics compute(List<RequestRecord> records, double durationSeconds) {
    RecordSource source = RecordSource.of(records);
    long origin = 0;
    if (!records.isEmpty()) {
      origin = Long.MAX_VALUE;
      for (RequestRecord r : records) {
        origin = Math.min(origin, r.startNanos());
      }
    }
    return compute(source, durationSeconds, origin);
  }

  /**
   * A successful request's output length as vLLM counts it: {@code usage.completion_tokens},
   * or when that is missing or zero the token count of the generated text (no special
   * tokens). Without a token counter that count is 1, as vLLM does without a tokenizer.
   */
  public int outputLen(RequestRecord record, String generatedText) {
    if (record.outputTokens() > 0) {
      return record.outputTokens();
    }
    if (tokenCounter == null) {
      return 1;
    }
    return tokenCounter.applyAsInt(generatedText == null ? "" : generatedText);
  }

  private BenchmarkMetrics generation(RecordSource src, double dur, long origin) {
    int n = src.size();
    int completed = 0;
    for (int i = 0; i < n; i++) {
      completed += src.record(i).success() ? 1 : 0;
    }
    int[] outputLens = new int[n];
    int[] successIdx = new int[completed];
    double[] ttfcs = new double[completed];
    int ttfcCount = 0;
    boolean reasoning = false;
    int c = 0;
    int good = 0;
    long totalInput = 0;
    long totalOutput = 0;
    long totalCached = 0;
    double audioSeconds = 0;
    boolean warnedNoCounter = false;
    for (int i = 0; i < n; i++) {
      RequestRecord r = src.record(i);
      if (!r.success()) {
        continue;
      }
      if (r.outputTokens() <= 0 && tokenCounter == null && !warnedNoCounter) {
        LOG.warn("The server sent no usage and no token counter is set: counting 1 output "
            + "token for such requests");
        warnedNoCounter = true;
      }
      int outLen = r.outputTokens() > 0 ? r.outputTokens() : outputLen(r, src.text(i));
      outputLens[i] = outLen;
      totalOutput += outLen;
      totalInput += RequestTimes.promptLen(r, TaskType.GENERATION);
      totalCached += Math.max(0, r.cachedTokens());
      audioSeconds += r.inputAudioSeconds();
      if (!goodput.isEmpty() && goodput.isGood(r, outLen)) {
        good++;
      }
      reasoning |= r.reasoningChunks() > 0;
      if (r.ttfcNanos() >= 0) {
        ttfcs[ttfcCount++] = r.ttfcNanos() / 1e9;
      }
      successIdx[c++] = i;
    }
    double[] peak = peaks(src, successIdx, origin);
    // a request cancelled on purpose (--cancel-fraction) is neither completed nor failed
    int failed = n - completed - Cancels.count(src);
    return new BenchmarkMetrics(TaskType.GENERATION, completed, failed, totalInput,
        totalOutput, dur,
        goodput.isEmpty() ? null : BenchmarkMetrics.perSecond(good, dur), good,
        LatencySamples.of(src, successIdx, i -> outputLens[i]).figures(percentiles),
        peak[0], (int) peak[1], outputLens,
        reasoning ? Stats.ofSeconds(ttfcs, ttfcCount, percentiles) : null, totalCached,
        audioSeconds, AnswerFigures.of(src, percentiles));
  }

  /**
   * Peak output tokens per second and peak concurrent requests: the maxima of
   * {@link #peakBuckets}.
   */
  private static double[] peaks(RecordSource src, int[] successIdx, long origin) {
    PeakBuckets b = peakBuckets(src, successIdx, origin);
    long maxTokens = 0;
    int maxRunning = 0;
    for (int k = 0; k < b.tokens().length; k++) {
      maxTokens = Math.max(maxTokens, b.tokens()[k]);
      maxRunning = Math.max(maxRunning, b.running()[k]);
    }
    return new double[] {maxTokens, maxRunning};
  }

  /**
   * The 1-second buckets vLLM takes its peaks over, from the first successful start: content
   * chunks per bucket (each at start + ttft + Σ itl, summed in that order as vLLM does) and
   * successful requests active during each bucket. The LLM report charts these very arrays,
   * so its over-time view and the result's peaks cannot disagree.
   *
   * @param t0Seconds first successful start, seconds after the origin (0 when none succeeded)
   */
  public record PeakBuckets(double t0Seconds, long[] tokens, int[] running) {}

  /** {@link PeakBuckets} of the successful requests of {@code src}. */
  public static PeakBuckets peakBuckets(RecordSource src, long origin) {
    int n = 0;
    for (int i = 0; i < src.size(); i++) {
      n += src.record(i).success() ? 1 : 0;
    }
    int[] idx = new int[n];
    for (int i = 0, c = 0; i < src.size(); i++) {
      if (src.record(i).success()) {
        idx[c++] = i;
      }
    }
    return peakBuckets(src, idx, origin);
  }

  private static PeakBuckets peakBuckets(RecordSource src, int[] successIdx, long origin) {
    if (successIdx.length == 0) {
      return new PeakBuckets(0, new long[0], new int[0]);
    }
    double t0 = Double.POSITIVE_INFINITY;
    double tEnd = Double.NEGATIVE_INFINITY;
    for (int i : successIdx) {
      RequestRecord r = src.record(i);
      double start = RequestTimes.startSeconds(r, origin);
      t0 = Math.min(t0, start);
      tEnd = Math.max(tEnd, start + RequestTimes.latencySeconds(r));
    }
    int buckets = (int) Math.ceil(tEnd - t0) + 1;
    long[] tokens = new long[buckets];
    int[] running = new int[buckets + 1]; // difference array
    for (int i : successIdx) {
      RequestRecord r = src.record(i);
      double start = RequestTimes.startSeconds(r, origin);
      double t = start + RequestTimes.ttftSeconds(r);
      count(tokens, t - t0);
      for (int k = 0; k < r.itlCount(); k++) {
        t += r.itlSeconds(k);
        count(tokens, t - t0);
      }
      int first = (int) (start - t0);
      int last = (int) (start + RequestTimes.latencySeconds(r) - t0);
      running[first]++;
      running[last + 1]--;
    }
    int[] active = new int[buckets];
    int now = 0;
    for (int b = 0; b < buckets; b++) {
      now += running[b];
      active[b] = now;
    }
    return new PeakBuckets(t0, tokens, active);
  }

  private static void count(long[] tokens, double offset) {
    int bucket = (int) offset; // Python's int(): truncation toward zero
    if (bucket >= 0 && bucket < tokens.length) {
      tokens[bucket]++;
    }
  }

  private BenchmarkMetrics embeddings(RecordSource src, double dur) {
    int n = src.size();
    double[] e2els = new double[n];
    // a pooling request waits for a --max-concurrency permit as a generation request does
    double[] queues = new double[n];
    double[] withQueue = new double[n];
    int completed = 0;
    long totalInput = 0;
    for (int i = 0; i < n; i++) {
      RequestRecord r = src.record(i);
      if (r.success()) {
        double e2el = RequestTimes.embeddingLatencySeconds(r);
        queues[completed] = r.clientQueueNanos() / 1e9;
        withQueue[completed] = e2el + queues[completed];
        e2els[completed++] = e2el;
        totalInput += RequestTimes.promptLen(r, TaskType.EMBEDDING);
      }
    }
    Distribution empty = Stats.ofSeconds(new double[0], 0, percentiles);
    return new BenchmarkMetrics(TaskType.EMBEDDING, completed, n - completed, totalInput, 0, dur,
        null, 0, new Latencies(empty, empty, empty, Stats.ofSeconds(e2els, completed, percentiles),
            Stats.ofSeconds(queues, completed, percentiles),
            Stats.ofSeconds(withQueue, completed, percentiles)),
        0.0, 0, new int[n], null, 0, 0.0, AnswerFigures.NONE);
  }

  /** Immutable builder: every call returns a new builder. */
  public static final class Builder {

    private final TaskType taskType;
    private final double[] percentiles;
    private final GoodputSlo goodput;
    private final ToIntFunction<String> tokenCounter;

    private Builder(TaskType taskType, double[] percentiles, GoodputSlo goodput,
        ToIntFunction<String> tokenCounter) {
      this.taskType = taskType;
      this.percentiles = percentiles;
      this.goodput = goodput;
      this.tokenCounter = tokenCounter;
    }

    /** Generation (default) or the reduced embeddings set. */
    public Builder taskType(TaskType taskType) {
      return new Builder(Objects.requireNonNull(taskType, "taskType"), percentiles, goodput,
          tokenCounter);
    }

    /** Percentiles to compute for every distribution, each in [0, 100]; default 99. */
    public Builder percentiles(double... percentiles) {
      return new Builder(taskType, Percentiles.validate(percentiles), goodput, tokenCounter);
    }

    /** SLOs for goodput; {@link GoodputSlo#none()} (default) reports goodput as null. */
    public Builder goodput(GoodputSlo goodput) {
      return new Builder(taskType, percentiles, Objects.requireNonNull(goodput, "goodput"),
          tokenCounter);
    }

    /**
     * Counts the tokens of a generated text (without special tokens) for requests whose
     * server sent no usage. Null (default): such requests count 1 token, as in vLLM
     * without a tokenizer.
     */
    public Builder tokenCounter(ToIntFunction<String> tokenCounter) {
      return new Builder(taskType, percentiles, goodput, tokenCounter);
    }

    public MetricsCalculator build() {
      return new MetricsCalculator(this);
    }
  }
}
