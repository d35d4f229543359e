package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.report.PageLayout;
import dev.gatlingllm.sweep.AxisScale;
import dev.gatlingllm.sweep.PlotSpec;
import dev.gatlingllm.sweep.SlaCriterion;
import dev.gatlingllm.sweep.SlaVariable;
import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep's pages (the report, the plots, the Pareto chart) in Debian's Chromium with the
 * layout checks of the LLM report ({@link PageLayout}): no error, no request out of the page,
 * data in every chart, nothing wider than its container, no chart texts over each other, at
 * 1,400 and 800 px. The sweep behind them answers from a queueing model ({@link FakeServer}),
 * two runs per point so that the error bars are drawn; {@link SweepLayoutBrowserTest} reads
 * the report of a sweep of real runs.
 */
@Timeout(300)
class SweepReportBrowserTest {

  private static Path chromium;

  @TempDir
  Path dir;

  @BeforeAll
  static void findChromium() {
    chromium = PageLayout.chromiumOrSkip("the sweep pages were not opened");
  }

  private static void assertDrawn(PageLayout browser, Path page, int charts) {
    for (int width : new int[] {1400, 800}) {
      PageLayout.Findings f = browser.inspect(page, width, Path.of("target/report-screenshots")
          .resolve(page.getFileName().toString().replace(".html", "") + "-" + width + ".png"), null);
      assertEquals(List.of(), f.problems(), page.getFileName() + " at " + width + " px");
      assertEquals(charts, f.charts(), page.getFileName() + " at " + width + " px");
    }
  }

  @Test
  void theSweepReportThePlotsAndTheParetoPageDrawOffline() throws Exception {
    try (PageLayout browser = PageLayout.start(chromium)) {
      pages(browser);
    }
  }

  private void pages(PageLayout browser) throws Exception {
    SweepOutcome o = Sweep.serveSla(SweepAccess.withLauncher(SweepConfig.builder()
            .benchArgs("--base-url http://127.0.0.1:9 --model m")
            .benchParams(Params.parse("[{\"random_input_len\": 128}, "
                + "{\"random_input_len\": 512}]"))
            .numRuns(2).outputDir(dir)
            .out(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)),
            new FakeServer(4, 0.1, 20)).build(),
        SlaCriterion.parseAll("[{\"p99_ttft_ms\": \"<=60\"}]"), SlaVariable.MAX_CONCURRENCY);
    Path report = o.folder().resolve("sweep-report.html");
    String html = Files.readString(report);
    assertTrue(html.contains("\"answers\":[{\"point\":\"SERVE-BENCH-random_input_len=128\""),
        "the SLA answers are in the page");
    // curves of request throughput vs p99 E2EL and mean TTFT, and of the variable vs
    // throughput and p99 TTFT: four charts
    assertDrawn(browser, report, 4);
    assertTrue(Files.size(o.folder().resolve("plots/p99_e2el_ms-vs-request_throughput.png"))
        > 5_000);

    List<Path> plots = Sweep.plot(o.folder(), PlotSpec.defaults()
        .withAxes("max_concurrency", "p99_ttft_ms")
        .withSplits(List.of(), List.of(), List.of("random_input_len"), List.of())
        .withScales(AxisScale.LOG, AxisScale.LINEAR), dir.resolve("figs"), "png,svg");
    assertTrue(plots.contains(dir.resolve("figs/p99_ttft_ms-vs-max_concurrency.svg")), "" + plots);
    String svg = Files.readString(dir.resolve("figs/p99_ttft_ms-vs-max_concurrency.svg"));
    assertTrue(svg.contains("<svg") && svg.strip().endsWith("</svg>"), svg.substring(0, 200));
    assertTrue(svg.contains("max_concurrency (log)"), "the log axis is labelled");
    assertDrawn(browser, dir.resolve("figs/plots.html"), 2);

    // the scales ECharts has no axis for: placed by the page, labelled with the values
    Sweep.plot(o.folder(), PlotSpec.defaults().withAxes("max_concurrency", "p99_ttft_ms")
        .withScales(AxisScale.SQRT, AxisScale.SYMLOG), dir.resolve("scaled"), "svg");
    assertTrue(Files.readString(dir.resolve("scaled/p99_ttft_ms-vs-max_concurrency.svg"))
        .contains("p99_ttft_ms (symlog)"), "the symlog axis is labelled");
    assertDrawn(browser, dir.resolve("scaled/plots.html"), 1);

    Sweep.plotPareto(o.folder(), "max_concurrency", null, List.of("max_concurrency"),
        dir.resolve("figs"), "png");
    assertTrue(Files.size(dir.resolve("figs/pareto.png")) > 5_000);
    assertDrawn(browser, dir.resolve("figs/pareto.html"), 1);
  }
}
