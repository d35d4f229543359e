package dev.gatlingllm.internal.metrics;

import java.util.Arrays;

/**
 * Whether the server was past saturation during a run (issue 29, item 5): requests arrived
 * faster than it finished them, so they piled up. Computed after the run from the records.
 * Everything a window uses is known at its last start except the TTFT of requests still
 * waiting for their first token then: the live check ({@code protocol.OverSaturationStop})
 * runs the same test without those, which under saturation are the slowest: it tends to fire
 * later, not earlier.
 *
 * <p><b>The test</b>, over sliding windows of {@code W} consecutive requests in start order
 * (the window ending at each request from the {@code W}-th on), with {@code s} a request's
 * start and {@code e} the end of its exchange, seconds after the origin:
 * <ol>
 *   <li><b>in flight rising</b>: at each start {@code s_k} of the window, the requests in
 *       flight {@code n_k = #{j : s_j ≤ s_k < e_j}}; the least-squares slope of {@code n_k}
 *       over {@code s_k} has {@code t ≥ t(confidence, W − 2)} (one-sided Student t), and the
 *       backlog it adds across the window, {@code slope × (s_last − s_first)}, is at least
 *       {@code minBacklogFraction × W}: at least that share of the requests offered in the
 *       window was added to the backlog;</li>
 *   <li><b>TTFT rising</b>: the slope of the successful requests' TTFT over their start has
 *       {@code t ≥ t(confidence, m − 2)} ({@code m ≥ 3} such requests);</li>
 *   <li><b>completions flat</b>: with {@code c1}, {@code c2} the requests (any outcome) that
 *       ended in the first and the second half of {@code [s_first, s_last)}, {@code c1 ≥
 *       minCompletions} and {@code c2 ≤ (1 + flatTolerance) × c1}: the server finishes no
 *       faster while the backlog grows. This is what tells saturation from a ramp-up, where
 *       in flight and TTFT rise too but completions start from nothing;</li>
 *   <li><b>sustained</b>: the window of the {@code W} requests just before also passed the
 *       in-flight test (1.): the backlog grew over {@code 2W} requests, not one window;</li>
 *   <li><b>a new backlog</b>: in flight at the window's last start is more than at any start
 *       before the window: climbing back to a level the server already carried is not a
 *       backlog.</li>
 * </ol>
 * Conditions 4 and 5 keep a server that keeps up from being marked. Its in-flight count
 * swings with the arrivals (Poisson), and on a real server TTFT and service time grow with
 * the requests in flight, so a lull followed by a return to the usual level passes 1 to 3
 * within one window; it does not rise through two windows in a row to a level never seen.
 * On constructed runs of Poisson requests at 20/s, service 0.3 to 0.75 s growing by 2 ms of
 * TTFT and 10 ms of service per request in flight, conditions 1 to 3 alone marked 22 % to
 * 62 % of 100-request runs, all five 1 % to 14 % (and none of 1,000-request runs, 0 to 14 %
 * before); FIFO servers offered 1.3 to 3 times their capacity were still marked in 97 % to
 * 100 % of seeds, about one window later. A server whose latency grows 2.5-fold with its load
 * (5 ms of TTFT, 25 ms of service per request in flight) still swings enough to be marked
 * in a share of short runs: it is close to its limit ({@code OverSaturationTest}).
 *
 * <p>The run is over-saturated from the end of the first window that passes all five
 * ({@code since_s} = its last start). The t statistics are nominal: the points of one window
 * are correlated (consecutive in-flight counts share most of their requests), so a t test
 * alone would fire too easily; the backlog ratio and the flat completions carry the weight,
 * and the t tests only ask that the rises stand out of the window's own noise.
 *
 * <p>Runs that send every request at once (rate {@code inf} with no concurrency cap) have all
 * their starts at one instant: no window has completions in its span, and none passes. They
 * are over-saturated by construction; the test is for paced loads.
 *
 * <p><b>Defaults</b>: windows of {@code max(32, requests / 10)} requests, nominal confidence
 * 0.999 (the points are correlated, see above), backlog at least 20 % of the window (so a
 * load under about 1.25 × the server's capacity is not flagged: a known limit, the price of
 * not flagging Poisson bursts), completions at most 25 % faster in the second half.
 *
 * <p><b>Measured</b> on the embedded simulator ({@code OverSaturationIntegrationTest}: TTFT
 * 20 ms, ITL 5 ms, 12 output tokens, no jitter, {@code --max-running 4}, so a request holds a
 * slot about 77 ms and the server finishes about 52 requests/s; random dataset, seed 1):
 * <ul>
 *   <li>offered 150 requests/s (150 requests): detected, since_s 0.50, in the 11th window
 *       (starts 0.29 to 0.50 s; the ten before had no window before them that rose): in-flight
 *       slope 119 /s, t 13.4 (critical 3.39), backlog 24.9 of 32, 52 in flight against at most
 *       31 before; TTFT slope +2,241 ms/s, t 11.6; completions 6 then 5;</li>
 *   <li>offered 20 requests/s (80 requests): not detected in 49 windows; the closest (starts
 *       1.96 to 3.40 s, a Poisson burst) had in-flight t 2.62, backlog 2.1 (6.4 needed), TTFT
 *       t 2.30, completions 11 then 15, 7 in flight as at most before: it fails all but one of
 *       the conditions.</li>
 * </ul>
 * With the first settings tried (confidence 0.95, backlog 10 %, tolerance 50 %) that burst
 * window passed every condition but the backlog (2.0 against 3.2): too close, hence the
 * defaults above.
 */
