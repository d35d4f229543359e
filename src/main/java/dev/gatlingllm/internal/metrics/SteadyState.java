package dev.gatlingllm.internal.metrics;

import java.util.Arrays;

/**
 * Throughput and latency over the steady part of a run, without its ramp-up and drain
 * (issue 29, item 1; the closed-loop rule is {@code vllm-bench}'s, see {@link
 * SteadyStateOptions}). Only successful requests take part. Times are seconds after the run's
 * origin (the benchmark start, as the detailed JSON's {@code start_times}; {@code vllm-bench}
 * counts from the first successful start instead, a difference of the first dispatch delay).
 *
 * <p><b>The window</b> is half-open, {@code [start, end)}. Closed loop: requests are in flight
 * from their start to their last content chunk ({@code start + latency}, the E2EL interval);
 * at equal times an end is counted before a start, so a request that replaces another does not
 * make a one-instant peak. The window opens at the first start that brings the count up to
 * {@code ceil(threshold × max concurrency)} (at least 1) and closes at the last end that
 * takes it below. Between the two the count may dip for an instant (a closed loop refills a
 * slot a moment after it frees it): those dips are part of the plateau, not its end.
 *
 * <p><b>Which requests count</b>:
 * <ul>
 *   <li>latencies (TTFT, TPOT, ITL, E2EL): the requests that <em>started</em> in the window.
 *       Choosing by start time does not depend on how long a request took, so long requests
 *       are not under-sampled; choosing the requests that also ended in the window would drop
 *       those longer than what is left of it (a length bias toward short requests). The price:
 *       requests started just before the end finish during the drain, at most one request
 *       length of lighter load. TPOT leaves out outputs of one token, as the run's TPOT does;
 *       the ITLs are all the gaps of those requests, pooled;</li>
 *   <li>request throughput: requests that <em>completed</em> in the window, over its length;</li>
 *   <li>output throughput: the output tokens <em>emitted</em> in the window: each request's
 *       output length spread evenly over its content chunks, counting the chunks that arrived
 *       in the window (one token per chunk, as {@code vllm-bench} counts, when the server
 *       sends one token per chunk);</li>
 *   <li>input throughput: prompt tokens of the requests started in the window (their prefill
 *       happens there), as {@code vllm-bench} counts them.</li>
 * </ul>
 *
 * @param mode             {@code closed_loop} or {@code trimmed}
 * @param startSeconds     window start, seconds after the origin
 * @param endSeconds       window end (excluded)
 * @param targetConcurrency the max concurrency (closed loop); null when trimmed
 * @param threshold        the fraction asked (closed loop); null when trimmed
 * @param thresholdAbs     {@code ceil(threshold × max concurrency)}, at least 1; 0 when trimmed
 * @param observedPeak     most requests in flight at once, counted exactly (closed loop; 0 when
 *                         trimmed)
 * @param trim             the trim asked (trimmed); null in closed loop
 * @param startedInWindow  successful requests started in the window
 * @param completedInWindow successful requests that ended in the window
 * @param requestsTotal    successful requests of the run
 * @param minWindowSeconds the minimum window applied
 * @param warning          why the window may not be representative; null when it is long enough
 */
