package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.GoodputSlo;
import dev.gatlingllm.internal.metrics.LatencySamples;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.MetricsCalculator;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestPhases;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.RequestTimes;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.options.ResultOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * What the LLM report page draws, as one JSON-ready map. Headline figures are the result
 * JSON's own values ({@code result}); everything else is laid out from the same records the
 * figures were computed from, with the calculator's per-request values (output lengths,
 * TPOT, the goodput rule) and its peak buckets: nothing here recomputes a headline figure.
 */
public final class ReportData {

  /** Default ITL colour thresholds of the timeline (see {@link ResultOptions}). */
  public static final double[] DEFAULT_THRESHOLDS_MS = ResultOptions.defaultTimelineThresholdsMs();
  /** Numbers the timeline may hold before it draws every k-th request only. */
  static final int TIMELINE_BUDGET = 1_500_000;
  private static final int BINS = 40;
  private static final int MAX_REASON = 90;
  private static final int MAX_REASONS = 8;
  private static final Pattern DIGITS = Pattern.compile("\\d+");

  private ReportData() {}

  /**
   * @param result      the result JSON's figures (no per-request arrays)
   * @param requests    the run's requests in start order
   * @param outputLens  output length of each request of {@code requests} (0 when failed)
   * @param origin      benchmark start, the origin of every time on the page
   * @param slos        the goodput SLOs the result was computed with
   * @param thresholds  ITL colour thresholds of the timeline, ms, ascending
   */
  /** The percentiles of the report's phase table, whatever the result's are. */
  private static final double[] PHASE_PERCENTILES = {50, 90, 99};