public final class OverSaturation {

  /**
   * The run's extra (result-JSON settings of the run, kept by its record log) holding the live
   * stop's account when {@code protocol.OverSaturationStop} ended the run early; the report
   * moves it into {@code over_saturation.stop}.
   */
  public static final String STOP_EXTRA = "over_saturation_stop";

  private OverSaturation() {}

  /**
   * The detector's settings.
   *
   * @param windowRequests     requests per window; 0 = {@code max(32, requests / 10)}
   * @param confidence         one-sided confidence of the two t tests, in (0.5, 1)
   * @param minBacklogFraction backlog added across a window, as a share of its requests
   * @param flatTolerance      how much faster completions may get in a window's second half
   * @param minCompletions     completions needed in a window's first half
   */
  public record Options(int windowRequests, double confidence, double minBacklogFraction,
      double flatTolerance, int minCompletions) {

    /** Automatic window, nominal 99.9 %, 20 % backlog, 25 % tolerance, 4 completions. */
    public static final Options DEFAULTS = new Options(0, 0.999, 0.2, 0.25, 4);

    public Options {
      if (windowRequests != 0 && windowRequests < 5) {
        throw new IllegalArgumentException("An over-saturation window needs at least 5 "
            + "requests (or 0 for automatic), got " + windowRequests);
      }
      if (!(confidence > 0.5 && confidence < 1)) {
        throw new IllegalArgumentException(
            "The over-saturation confidence must be in (0.5, 1), got " + confidence);
      }
      if (!(minBacklogFraction >= 0) || !(flatTolerance >= 0) || minCompletions < 1) {
        throw new IllegalArgumentException("Over-saturation settings must be >= 0 (at least 1 "
            + "completion), got backlog " + minBacklogFraction + ", tolerance " + flatTolerance
            + ", completions " + minCompletions);
      }
    }

    /** The window of a run of {@code requests} requests. */
    public int window(int requests) {
      return windowRequests > 0 ? windowRequests : Math.max(32, requests / 10);
    }
  }

