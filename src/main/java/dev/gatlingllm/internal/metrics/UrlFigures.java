package dev.gatlingllm.internal.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * The figures of one base URL of a run against several replicas ({@code --base-url} given more
 * than once): the requests that went to it ({@link RequestRecord#target()}), computed by the
 * run's own {@link MetricsCalculator} over the whole run's duration, so that the URLs'
 * completed, failed and throughputs add up to the run's, and their latencies follow the same
 * rules as the run's.
 *
 * @param url        the base URL (as the client reads it: scheme, host, port, path prefix)
 * @param metrics    its requests' figures
 * @param firstError why its first failed request failed (in start order); null when none
 *                   failed
 */
public record UrlFigures(String url, BenchmarkMetrics metrics, String firstError) {

  /**
   * The run's extra (and result key) listing its base URLs by target index, written only when
   * there are several: the report splits the records by it, and the record log keeps it for
   * {@code recover}.
   */
  public static final String URLS_EXTRA = "base_urls";
  /** The run's extra (and result key) naming how each request's URL was chosen. */
  public static final String STRATEGY_EXTRA = "base_url_strategy";

  /**
   * The figures of each URL, in the order given; a URL no request went to has zero counts.
   *
   * @param requests the run's requests
   * @param urls     the run's base URLs, by target index
   */
  public static List<UrlFigures> of(MetricsCalculator calculator, RecordSource requests,
      List<String> urls, double durationSeconds, long originNanos) {
    int[][] byTarget = split(requests, urls.size());
    List<UrlFigures> out = new ArrayList<>(urls.size());
    for (int t = 0; t < urls.size(); t++) {
      RecordSource part = requests.subset(byTarget[t]);
      String firstError = null;
      for (int i = 0; i < part.size() && firstError == null; i++) {
        RequestRecord r = part.record(i);
        firstError = r.success() ? null : r.error() != null ? r.error() : "failed";
      }
      out.add(new UrlFigures(urls.get(t),
          calculator.computePart(part, durationSeconds, originNanos), firstError));
    }
    return out;
  }

  /**
   * The indexes of the requests of each target, in the source's order. A target outside
   * {@code [0, targets)} (a log read with fewer URLs than it was written with) counts with the
   * last, so no request is lost from the sum.
   */
  static int[][] split(RecordSource requests, int targets) {
    int[] counts = new int[targets];
    int n = requests.size();
    int[] of = new int[n];
    for (int i = 0; i < n; i++) {
      of[i] = Math.min(Math.max(requests.record(i).target(), 0), targets - 1);
      counts[of[i]]++;
    }
    int[][] out = new int[targets][];
    for (int t = 0; t < targets; t++) {
      out[t] = new int[counts[t]];
    }
    int[] next = new int[targets];
    for (int i = 0; i < n; i++) {
      out[of[i]][next[of[i]]++] = i;
    }
    return out;
  }
}
