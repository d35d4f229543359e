package dev.gatlingllm.internal.metrics;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * The latency samples of a set of successful generation requests, taken with vLLM's
 * {@code calculate_metrics} rules: TTFT and E2EL of each, TPOT of those with more than one
 * output token, and every gap between content chunks (ITL), pooled; and vLLM 0.29's client
 * queue time (the wait for a concurrency permit) and E2EL plus that wait, of each. The whole
 * run's figures,
 * the steady-state window, each turn and the report's histograms all take their samples here.
 * Statistics do not depend on the order the requests come in (samples are sorted first).
 */
public final class LatencySamples {

  /** One metric's samples: seconds, or microseconds for ITL (4 bytes a gap instead of 8). */
  private record Sample(double[] seconds, int[] micros, int n) {
    Distribution stats(double[] percentiles) {
      return seconds != null ? Stats.ofSeconds(seconds, n, percentiles)
          : Stats.ofMicros(micros, n, percentiles);
    }

    double[] millis() {
      double[] out = new double[n];
      for (int i = 0; i < n; i++) {
        out[i] = seconds != null ? seconds[i] * 1e3 : micros[i] / 1e6 * 1e3;
      }
      return out;
    }
  }

  private final Map<Metric, Sample> samples = new EnumMap<>(Metric.class);

  private LatencySamples(double[] ttfts, double[] tpots, double[] e2els, int[] itlMicros,
      double[] queues, double[] e2elsWithQueue, int count, int tpotCount) {
    samples.put(Metric.TTFT, new Sample(ttfts, null, count));
    samples.put(Metric.TPOT, new Sample(tpots, null, tpotCount));
    samples.put(Metric.ITL, new Sample(null, itlMicros, itlMicros.length));
    samples.put(Metric.E2EL, new Sample(e2els, null, count));
    samples.put(Metric.CLIENT_QUEUE_TIME, new Sample(queues, null, count));
    samples.put(Metric.E2EL_INCLUDING_CLIENT_QUEUE, new Sample(e2elsWithQueue, null, count));
  }

  /**
   * The samples of some requests of a source; failed ones are passed over.
   *
   * @param src       the requests
   * @param indexes   which of them, by index in {@code src}
   * @param outputLen a request's output length (as the run's metrics counted it) by its index
   */
  public static LatencySamples of(RecordSource src, int[] indexes, IntUnaryOperator outputLen) {
    long itlTotal = 0;
    for (int i : indexes) {
      RequestRecord r = src.record(i);
      itlTotal += r.success() ? r.itlCount() : 0;
    }
    if (itlTotal > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("Too many inter-token latencies to pool: " + itlTotal);
    }
    double[] ttfts = new double[indexes.length];
    double[] tpots = new double[indexes.length];
    double[] e2els = new double[indexes.length];
    double[] queues = new double[indexes.length];
    double[] e2elsWithQueue = new double[indexes.length];
    int[] itls = new int[(int) itlTotal];
    int c = 0;
    int tpotCount = 0;
    int itlCount = 0;
    for (int i : indexes) {
      RequestRecord r = src.record(i);
      if (!r.success()) {
        continue;
      }
      int outLen = outputLen.applyAsInt(i);
      double ttft = RequestTimes.ttftSeconds(r);
      double latency = RequestTimes.latencySeconds(r);
      if (outLen > 1) {
        tpots[tpotCount++] = RequestTimes.tpotSeconds(ttft, latency, outLen);
      }
      for (int k = 0; k < r.itlCount(); k++) {
        itls[itlCount++] = r.itlMicros(k);
      }
      double queue = r.clientQueueNanos() / 1e9;
      ttfts[c] = ttft;
      queues[c] = queue;
      e2elsWithQueue[c] = latency + queue;
      e2els[c++] = latency;
    }
    return new LatencySamples(ttfts, tpots, e2els, itls, queues, e2elsWithQueue, c, tpotCount);
  }

  /** Every metric's distribution with these percentiles. */
  public Latencies figures(double[] percentiles) {
    return new Latencies(distribution(Metric.TTFT, percentiles),
        distribution(Metric.TPOT, percentiles), distribution(Metric.ITL, percentiles),
        distribution(Metric.E2EL, percentiles),
        distribution(Metric.CLIENT_QUEUE_TIME, percentiles),
        distribution(Metric.E2EL_INCLUDING_CLIENT_QUEUE, percentiles));
  }

  /** One metric's distribution with these percentiles (sorts its samples in place). */
  public Distribution distribution(Metric metric, double[] percentiles) {
    return samples.get(metric).stats(percentiles);
  }

  /** One metric's samples in milliseconds, in no particular order. */
  public double[] millis(Metric metric) {
    return samples.get(metric).millis();
  }
}