  /**
   * The statistics of one window.
   *
   * @param startSeconds        first start of the window
   * @param endSeconds          last start of the window
   * @param requests            requests in the window
   * @param inFlightSlope       requests in flight per second
   * @param inFlightT           t statistic of that slope
   * @param inFlightCritical    the t it had to reach
   * @param backlog             requests added to the backlog across the window
   * @param ttftSlopeMsPerS     TTFT change, ms per second
   * @param ttftT               t statistic of that slope (NaN with fewer than 3 TTFTs)
   * @param ttftCritical        the t it had to reach (NaN with fewer than 3 TTFTs)
   * @param completionsFirstHalf  requests that ended in the first half
   * @param completionsSecondHalf requests that ended in the second half
   * @param inFlightAtEnd       requests in flight at the window's last start
   * @param peakInFlightBefore  the most in flight at any start before the window's first
   * @param previousWindowRose  whether the window of the {@code W} requests before this one
   *                            passed the in-flight test too (false for the first window)
   */
  public record Evidence(double startSeconds, double endSeconds, int requests,
      double inFlightSlope, double inFlightT, double inFlightCritical, double backlog,
      double ttftSlopeMsPerS, double ttftT, double ttftCritical, int completionsFirstHalf,
      int completionsSecondHalf, double inFlightAtEnd, double peakInFlightBefore,
      boolean previousWindowRose) {

    /**
     * The result JSON's {@code evidence}, its times moved by {@code shiftSeconds} (to another
     * origin); an unbounded t (no residual) is null, as JSON has no infinity.
     */
    public java.util.Map<String, Object> toJson(double shiftSeconds) {
      java.util.LinkedHashMap<String, Object> ev = new java.util.LinkedHashMap<>();
      ev.put("window_start_s", startSeconds + shiftSeconds);
      ev.put("window_end_s", endSeconds + shiftSeconds);
      ev.put("in_flight_slope_per_s", inFlightSlope);
      ev.put("in_flight_t", finite(inFlightT));
      ev.put("in_flight_t_critical", finite(inFlightCritical));
      ev.put("backlog_added", backlog);
      ev.put("ttft_slope_ms_per_s", ttftSlopeMsPerS);
      ev.put("ttft_t", finite(ttftT));
      ev.put("ttft_t_critical", finite(ttftCritical));
      ev.put("completions_first_half", completionsFirstHalf);
      ev.put("completions_second_half", completionsSecondHalf);
      ev.put("in_flight_at_end", inFlightAtEnd);
      ev.put("peak_in_flight_before", peakInFlightBefore);
      ev.put("previous_window_rose", previousWindowRose);
      return ev;
    }

    private static Double finite(double v) {
      return Double.isFinite(v) ? v : null;
    }

    /** How close the window came to both rises: the lesser of the two t over their bounds. */
    double score() {
      double a = inFlightT / inFlightCritical;
      double b = ttftT / ttftCritical;
      return Double.isNaN(a) || Double.isNaN(b) ? Double.NEGATIVE_INFINITY : Math.min(a, b);
    }
  }

  /**
   * The verdict.
   *
   * @param detected       whether a window passed
   * @param sinceSeconds   end of the first passing window; null when none passed
   * @param windowRequests the window size used
   * @param windowsTested  how many windows were tested (0: fewer requests than a window)
   * @param evidence       the first passing window, else the one that came closest; null
   *                       when no window was tested
   * @param options        the settings used
   */
  public record Result(boolean detected, Double sinceSeconds, int windowRequests,
      int windowsTested, Evidence evidence, Options options) {}

  /** Tests the run's records (any order); null for embeddings (no TTFT to trend). */
  public static Result detect(RecordSource records, TaskType task, long originNanos,
      Options options) {
    if (task != TaskType.GENERATION) {
      return null;
    }
    int n = records.size();
    double[] start = new double[n];
    double[] end = new double[n];
    double[] ttft = new double[n];
    for (int i = 0; i < n; i++) {
      RequestRecord r = records.record(i);
      start[i] = RequestTimes.startSeconds(r, originNanos);
      end[i] = (r.endNanos() - originNanos) / 1e9;
      ttft[i] = r.success() && r.ttftNanos() >= 0 ? RequestTimes.ttftSeconds(r) : Double.NaN;
    }
    return detect(start, end, ttft, options);
  }

