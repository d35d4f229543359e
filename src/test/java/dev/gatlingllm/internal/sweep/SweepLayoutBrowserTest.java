package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.report.PageLayout;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep report of a real sweep (three concurrencies, two runs each, every run a Gatling run
 * of the drop-in against the embedded simulator) read in Debian's Chromium at 1,400 and 800 px,
 * with the checks of the LLM report's layout test: nothing wider than its container, no chart
 * texts over each other, data in every chart, no console error, no request out of the page.
 */
@Timeout(600)
class SweepLayoutBrowserTest {

  @TempDir
  Path dir;

  @Test
  void theSweepReportOfRealRunsIsReadable() throws Exception {
    Path chromium = PageLayout.chromiumOrSkip(
        "the sweep report's layout was not checked in a browser");
    SweepOutcome o;
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(4)).maxRunning(4).build())) {
      o = Sweep.serve(SweepAccess.withLauncher(SweepConfig.builder()
          .benchArgs("--base-url " + sim.baseUrl() + " --model sim-model --tokenizer gpt2 "
              + "--dataset-name random --random-input-len 16 --random-output-len 12 "
              + "--num-prompts 30 --seed 1 --ready-check-timeout-sec 10 --disable-tqdm")
          .benchParams(Params.parse("[{\"max_concurrency\": 1}, {\"max_concurrency\": 4}, "
              + "{\"max_concurrency\": 16}]"))
          .numRuns(2).outputDir(dir)
          .out(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)),
          new InProcessRun()).build());
    }
    Path report = o.folder().resolve(SweepReport.FILE_NAME);
    assertTrue(Files.isRegularFile(report));
    String html = Files.readString(report);
    String open = "<script type=\"application/json\" id=\"llm-data\">";
    int from = html.indexOf(open) + open.length();
    JsonNode figures = Params.json().readTree(html.substring(from,
        html.indexOf("</script>", from))).get("figures");
    for (JsonNode figure : figures) {
      JsonNode curves = figure.at("/panels/0/curves");
      // the TTFT's parts are a curve each: network, server, stream
      int parts = figure.get("varY").asText().equals(SweepReport.MEAN_TTFT_PART) ? 3 : 1;
      assertEquals(parts, curves.size(), "one curve, not one series a concurrency: " + figure);
      for (JsonNode curve : curves) {
        assertEquals(3, curve.get("points").size());
      }
    }
    Path shots = Path.of("target/report-screenshots");
    try (PageLayout browser = PageLayout.start(chromium)) {
      for (int width : new int[] {1400, 800}) {
        PageLayout.Findings f = browser.inspect(report, width,
            shots.resolve("sweep-report-" + width + ".png"), null);
        System.out.printf("layout sweep-report at %d px: %d charts, %d chart texts, %d ms%n",
            width, f.charts(), f.labels(), f.millis());
        assertEquals(List.of(), f.problems(), "sweep report at " + width + " px");
        // request throughput against p99 E2EL and against mean TTFT, then along the swept
        // concurrency: throughput, p99 TTFT and the TTFT's parts (no cancels, one server)
        assertEquals(5, f.charts());
      }
    }
  }
}