public record SteadyState(String mode, double startSeconds, double endSeconds,
    Integer targetConcurrency, Double threshold, int thresholdAbs, int observedPeak,
    SteadyStateOptions.Trim trim, int startedInWindow, int completedInWindow, int requestsTotal,
    double minWindowSeconds, String warning, double requestThroughput, double inputThroughput,
    double outputThroughput, Latencies latencies, double p90TpotMs, double p99TpotMs) {

  public static final String CLOSED_LOOP = "closed_loop";
  public static final String TRIMMED = "trimmed";

  public double durationSeconds() {
    return endSeconds - startSeconds;
  }

  public double totalTokenThroughput() {
    return inputThroughput + outputThroughput;
  }

  /**
   * The steady state of a run, or null when there is none: closed loop off or not applicable
   * and no trim asked, an embeddings run, no successful request, a closed-loop run that never
   * reached the threshold, or a trim that leaves nothing.
   *
   * @param requests       the run's records
   * @param metrics        their metrics (output lengths, duration, task type), same order
   * @param originNanos    the run's origin
   * @param maxConcurrency the run's max concurrency; null when none
   * @param requestRate    the run's request rate ({@code +inf} = all at once)
   * @param options        how to choose the window
   * @param percentiles    the percentiles to report, as the run's
   */
  public static SteadyState compute(RecordSource requests, BenchmarkMetrics metrics,
      long originNanos, Integer maxConcurrency, double requestRate, SteadyStateOptions options,
      double[] percentiles) {
    if (metrics.taskType() != TaskType.GENERATION) {
      return null;
    }
    Runs runs = Runs.of(requests, originNanos);
    if (runs.n == 0) {
      return null;
    }
    boolean closed = options.closedLoop() && maxConcurrency != null
        && requestRate == Double.POSITIVE_INFINITY;
    double minWindow = options.minWindowSeconds(metrics.durationSeconds());
    Window w;
    if (closed) {
      w = closedLoopWindow(runs, maxConcurrency, options.threshold());
    } else if (options.trim() != null) {
      w = trimmedWindow(runs, options.trim());
    } else {
      return null;
    }
    if (w == null) {
      return null;
    }
    return figures(requests, metrics, runs, w, closed ? maxConcurrency : null,
        closed ? options.threshold() : null, closed ? null : options.trim(), minWindow,
        percentiles);
  }

  /** Successful requests' starts and ends (start + latency), seconds after the origin. */
  private record Runs(int n, int[] index, double[] start, double[] end) {
    static Runs of(RecordSource src, long origin) {
      int n = 0;
      for (int i = 0; i < src.size(); i++) {
        n += src.record(i).success() ? 1 : 0;
      }
      int[] index = new int[n];
      double[] start = new double[n];
      double[] end = new double[n];
      for (int i = 0, c = 0; i < src.size(); i++) {
        RequestRecord r = src.record(i);
        if (r.success()) {
          index[c] = i;
          start[c] = RequestTimes.startSeconds(r, origin);
          end[c++] = RequestTimes.startSeconds(r, origin) + RequestTimes.latencySeconds(r);
        }
      }
      return new Runs(n, index, start, end);
    }
  }

  /** A window and the closed-loop facts found while detecting it. */
  private record Window(double start, double end, int thresholdAbs, int peak) {}

  /** The threshold in requests: ceil(threshold × target), at least 1. */
  static int thresholdAbs(double threshold, int target) {
    // 0.95 × 20 is 19.000000000000004 in doubles: without the margin its ceiling would be 20
    return Math.max(1, (int) Math.ceil(threshold * target - 1e-9));
  }

  private static Window closedLoopWindow(Runs runs, int target, double threshold) {
    int thr = thresholdAbs(threshold, target);
    double[] starts = runs.start.clone();
    double[] ends = runs.end.clone();
    Arrays.sort(starts);
    Arrays.sort(ends);
    int i = 0;
    int j = 0;
    int now = 0;
    int peak = 0;
    double up = Double.NaN;
    double down = Double.NaN;
    while (i < starts.length || j < ends.length) {
      boolean end = i == starts.length || (j < ends.length && ends[j] <= starts[i]);
      if (end) {
        if (now >= thr && now - 1 < thr) {
          down = ends[j];
        }
        now--;
        j++;
      } else {
        if (now < thr && now + 1 >= thr && Double.isNaN(up)) {
          up = starts[i];
        }
        now++;
        peak = Math.max(peak, now);
        i++;
      }
    }
    if (Double.isNaN(up) || !(down > up)) {
      return null;
    }
    return new Window(up, down, thr, peak);
  }

  private static Window trimmedWindow(Runs runs, SteadyStateOptions.Trim trim) {
    double[] starts = runs.start.clone();
    Arrays.sort(starts);
    double lastEnd = Arrays.stream(runs.end).max().orElseThrow();
    double start;
    double end;
    if (trim.unit() == SteadyStateOptions.TrimUnit.SECONDS) {
      start = starts[0] + trim.start();
      end = lastEnd - trim.end();
    } else {
      int first = (int) trim.start();
      int last = (int) trim.end();
      if (first + last >= runs.n) {
        return null;
      }
      start = starts[first];
      // the first request trimmed at the end starts where the window stops
      end = last > 0 ? starts[runs.n - last] : lastEnd;
    }
    return end > start ? new Window(start, end, 0, 0) : null;
  }

  private static boolean in(double t, Window w) {
    return t >= w.start && t < w.end;
  }

  private static SteadyState figures(RecordSource src, BenchmarkMetrics m, Runs runs, Window w,
      Integer target, Double threshold, SteadyStateOptions.Trim trim, double minWindow,
      double[] percentiles) {
    int n = runs.n;
    int[] startedIdx = new int[n];
    int started = 0;
    int completed = 0;
    long input = 0;
    double output = 0;
    for (int k = 0; k < n; k++) {
      RequestRecord r = src.record(runs.index[k]);
      if (in(runs.end[k], w)) {
        completed++;
      }
      int[] chunks = r.chunkMicros();
      if (chunks.length > 0) {
        int inWindow = 0;
        for (int chunk : chunks) {
          inWindow += in(runs.start[k] + chunk / 1e6, w) ? 1 : 0;
        }
        output += (double) m.outputLen(runs.index[k]) * inWindow / chunks.length;
      }
      if (in(runs.start[k], w)) {
        input += RequestTimes.promptLen(r, TaskType.GENERATION);
        startedIdx[started++] = runs.index[k];
      }
    }
    LatencySamples samples = LatencySamples.of(src, Arrays.copyOf(startedIdx, started),
        m::outputLen);
    double duration = w.end - w.start;
    Distribution tpotCompat = samples.distribution(Metric.TPOT, new double[] {90, 99});
    String warning = duration < minWindow
        ? String.format(java.util.Locale.ROOT,
            "steady-state window is %.1f s (%.1f %% of the run), shorter than %.1f s: it may not "
                + "be representative", duration, 100 * duration / Math.max(m.durationSeconds(),
                1e-9), minWindow)
        : null;
    return new SteadyState(target != null ? CLOSED_LOOP : TRIMMED, w.start, w.end, target,
        threshold, w.thresholdAbs, w.peak, trim, started, completed, n, minWindow, warning,
        completed / duration, input / duration, output / duration, samples.figures(percentiles),
        tpotCompat.percentile(90), tpotCompat.percentile(99));
  }
}