  public static Map<String, Object> build(Map<String, Object> result, RecordSource requests,
      int[] outputLens, long origin, GoodputSlo slos, double[] thresholds) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("kind", "run");
    data.put("result", result);
    data.put("slos", slos.asMap());
    boolean generation = result.containsKey("total_output_tokens");
    data.put("task", generation ? TaskType.GENERATION.name() : TaskType.EMBEDDING.name());
    data.put("requests", requests.size());
    data.put("failures", failures(requests));
    RequestPhases phases = RequestPhases.of(requests, PHASE_PERCENTILES);
    if (phases.measured()) {
      data.put("phases", PhaseReport.json(phases));
    }
    if (generation) {
      data.put("overTime", overTime(requests, origin));
      data.put("hist", histograms(requests, outputLens));
      data.put("goodput", goodput(requests, outputLens, slos));
      data.put("timeline", timeline(requests, origin, thresholds));
    } else {
      data.put("hist", Map.of("e2el", hist(values(requests, r -> r.success()
          ? RequestTimes.embeddingLatencySeconds(r) * 1e3 : Double.NaN), false)));
    }
    return data;
  }

  private interface Value {
    double of(RequestRecord r);
  }

  private static double[] values(RecordSource rs, Value v) {
    double[] out = new double[rs.size()];
    int n = 0;
    for (int i = 0; i < rs.size(); i++) {
      double x = v.of(rs.record(i));
      if (!Double.isNaN(x)) {
        out[n++] = x;
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** A low-cardinality reason: cut short, numbers after the status replaced by #. */
  static String reason(RequestRecord r) {
    String e = ResultDocument.error(r);
    String head = e.length() <= MAX_REASON ? e : e.substring(0, MAX_REASON) + "…";
    int status = head.startsWith("HTTP ") ? head.indexOf(": ") : -1;
    int from = status < 0 ? 0 : status + 2;
    return head.substring(0, from) + DIGITS.matcher(head.substring(from)).replaceAll("#");
  }

  private static List<Map<String, Object>> failures(RecordSource rs) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (int i = 0; i < rs.size(); i++) {
      if (!rs.record(i).success() && !rs.record(i).cancelled()) {
        counts.merge(reason(rs.record(i)), 1, Integer::sum);
      }
    }
    List<Map<String, Object>> out = new ArrayList<>();
    counts.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).forEach(e -> {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("reason", e.getKey());
      row.put("count", e.getValue());
      out.add(row);
    });
    return out;
  }

  /**
   * One-second buckets on the grid of vLLM's peaks (from the first successful start, or the
   * origin when nothing succeeded), widened to cover failures and starts outside it.
   */
  private static Map<String, Object> overTime(RecordSource rs, long origin) {
    MetricsCalculator.PeakBuckets peaks = MetricsCalculator.peakBuckets(rs, origin);
    double t0 = peaks.t0Seconds();
    int lo = 0;
    int hi = peaks.tokens().length - 1;
    for (int i = 0; i < rs.size(); i++) {
      RequestRecord r = rs.record(i);
      double start = RequestTimes.startSeconds(r, origin);
      lo = Math.min(lo, bucket(start, t0));
      hi = Math.max(hi, bucket(start + (r.endNanos() - r.startNanos()) / 1e9, t0));
    }
    int n = Math.max(0, hi - lo + 1);
    double[] time = new double[n];
    long[] chunks = new long[n];
    int[] running = new int[n];
    int[] started = new int[n];
    int[] completed = new int[n];
    List<List<Double>> ttfts = buckets(n);
    List<List<Double>> itls = buckets(n);
    Map<String, int[]> failed = new LinkedHashMap<>();
    for (int k = 0; k < n; k++) {
      time[k] = round3(t0 + lo + k);
    }
    for (int k = 0; k < peaks.tokens().length; k++) {
      chunks[k - lo] = peaks.tokens()[k];
      running[k - lo] = peaks.running()[k];
    }
    for (int i = 0; i < rs.size(); i++) {
      RequestRecord r = rs.record(i);
      double start = RequestTimes.startSeconds(r, origin);
      started[bucket(start, t0) - lo]++;
      if (r.cancelled()) {
        continue; // cancelled on purpose: no failure, and no completion
      }
      if (!r.success()) {
        int b = bucket(start + (r.endNanos() - r.startNanos()) / 1e9, t0) - lo;
        failed.computeIfAbsent(reason(r), k -> new int[n])[at(b, n)]++;
        continue;
      }
      double ttft = RequestTimes.ttftSeconds(r);
      completed[at(bucket(start + RequestTimes.latencySeconds(r), t0) - lo, n)]++;
      ttfts.get(at(bucket(start, t0) - lo, n)).add(ttft * 1e3);
      double t = start + ttft;
      for (int k = 0; k < r.itlCount(); k++) {
        double itl = r.itlSeconds(k);
        t += itl;
        itls.get(at(bucket(t, t0) - lo, n)).add(itl * 1e3);
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("t0", round3(t0));
    out.put("time", time);
    out.put("chunks", chunks);
    out.put("running", running);
    out.put("started", started);
    out.put("completed", completed);
    out.put("failed", topReasons(failed));
    out.put("ttft", bucketPercentiles(ttfts));
    out.put("itl", bucketPercentiles(itls));
    return out;
  }

  /** The most frequent reasons by name, the rest summed as "other reasons". */
  private static Map<String, int[]> topReasons(Map<String, int[]> failed) {
    List<Map.Entry<String, int[]>> sorted = new ArrayList<>(failed.entrySet());
    sorted.sort((a, b) -> Integer.compare(sum(b.getValue()), sum(a.getValue())));
    Map<String, int[]> out = new LinkedHashMap<>();
    for (int i = 0; i < sorted.size(); i++) {
      if (i < MAX_REASONS) {
        out.put(sorted.get(i).getKey(), sorted.get(i).getValue());
      } else {
        int[] other = out.computeIfAbsent("other reasons",
            k -> new int[sorted.get(0).getValue().length]);
        int[] v = sorted.get(i).getValue();
        for (int k = 0; k < v.length; k++) {
          other[k] += v[k];
        }
      }
    }
    return out;
  }

  private static int sum(int[] v) {
    return Arrays.stream(v).sum();
  }

  /** A bucket index kept on the grid (a chunk summed from microsecond ITLs may pass the end). */
  private static int at(int k, int n) {
    return Math.max(0, Math.min(n - 1, k));
  }

  private static int bucket(double t, double t0) {
    return (int) Math.floor(t - t0);
  }

  private static List<List<Double>> buckets(int n) {
    List<List<Double>> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      out.add(new ArrayList<>());
    }
    return out;
  }

  private static Map<String, Object> bucketPercentiles(List<List<Double>> buckets) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int p : new int[] {50, 90, 99}) {
      Double[] v = new Double[buckets.size()];
      for (int k = 0; k < v.length; k++) {
        List<Double> b = buckets.get(k);
        if (!b.isEmpty()) {
          double[] sorted = b.stream().mapToDouble(Double::doubleValue).sorted().toArray();
          v[k] = round3(percentile(sorted, p));
        }
      }
      out.put("p" + p, v);
    }
    return out;
  }

  /** Linear interpolation between closest ranks (numpy's default) of sorted values. */
  static double percentile(double[] sorted, double p) {
    double pos = (sorted.length - 1) * p / 100.0;
    int below = (int) Math.floor(pos);
    int above = Math.min(below + 1, sorted.length - 1);
    return sorted[below] + (sorted[above] - sorted[below]) * (pos - below);
  }

  private static Map<String, Object> histograms(RecordSource rs, int[] outputLens) {
    int n = rs.size();
    double[] input = new double[n];
    double[] output = new double[n];
    int c = 0;
    for (int i = 0; i < n; i++) {
      RequestRecord r = rs.record(i);
      input[i] = RequestTimes.promptLen(r, TaskType.GENERATION);
      if (r.success()) {
        output[c++] = outputLens[i];
      }
    }
    LatencySamples samples = LatencySamples.of(rs, IntStream.range(0, n).toArray(),
        i -> outputLens[i]);
    Map<String, Object> out = new LinkedHashMap<>();
    // the client's queue is a table row when selected, not a histogram (all 0 without a cap)
    for (Metric metric : Metric.ANSWER) {
      out.put(metric.key(), hist(samples.millis(metric), false));
    }
    out.put("input_len", hist(input, true));
    out.put("output_len", hist(Arrays.copyOf(output, c), true));
    return out;
  }

  /**
   * {@value #BINS} equal bins from the minimum to the 99.9th percentile; values above it are
   * counted in the last bin, which then says so ({@code overflow}). Integer data get integer
   * bin widths.
   */
  static Map<String, Object> hist(double[] values, boolean integers) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("count", values.length);
    if (values.length == 0) {
      out.put("lo", 0);
      out.put("width", 0);
      out.put("counts", new int[0]);
      return out;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double lo = sorted[0];
    double top = percentile(sorted, 99.9);
    double width = (top - lo) / BINS;
    if (integers) {
      lo = Math.floor(lo);
      width = Math.max(1, Math.ceil((top - lo + 1) / BINS));
    } else if (width <= 0) {
      width = Math.max(Math.abs(lo) * 1e-3, 1e-3);
    }
    int bins = (int) Math.min(BINS, Math.floor((top - lo) / width) + 1);
    int[] counts = new int[bins];
    boolean overflow = false;
    for (double v : sorted) {
      int b = (int) Math.floor((v - lo) / width);
      if (b >= bins) {
        overflow = true;
        b = bins - 1;
      }
      counts[b]++;
    }
    out.put("lo", lo);
    out.put("width", width);
    out.put("counts", counts);
    out.put("overflow", overflow);
    out.put("max", sorted[sorted.length - 1]);
    return out;
  }

  /**
   * Requests meeting each SLO alone and all of them, with the calculator's rule (the same
   * output lengths, a one-token output counting TPOT 0); shares are of all requests.
   */
  private static List<Map<String, Object>> goodput(RecordSource rs, int[] outputLens,
      GoodputSlo slos) {
    if (slos.isEmpty()) {
      return null;
    }
    List<Map<String, Object>> out = new ArrayList<>();
    List<GoodputSlo> rules = new ArrayList<>();
    List<String> names = new ArrayList<>();
    slos.asMap().forEach((k, v) -> {
      rules.add(GoodputSlo.of(Map.of(k, v)));
      names.add(k + " ≤ " + v + " ms");
    });
    if (rules.size() > 1) {
      rules.add(slos);
      names.add("all SLOs");
    }
    for (int s = 0; s < rules.size(); s++) {
      int good = 0;
      for (int i = 0; i < rs.size(); i++) {
        if (rules.get(s).isGood(rs.record(i), outputLens[i])) {
          good++;
        }
      }
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("slo", names.get(s));
      row.put("good", good);
      row.put("share", rs.size() == 0 ? 0.0 : 100.0 * good / rs.size());
      out.add(row);
    }
    return out;
  }

  /**
   * One row per request in start order: {@code [start ms, ttft ms, class, ms, class, ms, ...]}
   * with consecutive ITLs of the same colour class merged; a failed request is
   * {@code [start ms, -1, duration ms]}, one cancelled on purpose ({@code --cancel-fraction})
   * {@code [start ms, -2, duration ms]} (drawn grey: it is no failure). Past {@value #TIMELINE_BUDGET} numbers only every
   * k-th request is kept, and the page says so.
   */
  private static Map<String, Object> timeline(RecordSource rs, long origin, double[] thresholds) {
    List<double[]> rows = new ArrayList<>(rs.size());
    long numbers = 0;
    for (int i = 0; i < rs.size(); i++) {
      double[] row = row(rs.record(i), origin, thresholds);
      rows.add(row);
      numbers += row.length;
    }
    int every = (int) Math.max(1, Math.ceil((double) numbers / TIMELINE_BUDGET));
    List<double[]> kept = new ArrayList<>();
    for (int i = 0; i < rows.size(); i += every) {
      kept.add(rows.get(i));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("thresholds", thresholds);
    out.put("every", every);
    out.put("rows", kept);
    return out;
  }

  private static double[] row(RequestRecord r, long origin, double[] thresholds) {
    double start = round3(RequestTimes.startSeconds(r, origin) * 1e3);
    if (!r.success()) {
      return new double[] {start, r.cancelled() ? -2 : -1,
          round3((r.endNanos() - r.startNanos()) / 1e6)};
    }
    double[] out = new double[2 + 2 * Math.max(1, r.itlCount())];
    out[0] = start;
    out[1] = round3(RequestTimes.ttftSeconds(r) * 1e3);
    int n = 2;
    int cls = -1;
    double acc = 0;
    for (int k = 0; k < r.itlCount(); k++) {
      double ms = r.itlSeconds(k) * 1e3;
      int c = 0;
      while (c < thresholds.length && ms >= thresholds[c]) {
        c++;
      }
      if (c != cls && cls >= 0) {
        out[n++] = cls;
        out[n++] = round3(acc);
        acc = 0;
      }
      cls = c;
      acc += ms;
    }
    if (cls >= 0) {
      out[n++] = cls;
      out[n++] = round3(acc);
    }
    return Arrays.copyOf(out, n);
  }

  private static double round3(double v) {
    return Math.round(v * 1e3) / 1e3;
  }
}
