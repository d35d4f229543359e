package dev.gatlingllm.bench;

import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.internal.report.Chromium;
import dev.gatlingllm.report.ReportOutcome;
import dev.gatlingllm.internal.report.RunInfo;
import dev.gatlingllm.internal.report.RunReporter;
import dev.gatlingllm.internal.report.SyntheticRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Size and render time of the LLM report of a large run: 10,000 requests of 256 tokens each
 * (one chunk per token, 4 % failed), made up by {@link SyntheticRun}. Measures the time to
 * write the report (the run reported with and without it), the file's size, and the time
 * headless Chromium takes to draw it (the page's own clock from navigation to the last chart,
 * and the browser's whole start-to-exit time). A main class, not a test:
 *
 * <pre>
 * ./mvnw -B -q test-compile exec:java -Dexec.mainClass=dev.gatlingllm.bench.ReportBenchmark \
 *     -Dexec.args="10000 256 5"
 * </pre>
 */
public final class ReportBenchmark {

  private ReportBenchmark() {}

  public static void main(String[] args) throws Exception {
    int requests = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int tokens = args.length > 1 ? Integer.parseInt(args[1]) : 256;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Path dir = Files.createTempDirectory("report-bench");
    long origin = System.nanoTime();
    RunInfo info = RunInfo.builder("org/model").backend("vllm").requestRate(50).build();
    List<Double> without = new ArrayList<>();
    List<Double> with = new ArrayList<>();
    List<Double> pageMs = new ArrayList<>();
    List<Double> wallMs = new ArrayList<>();
    long size = 0;
    Chromium chromium = Chromium.find().orElse(null);
    for (int round = 0; round < rounds; round++) {
      try (RecordStore store = SyntheticRun.store(requests, tokens, 50, 0.04, origin, round)) {
        ResultOptions base = ResultOptions.builder().printSummary(false).resultFilename("r.json")
            .goodput("ttft:90 tpot:19").percentileMetrics("ttft,tpot,itl,e2el")
            .metricPercentiles("50,90,99").build();
        long t0 = System.nanoTime();
        RunReporter.report(info, store, base.toBuilder().htmlReport(false).build(), dir, null,
            origin);
        long t1 = System.nanoTime();
        ReportOutcome out = RunReporter.report(info, store, base, dir, null, origin);
        long t2 = System.nanoTime();
        without.add((t1 - t0) / 1e6);
        with.add((t2 - t1) / 1e6);
        size = Files.size(out.htmlReport());
        if (chromium != null) {
          Chromium.Verdict v = chromium.open(out.htmlReport(), 1400, 1000);
          if (!v.ok()) {
            throw new AssertionError("the page did not render cleanly: " + v.json());
          }
          pageMs.add(v.json().get("sinceNavigationMs").asDouble());
          wallMs.add((double) v.wallMillis());
        }
      }
    }
    System.out.printf("requests %,d x %d tokens, %d rounds (first one is warm-up for the JVM)%n",
        requests, tokens, rounds);
    System.out.printf("report file: %,d bytes (%.2f MB)%n", size, size / 1e6);
    System.out.printf("results without report: median %.0f ms; with report: median %.0f ms"
        + " (report: ~%.0f ms)%n", median(without), median(with), median(with) - median(without));
    if (chromium == null) {
      System.out.println("no Chromium installed: render time not measured");
    } else {
      System.out.printf("Chromium: page drawn %.0f ms after navigation (median; min %.0f, max "
          + "%.0f); browser start to exit %.0f ms%n", median(pageMs), Collections.min(pageMs),
          Collections.max(pageMs), median(wallMs));
    }
  }

  private static double median(List<Double> values) {
    List<Double> v = new ArrayList<>(values.subList(values.size() > 1 ? 1 : 0, values.size()));
    Collections.sort(v);
    return v.get(v.size() / 2);
  }
}
