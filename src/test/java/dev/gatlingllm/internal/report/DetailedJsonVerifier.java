package dev.gatlingllm.internal.report;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Re-reads a detailed result JSON and recomputes every aggregate from its per-request
 * arrays with a deliberately separate, plain implementation (exact decimal sums, textbook
 * interpolation, a bucket loop per second), so a real run's file can be checked against
 * the plugin's own numbers. The arrays themselves come from the same client and metric
 * code: this checks the aggregation, not the per-request measurements.
 *
 * <pre>{@code
 * DetailedJsonVerifier.assertConsistent(resultFile, Map.of("ttft", 500.0));
 * }</pre>
 *
 * <p>Checked: completed, failed, total input/output tokens, request / output / total token
 * throughput, request goodput (when SLOs are given), peak output tokens per second, peak
 * concurrent requests, and mean / median / std / every {@code pNN} of each metric present.
 * Also that failed requests have output length 0 and that the duration covers every
 * successful request.
 */
public final class DetailedJsonVerifier {

  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();
  private static final Pattern STAT = Pattern.compile("(mean|median|std|p[0-9.e+-]+)_(ttft|tpot|itl|e2el)_ms");
  private static final MathContext MC = MathContext.DECIMAL128;

  /** What was checked and what disagreed. */
  public record Verification(List<String> checked, List<String> mismatches) {

    public boolean ok() {
      return mismatches.isEmpty();
    }
  }

  private DetailedJsonVerifier() {}

  /**
   * Verifies every JSON object of the file (one per line in append mode) to 1e-9 relative
   * and throws an {@link AssertionError} listing all mismatches.
   *
   * @param goodputSlosMs the SLOs the run used; null skips the goodput check
   */
  public static void assertConsistent(Path file, Map<String, Double> goodputSlosMs)
      throws IOException {
    List<String> all = new ArrayList<>();
    int line = 0;
    for (String text : Files.readAllLines(file)) {
      line++;
      if (text.isBlank()) {
        continue;
      }
      Verification v = verify(JSON.readTree(text), goodputSlosMs, 1e-9);
      if (v.checked().size() < 10) {
        all.add("line " + line + ": only " + v.checked().size() + " figures checked: "
            + v.checked());
      }
      for (String m : v.mismatches()) {
        all.add("line " + line + ": " + m);
      }
    }
    if (line == 0) {
      all.add("empty file " + file);
    }
    if (!all.isEmpty()) {
      throw new AssertionError("Result " + file + " disagrees with its own per-request arrays:\n"
          + String.join("\n", all));
    }
  }

  /** Recomputes the aggregates of one result object and compares them. */
  public static Verification verify(JsonNode doc, Map<String, Double> goodputSlosMs, double rel) {
    List<String> checked = new ArrayList<>();
    List<String> mismatches = new ArrayList<>();
    if (!doc.has("input_lens") || !doc.has("latencies") || !doc.has("errors")) {
      mismatches.add("not a detailed result: input_lens / latencies / errors missing");
      return new Verification(checked, mismatches);
    }
    Map<String, Double> expected = recompute(doc, goodputSlosMs, mismatches);
    for (Map.Entry<String, Double> e : expected.entrySet()) {
      JsonNode actual = doc.get(e.getKey());
      checked.add(e.getKey());
      if (actual == null || !actual.isNumber()) {
        mismatches.add(e.getKey() + ": expected " + e.getValue() + ", file has " + actual);
      } else if (!agree(e.getValue(), actual.doubleValue(), rel)) {
        mismatches.add(e.getKey() + ": recomputed " + e.getValue() + ", file has "
            + actual.doubleValue());
      }
    }
    return new Verification(checked, mismatches);
  }

  /** The value every checkable aggregate key should have, recomputed from the arrays. */
  static Map<String, Double> recompute(JsonNode doc, Map<String, Double> slos,
      List<String> problems) {
    Map<String, Double> out = new LinkedHashMap<>();
    int n = doc.get("input_lens").size();
    boolean generation = doc.has("output_lens");
    double duration = doc.get("duration").doubleValue();
    boolean[] ok = new boolean[n];
    int completed = 0;
    long input = 0;
    long output = 0;
    for (int i = 0; i < n; i++) {
      ok[i] = doc.get("errors").get(i).asText().isEmpty();
      if (ok[i]) {
        completed++;
        input += doc.get("input_lens").get(i).longValue();
        if (generation) {
          output += doc.get("output_lens").get(i).longValue();
        }
      } else if (generation && doc.get("output_lens").get(i).longValue() != 0) {
        problems.add("failed request " + i + " has output length "
            + doc.get("output_lens").get(i));
      }
    }
    out.put("completed", (double) completed);
    out.put("failed", (double) (n - completed));
    out.put("total_input_tokens", (double) input);
    out.put("request_throughput", completed / duration);
    if (!generation) {
      out.put("total_token_throughput", input / duration);
      putStats(out, doc, "e2el", column(doc, "latencies", ok));
      return out;
    }
    out.put("total_output_tokens", (double) output);
    out.put("output_throughput", output / duration);
    out.put("total_token_throughput", (input + output) / duration);

    List<Double> ttfts = column(doc, "ttfts", ok);
    List<Double> e2els = column(doc, "latencies", ok);
    List<Double> tpots = new ArrayList<>();
    List<Double> itls = new ArrayList<>();
    int good = 0;
    for (int i = 0; i < n; i++) {
      if (!ok[i]) {
        continue;
      }
      double ttft = doc.get("ttfts").get(i).doubleValue();
      double latency = doc.get("latencies").get(i).doubleValue();
      long len = doc.get("output_lens").get(i).longValue();
      double tpot = 0;
      if (len > 1) {
        tpot = (latency - ttft) / (len - 1);
        tpots.add(tpot);
      }
      doc.get("itls").get(i).forEach(x -> itls.add(x.doubleValue()));
      if (slos != null && !slos.isEmpty()
          && within(slos.get("ttft"), ttft) && within(slos.get("tpot"), tpot)
          && within(slos.get("e2el"), latency)) {
        good++;
      }
      double start = doc.get("start_times").get(i).doubleValue();
      if (start + latency > duration + 1e-9) {
        problems.add("request " + i + " ends at " + (start + latency)
            + " s, after the duration " + duration);
      }
    }
    if (slos != null && !slos.isEmpty()) {
      out.put("request_goodput", good / duration);
    }
    putPeaks(out, doc, ok);
    putStats(out, doc, "ttft", ttfts);
    putStats(out, doc, "tpot", tpots);
    putStats(out, doc, "itl", itls);
    putStats(out, doc, "e2el", e2els);
    return out;
  }

