package dev.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.servermetrics.ServerSample;
import dev.gatlingllm.servermetrics.ServerSeries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report and the comparison page in a real browser, offline: headless Chromium opens each
 * with the network cut off; the page must log no error, request nothing, and paint every chart
 * it announces. Skipped, saying why, only when no Chromium is installed ({@code .ci/run}
 * installs one). With {@code -Dreport.screenshots=docs} it also refreshes the screenshots the
 * README shows.
 */
@Timeout(300)
class LlmReportBrowserTest {

  private static final long ORIGIN = 5_000_000_000_000L;
  private static Chromium chromium;

  @TempDir
  Path dir;

  @BeforeAll
  static void findChromium() {
    Optional<Chromium> found = Chromium.find();
    Assumptions.assumeTrue(found.isPresent(), "SKIPPED: no Chromium installed (apt-get install "
        + "chromium, or set CHROMIUM=/path/to/chrome): the report was not opened in a browser");
    chromium = found.get();
  }

  /** A run of 600 requests with failures, SLOs and scraped server metrics. */
  static Path runReport(Path dir, String label, double rate, long seed) {
    List<ServerSample> samples = new ArrayList<>();
    for (int s = 0; s <= 16; s++) {
      double load = Math.sin(Math.PI * s / 16);
      samples.add(new ServerSample(ORIGIN + s * 1_000_000_000L, Math.round(40 * load),
          Math.round(12 * load * load), 0.8 * load, 1000.0 * s * s, 550.0 * s * s, Double.NaN));
    }
    RunInfo info = RunInfo.builder("org/model").backend("vllm").requestRate(rate)
        .extra(ServerSeries.KEY, new ServerSeries("http://127.0.0.1:8000/metrics", 1.0, samples,
            0, "ok").toJson(ORIGIN)).build();
    ReportOutcome out = RunReporter.report(info, SyntheticRun.store(600, 48, rate, 0.04, ORIGIN,
            seed), ResultOptions.builder().label(label).printSummary(false)
            .resultFilename(label + ".json").goodput("ttft:90 tpot:19 e2el:1200")
            .percentileMetrics("ttft,tpot,itl,e2el").metricPercentiles("50,90,99").build(),
        dir.resolve(label), null, ORIGIN);
    assertTrue(out.ok(), out.error());
    return out.htmlReport();
  }

  private static void assertDrawn(Chromium.Verdict v, Set<String> charts) {
    assertTrue(v.json().get("errors").isEmpty(), "no error, no blocked request: " + v.json());
    Set<String> drawn = new TreeSet<>();
    for (JsonNode c : v.json().get("charts")) {
      assertTrue(c.get("painted").asLong() > 0, c.get("id").asText() + " drawn: " + v.json());
      drawn.add(c.get("id").asText());
    }
    assertTrue(drawn.containsAll(charts), "charts " + drawn + " include " + charts);
    assertTrue(v.ok(), v.json().toString());
  }

  @Test
  void theRunReportDrawsEveryChartOffline() throws Exception {
    Path page = runReport(dir, "baseline", 40, 1);
    Chromium.Verdict v = chromium.open(page, 1400, 1000);
    assertDrawn(v, Set.of("over-tokens", "over-requests", "over-ttft", "over-itl", "server-queue",
        "server-cache", "hist-ttft", "hist-tpot", "hist-itl", "hist-e2el", "hist-input_len",
        "hist-output_len", "timeline", "goodput"));
    screenshot(page, "docs/llm-report.png", 1400, 4300);
  }

  @Test
  void aRunWhereEveryRequestFailedSaysSoAndDrawsWhatItHas() throws Exception {
    ReportOutcome out = RunReporter.report(RunInfo.builder("org/model").build(),
        SyntheticRun.store(50, 8, 20, 1.0, ORIGIN, 9),
        ResultOptions.builder().printSummary(false).resultFilename("r.json").build(), dir, null,
        ORIGIN);
    Chromium.Verdict v = chromium.open(out.htmlReport(), 1400, 1000);
    assertDrawn(v, Set.of("over-requests", "hist-input_len", "timeline"));
    String html = Files.readString(out.htmlReport());
    assertTrue(html.contains("Every request failed") || v.ok());
  }

  @Test
  void theComparisonPageDrawsEveryChartOffline() throws Exception {
    Path a = runReport(dir, "baseline", 40, 1).getParent();
    Path b = runReport(dir, "candidate", 55, 2).getParent();
    Path page = Compare.write(List.of(a, b), dir.resolve("compare.html"));
    Chromium.Verdict v = chromium.open(page, 1400, 1000);
    assertDrawn(v, Set.of("cmp-hist-ttft", "cmp-hist-itl", "cmp-over-tokens", "cmp-over-running",
        "cmp-server-running"));
    assertEquals(2, Compare.runs(HtmlPage.data(Files.readString(page))).size());
    screenshot(page, "docs/compare.png", 1400, 2600);
  }

  private void screenshot(Path page, String target, int width, int height) throws Exception {
    String to = System.getProperty("report.screenshots");
    Path png = to == null ? dir.resolve(Path.of(target).getFileName())
        : Path.of(to).resolve(Path.of(target).getFileName());
    chromium.screenshot(page, png, width, height);
    assertTrue(Files.size(png) > 10_000, "a real picture: " + Files.size(png) + " bytes");
  }
}
