package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.Latencies;
import dev.gatlingllm.internal.metrics.LatencySamples;
import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The probe requests' figures ({@code --probe-request-rate}): the {@code probe} object of the
 * result JSON and its section of the summary. The summary is rendered from the object, so a
 * recovered run prints what the run printed. The probes' TTFT and E2EL follow vLLM's rules for
 * successful requests; they are in no other figure of the run.
 */
public final class ProbeReport {

  /** The result JSON's key. */
  public static final String KEY = "probe";

  private static final String[][] METRICS = {
      {"ttft", "TTFT", "Probe Time to First Token"}, {"e2el", "E2EL", "Probe End-to-end Latency"}};

  private ProbeReport() {}

  /**
   * The {@code probe} object: rate, counts, then vLLM's keys of the TTFT and E2EL
   * distributions ({@code mean_ttft_ms}, ..., {@code p99_e2el_ms}).
   */
  public static Map<String, Object> json(double ratePerSecond, int sent, int unfinished,
      List<RequestRecord> records, double[] percentiles) {
    int completed = (int) records.stream().filter(RequestRecord::success).count();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("request_rate", ratePerSecond);
    out.put("sent", sent);
    out.put("completed", completed);
    out.put("failed", records.size() - completed);
    out.put("unfinished", unfinished);
    // one output token each: no TPOT, and the ITL is empty
    Latencies l = LatencySamples.of(RecordSource.of(records),
        IntStream.range(0, records.size()).toArray(), i -> 1).figures(percentiles);
    ResultDocument.putDistribution(out, "ttft", l.ttft());
    ResultDocument.putDistribution(out, "e2el", l.e2el());
    return out;
  }

  /** The summary's section, after vLLM's block; empty when the run sent no probe. */
  static String console(Object probe) {
    if (!(probe instanceof Map<?, ?> p)) {
      return "";
    }
    StringBuilder out = new StringBuilder(512);
    out.append(PyFormat.center(" Probe Requests ", 50, '=')).append('\n');
    line(out, "Probe request rate (RPS):", PyFormat.fixed(number(p, "request_rate"), 2));
    line(out, "Probes sent:", count(p, "sent"));
    line(out, "Successful probes:", count(p, "completed"));
    line(out, "Failed probes:", count(p, "failed"));
    if (number(p, "unfinished") > 0) {
      line(out, "Unfinished probes (left out):", count(p, "unfinished"));
    }
    for (String[] m : METRICS) {
      out.append(PyFormat.center(m[2], 50, '-')).append('\n');
      String suffix = "_" + m[0] + "_ms";
      line(out, "Mean " + m[1] + " (ms):", PyFormat.fixed(number(p, "mean" + suffix), 2));
      line(out, "Median " + m[1] + " (ms):", PyFormat.fixed(number(p, "median" + suffix), 2));
      for (Object key : p.keySet()) {
        String k = key.toString();
        if (k.startsWith("p") && k.endsWith(suffix)) {
          String word = k.substring(1, k.length() - suffix.length());
          line(out, "P" + word + " " + m[1] + " (ms):", PyFormat.fixed(number(p, k), 2));
        }
      }
    }
    out.append("=".repeat(50)).append('\n');
    return out.toString();
  }

  private static double number(Map<?, ?> p, String key) {
    return p.get(key) instanceof Number n ? n.doubleValue() : 0;
  }

  private static String count(Map<?, ?> p, String key) {
    return Long.toString((long) number(p, key));
  }

  /** {@code "{:<40} {:<10}"}. */
  private static void line(StringBuilder out, String label, String value) {
    out.append(PyFormat.left(label, 40)).append(' ').append(PyFormat.left(value, 10))
        .append('\n');
  }
}