  private static boolean within(Double sloMs, double seconds) {
    return sloMs == null || sloMs / 1000 >= seconds;
  }

  private static List<Double> column(JsonNode doc, String key, boolean[] ok) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < ok.length; i++) {
      if (ok[i]) {
        out.add(doc.get(key).get(i).doubleValue());
      }
    }
    return out;
  }

  /** One-second buckets from the first successful start, counted the plain way. */
  private static void putPeaks(Map<String, Double> out, JsonNode doc, boolean[] ok) {
    double first = Double.MAX_VALUE;
    double last = -Double.MAX_VALUE;
    boolean any = false;
    for (int i = 0; i < ok.length; i++) {
      if (ok[i]) {
        any = true;
        double start = doc.get("start_times").get(i).doubleValue();
        first = Math.min(first, start);
        last = Math.max(last, start + doc.get("latencies").get(i).doubleValue());
      }
    }
    if (!any) {
      out.put("max_output_tokens_per_s", 0.0);
      out.put("max_concurrent_requests", 0.0);
      return;
    }
    int seconds = (int) Math.ceil(last - first) + 1;
    int[] tokens = new int[seconds];
    int[] active = new int[seconds];
    for (int i = 0; i < ok.length; i++) {
      if (!ok[i]) {
        continue;
      }
      double start = doc.get("start_times").get(i).doubleValue();
      double t = start + doc.get("ttfts").get(i).doubleValue();
      List<Double> times = new ArrayList<>(List.of(t));
      for (JsonNode itl : doc.get("itls").get(i)) {
        t += itl.doubleValue();
        times.add(t);
      }
      for (double time : times) {
        int bucket = (int) (time - first);
        if (bucket >= 0 && bucket < seconds) {
          tokens[bucket]++;
        }
      }
      double end = start + doc.get("latencies").get(i).doubleValue();
      for (int s = (int) (start - first); s <= (int) (end - first); s++) {
        active[s]++;
      }
    }
    out.put("max_output_tokens_per_s", (double) Arrays.stream(tokens).max().getAsInt());
    out.put("max_concurrent_requests", (double) Arrays.stream(active).max().getAsInt());
  }

  /** Mean, median, std and every percentile key the file has for this metric. */
  private static void putStats(Map<String, Double> out, JsonNode doc, String metric,
      List<Double> seconds) {
    double[] v = seconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    Iterator<String> keys = doc.fieldNames();
    while (keys.hasNext()) {
      String key = keys.next();
      Matcher m = STAT.matcher(key);
      if (!m.matches() || !m.group(2).equals(metric)) {
        continue;
      }
      String stat = m.group(1);
      double value;
      if (v.length == 0) {
        value = 0;
      } else if (stat.equals("mean")) {
        value = mean(v);
      } else if (stat.equals("median")) {
        value = v.length % 2 == 1 ? v[v.length / 2]
            : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
      } else if (stat.equals("std")) {
        double mean = mean(v);
        BigDecimal squares = BigDecimal.ZERO;
        for (double x : v) {
          squares = squares.add(new BigDecimal(x - mean).pow(2, MC), MC);
        }
        value = Math.sqrt(squares.divide(BigDecimal.valueOf(v.length), MC).doubleValue());
      } else {
        double rank = Double.parseDouble(stat.substring(1)) / 100 * (v.length - 1);
        int lo = (int) Math.floor(rank);
        int hi = Math.min(lo + 1, v.length - 1);
        value = v[lo] + (rank - lo) * (v[hi] - v[lo]);
      }
      out.put(key, value * 1000);
    }
  }

  private static double mean(double[] v) {
    BigDecimal sum = BigDecimal.ZERO;
    for (double x : v) {
      sum = sum.add(new BigDecimal(x), MC);
    }
    return sum.divide(BigDecimal.valueOf(v.length), MC).doubleValue();
  }

  private static boolean agree(double expected, double actual, double rel) {
    double scale = Math.max(Math.abs(expected), Math.abs(actual));
    return Math.abs(expected - actual) <= Math.max(rel * scale, 1e-12);
  }
}