  /**
   * Tests requests given by their times, in seconds after any origin (any order): the live
   * check ({@code protocol.OverSaturationStop}) adds the requests still in flight, with an
   * end of {@code +∞} (they have not ended: they count in flight at every later start and in
   * no half's completions) and an unknown TTFT.
   *
   * @param start start of each request
   * @param end   end of each request's exchange; {@code +∞} while it is in flight
   * @param ttft  TTFT of each successful request; NaN when failed or not known yet
   */
  public static Result detect(double[] start, double[] end, double[] ttft, Options options) {
    int n = start.length;
    if (end.length != n || ttft.length != n) {
      throw new IllegalArgumentException("start, end and TTFT of " + n + " requests, got "
          + end.length + " ends and " + ttft.length + " TTFTs");
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(start[a], start[b]));
    double[] s = new double[n];
    double[] e = new double[n];
    double[] f = new double[n];
    for (int i = 0; i < n; i++) {
      s[i] = start[order[i]];
      e[i] = end[order[i]];
      f[i] = ttft[order[i]];
    }
    double[] endsSorted = e.clone();
    Arrays.sort(endsSorted);
    // in flight just after each start: started so far (ties included) minus ended by then
    double[] inFlight = new double[n];
    for (int k = 0; k < n; k++) {
      int startedUpTo = upperBound(s, s[k]);
      inFlight[k] = startedUpTo - upperBound(endsSorted, s[k]);
    }
    // the most in flight at any start before each request's: a backlog must pass it
    double[] peakBefore = new double[n];
    for (int k = 1; k < n; k++) {
      peakBefore[k] = Math.max(peakBefore[k - 1], inFlight[k - 1]);
    }
    int w = options.window(n);
    // whether the window ending at each request saw the backlog rise past chance
    boolean[] rose = new boolean[n];
    Evidence best = null;
    int tested = 0;
    // the window slides one request at a time over running sums: O(n) whatever its size
    double x0 = n > 0 ? s[0] : 0;
    Trend.Sums load = new Trend.Sums();
    Trend.Sums ttfts = new Trend.Sums();
    Critical critical = new Critical(options.confidence());
    for (int last = 0; last < n; last++) {
      load.add(s[last] - x0, inFlight[last]);
      if (!Double.isNaN(f[last])) {
        ttfts.add(s[last] - x0, f[last] * 1000);
      }
      int first = last - w + 1;
      if (first < 0) {
        continue;
      }
      if (first > 0) {
        int out = first - 1;
        load.remove(s[out] - x0, inFlight[out]);
        if (!Double.isNaN(f[out])) {
          ttfts.remove(s[out] - x0, f[out] * 1000);
        }
      }
      tested++;
      Evidence ev = evidence(s, endsSorted, first, last, load.trend(), ttfts.trend(), critical,
          inFlight[last], peakBefore[first], first >= w && rose[first - 1]);
      rose[last] = backlogRose(ev, w, options);
      if (passes(ev, w, options)) {
        return new Result(true, ev.endSeconds(), w, tested, ev, options);
      }
      if (best == null || ev.score() > best.score()) {
        best = ev;
      }
    }
    return new Result(false, null, w, tested, best, options);
  }

  /** Critical t values by degrees of freedom, each computed once. */
  private static final class Critical {
    private final double confidence;
    private final java.util.Map<Integer, Double> byDf = new java.util.HashMap<>();

    Critical(double confidence) {
      this.confidence = confidence;
    }

    /** The critical t of a trend over {@code points} points; NaN under 3. */
    double of(int points) {
      return points < 3 ? Double.NaN
          : byDf.computeIfAbsent(points - 2, df -> Trend.quantile(confidence, df));
    }
  }

  private static boolean backlogRose(Evidence ev, int w, Options o) {
    return ev.inFlightT() >= ev.inFlightCritical()
        && ev.backlog() >= o.minBacklogFraction() * w;
  }

  private static boolean passes(Evidence ev, int w, Options o) {
    return backlogRose(ev, w, o)
        && ev.previousWindowRose()
        && ev.inFlightAtEnd() > ev.peakInFlightBefore()
        && ev.ttftT() >= ev.ttftCritical()
        && ev.completionsFirstHalf() >= o.minCompletions()
        && ev.completionsSecondHalf() <= (1 + o.flatTolerance()) * ev.completionsFirstHalf();
  }

  private static Evidence evidence(double[] s, double[] endsSorted, int first, int last,
      Trend load, Trend ttft, Critical critical, double inFlightAtEnd, double peakBefore,
      boolean previousRose) {
    double a = s[first];
    double b = s[last];
    double mid = (a + b) / 2;
    int c1 = lowerBound(endsSorted, mid) - lowerBound(endsSorted, a);
    int c2 = lowerBound(endsSorted, b) - lowerBound(endsSorted, mid);
    return new Evidence(a, b, last - first + 1, load.slope(), load.t(), critical.of(load.n()),
        load.slope() * (b - a), ttft.slope(), ttft.t(), critical.of(ttft.n()), c1, c2,
        inFlightAtEnd, peakBefore, previousRose);
  }

  /** Values {@code < v} in a sorted array. */
  private static int lowerBound(double[] sorted, double v) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Values {@code ≤ v} in a sorted array. */
  private static int upperBound(double[] sorted, double v) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] <= v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
