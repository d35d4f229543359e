package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.report.Compare;
import dev.gatlingllm.internal.report.LlmReport;
import dev.gatlingllm.internal.report.PageLayout;
import dev.gatlingllm.report.ReportOutcome;
import dev.gatlingllm.internal.report.RunInfo;
import dev.gatlingllm.internal.report.RunReporter;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LLM report and the comparison page of real runs against the embedded simulator, read the
 * way a person reads them: in Debian's Chromium (driven by Playwright, never a downloaded
 * browser), at 1,400 and 800 px, offline. Each page must have no element wider than its
 * container, no two chart texts over each other, a data point in every chart, no console error
 * and no request leaving it. The last tests break a layout on purpose and show that each check
 * fails then. Screenshots stay in {@code target/report-screenshots/} for review. Skipped, saying
 * why, only when no Chromium is installed ({@code .ci/run} installs it).
 */
@Timeout(600)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportLayoutBrowserTest {

  static final Path SHOTS = Path.of("target/report-screenshots");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String COMMON = "--model served-llm --tokenizer datasets/tokenizers/gpt2 "
      + "--seed 1 --disable-tqdm ";

  @TempDir
  static Path results;

  private PageLayout browser;
  private Path normal;
  private Path candidate;
  private String normalConsole;

  @BeforeAll
  void runsAndBrowser() throws IOException {
    Path chromium = PageLayout.chromiumOrSkip(
        "the reports' layout was not checked in a browser");
    Files.createDirectories(SHOTS);
    browser = PageLayout.start(chromium);
    // counting prompts with the runs' tokenizer, as a real server counts with its model's: the
    // report shows no false prompt-token warning
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(4)).tokenizer("datasets/tokenizers/gpt2").build())) {
      // no --save-result: the run folder gets its report all the same
      String[] run = bench(COMMON + "--backend openai --dataset-name random "
          + "--random-input-len 48 --random-output-len 24 --num-prompts 400 --request-rate 40 "
          + "--max-concurrency 8 --goodput ttft:40 tpot:6 --percentile-metrics ttft,tpot,itl,e2el "
          + "--metric-percentiles 50,90,99 --label baseline --base-url " + sim.baseUrl());
      normal = Path.of(run[0]);
      String[] second = bench(COMMON + "--backend openai --dataset-name random "
          + "--random-input-len 48 --random-output-len 24 --num-prompts 400 --request-rate 60 "
          + "--max-concurrency 16 --percentile-metrics ttft,tpot,itl,e2el --label candidate "
          + "--base-url " + sim.baseUrl());
      candidate = Path.of(second[0]);
      // a run's summary is printed at the JVM's exit, or when the next run's summary is due
      normalConsole = run[1] + second[1];
    }
  }

  @AfterAll
  void closeBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  /** Runs the drop-in with {@code args}; returns its report and what it printed. */
  private String[] bench(String args) throws IOException {
    return bench(args, 0);
  }

  /** {@link #bench(String)}, for a run whose verdict sets {@code exitStatus} (README). */
  private String[] bench(String args, int exitStatus) throws IOException {
    PrintStream original = System.out;
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    System.setOut(new PrintStream(copy, true, StandardCharsets.UTF_8));
    GatlingRunner.Result result;
    try {
      Map<String, String> properties = new HashMap<>();
      properties.put(CommandLine.ARGS_PROPERTY, args);
      properties.put("llm.resultsFolder", results.toString());
      result = GatlingRunner.run(BenchServe.class, results, properties);
    } finally {
      Thread.interrupted();
      System.setOut(original);
    }
    String console = copy.toString(StandardCharsets.UTF_8);
    assertEquals(exitStatus, result.exitCode(), console);
    Path report = result.runFolder().resolve(LlmReport.FILE_NAME);
    assertTrue(Files.isRegularFile(report), "the run folder holds its report: " + console);
    return new String[] {report.toString(), console};
  }

  /**
   * With {@code -Dreport.screenshots=docs}, the README's pictures are refreshed from the
   * 1,400 px screenshots of this test's runs.
   */
  private static void publish(String name, String file) throws IOException {
    String to = System.getProperty("report.screenshots");
    if (to != null) {
      Files.copy(SHOTS.resolve(name + "-1400.png"), Path.of(to).resolve(file),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Checks a page at both widths, keeping the screenshots; returns the 1,400 px findings. */
  private PageLayout.Findings check(Path page, String name, int minCharts) {
    PageLayout.Findings wide = null;
    for (int width : new int[] {1400, 800}) {
      PageLayout.Findings f = browser.inspect(page, width,
          SHOTS.resolve(name + "-" + width + ".png"), null);
      System.out.printf("layout %s at %d px: %d charts, %d chart texts, %d ms%n", name, width,
          f.charts(), f.labels(), f.millis());
      assertEquals(List.of(), f.problems(), name + " at " + width + " px");
      assertTrue(f.charts() >= minCharts, name + ": " + f.charts() + " charts, expected at least "
          + minCharts);
      if (width == 1400) {
        wide = f;
      }
    }
    return wide;
  }

  private static JsonNode data(Path page) throws IOException {
    Matcher m = Pattern.compile("<script type=\"application/json\" id=\"llm-data\">(.*?)</script>",
        Pattern.DOTALL).matcher(Files.readString(page));
    assertTrue(m.find());
    return JSON.readTree(m.group(1));
  }

  @Test
  void aNormalRunWithoutSaveResultHasAReadableReport() throws IOException {
    assertTrue(normalConsole.contains("LLM report: " + normal.toAbsolutePath().toUri()),
        "the console says where the report is: " + normalConsole);
    assertFalse(normalConsole.contains("Server compliance"), "the simulator did what was asked: "
        + normalConsole);
    try (Stream<Path> files = Files.list(normal.getParent())) {
      assertFalse(files.anyMatch(p -> p.toString().endsWith(".json")), "no result JSON asked");
    }
    PageLayout.Findings f = check(normal, "llm-report", 12);
    publish("llm-report", "llm-report.png");
    assertTrue(f.labels() > 100, "chart texts are measurable (SVG): " + f.labels());
    String text = browser.text(normal, "#self-check-verdict");
    assertTrue(text.startsWith("Client self-check: "), text);
    String labels = browser.text(normal, "#self-check-table");
    assertFalse(labels.contains("_"), "no raw JSON key in the self-check table: " + labels);
    assertTrue(labels.contains("P99 loop lag (ms)"), labels);
    JsonNode r = data(normal).get("result");
    if (r.get("max_concurrent_requests").asInt() > r.get("max_concurrency").asInt()) {
      assertTrue(browser.text(normal, "#cap-note").contains("every one-second bucket"));
    }
  }

  @Test
  void aRunWhereEveryRequestFailedSaysSo() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder().errorRate(1.0).build())) {
      Path page = Path.of(bench(COMMON + "--backend openai --dataset-name random "
          + "--random-input-len 16 --random-output-len 8 --num-prompts 30 --request-rate 50 "
          + "--ready-check-timeout-sec 0 --base-url " + sim.baseUrl(), 4)[0]);
      check(page, "all-failed", 1);
      assertTrue(browser.text(page, "#failed-banner").startsWith("Every request failed"));
      // no chart of zero tokens, nor one bucket of failures on an axis from -0.4 to 0.4 s
      String overTime = browser.text(page, "#over-time-none");
      assertTrue(overTime.startsWith("No request succeeded, so there is nothing to chart over "
          + "time: 30 requests started and failed within "), overTime);
      assertEquals("", browser.text(page, "#over-tokens"));
      assertEquals("", browser.text(page, "#over-requests"));
    }
  }

  @Test
  void aPoolingRunHasAReadableReport() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder().build())) {
      Path page = Path.of(bench(COMMON + "--backend openai-embeddings --random-input-len 24 "
          + "--num-prompts 30 --request-rate 100 --base-url " + sim.baseUrl())[0]);
      check(page, "pooling", 1);
    }
  }

  @Test
  void probesAndTheClientQueueHaveTheirPlaceInTheReport() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(4)).build())) {
      Path page = Path.of(bench(COMMON + "--backend openai --dataset-name random "
          + "--random-input-len 16 --random-output-len 16 --num-prompts 60 --max-concurrency 4 "
          + "--probe-request-rate 10 --percentile-metrics "
          + "ttft,e2el,client_queue_time,e2el_including_client_queue --base-url "
          + sim.baseUrl())[0]);
      check(page, "probes", 4);
      String probe = browser.text(page, "#probe").replaceAll("\\s+", " ");
      assertTrue(probe.startsWith("Probe requests"), probe);
      JsonNode sent = data(page).get("result").get("probe").get("sent");
      assertTrue(sent.asInt() > 0 && probe.contains("Sent " + sent.asInt()), probe);
      assertTrue(probe.contains("TTFT") && probe.contains("E2EL"), probe);
    }
  }

  @Test
  void theGpusEnergyHasItsSectionWithItsWarnings() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(4)).gpus(2).build())) {
      Path page = Path.of(bench(COMMON + "--backend openai --dataset-name random "
          + "--random-input-len 16 --random-output-len 32 --num-prompts 120 --max-concurrency 8 "
          + "--gpu-metrics-url " + sim.baseUrl() + "/dcgm/metrics --gpu-metrics-url "
          + sim.baseUrl() + "/no-exporter --base-url " + sim.baseUrl())[0]);
      check(page, "gpu-energy", 5);
      String section = browser.text(page, "#gpu-energy").replaceAll("\\s+", " ");
      assertTrue(section.startsWith("GPU energy"), section);
      assertTrue(section.contains("Output tokens per joule (tok/J)"), section);
      assertTrue(section.contains("/no-exporter: disabled: HTTP 404"), section);
      assertTrue(section.contains("GPU 0 · sim") && section.contains("GPU 1 · sim"), section);
      JsonNode energy = data(page).get("result").get("gpu_energy");
      assertEquals(2, energy.get("gpu_count").asInt(), energy.toString());
    }
  }

  @Test
  void aWarnedSelfCheckSaysByHowMuchAtTheTopAndWraps() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(5)).build())) {
      Map<String, String> properties = new HashMap<>();
      properties.put(SelfCheckItSimulation.BASE_URL, sim.baseUrl());
      properties.put(SelfCheckItSimulation.STALL_MS, "200");
      properties.put("llm.resultsFolder", results.toString());
      GatlingRunner.Result result =
          GatlingRunner.run(SelfCheckItSimulation.class, results, properties);
      assertEquals(0, result.exitCode());
      Path page = result.runFolder().resolve(LlmReport.FILE_NAME);
      check(page, "self-check-warned", 10);
      String verdict = browser.text(page, "#self-check-verdict");
      // graded against the run's own gaps (5 ms): the amount, its share and the cause
      assertTrue(verdict.matches("Client self-check: distorted\\. Part of these timings is the load"
          + " generator's own delay: event-loop lag p99 [0-9.,]+ ms, [0-9,]+ % of the run's ITL p50"
          + " \\([0-9.]+ ms\\) and [0-9,]+ % of its TTFT p50 \\([0-9.]+ ms\\); mostly .+"
          + " \\([0-9]+ warnings? in the self-check below\\)\\."), verdict);
    }
  }

  @Test
  void theComparisonPageOfTwoRunsIsReadable() throws IOException {
    Path page = Compare.write(List.of(normal.getParent(), candidate.getParent()),
        results.resolve("compare.html"));
    check(page, "compare", 8);
    publish("compare", "compare.png");
  }

  /**
   * The time charts shade a closed loop's steady-state window, and mark where a run past
   * saturation was found over-saturated and stopped ({@code --stop-on-over-saturation}, the
   * simulator generating for 4 requests at once, offered 150 requests/s): the shading, the
   * lines and their names must not cover another text, and the page says what they are.
   */
  @Test
  void theSteadyStateWindowAndTheOverSaturationStopAreMarkedOnTheTimeCharts() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(5)).jitter(0).maxRunning(4).build())) {
      String common = COMMON + "--backend openai --dataset-name random --random-input-len 16 "
          + "--random-output-len 12 --ignore-eos --base-url " + sim.baseUrl() + " ";
      Path steady = Path.of(bench(common + "--num-prompts 120 --request-rate inf "
          + "--max-concurrency 4")[0]);
      check(steady, "steady-state", 4);
      String note = browser.text(steady, "#window-note");
      assertTrue(note.startsWith("Shaded green: the steady-state window, "), note);
      assertTrue(data(steady).get("result").get("steady_state").get("window").has("start_s"));
      Path stopped = Path.of(bench(common + "--num-prompts 600 --request-rate 150 "
          + "--stop-on-over-saturation")[0]);
      check(stopped, "over-saturation-stop", 4);
      assertTrue(browser.text(stopped, "#stopped-banner").startsWith("Stopped early at "));
      String marks = browser.text(stopped, "#window-note");
      assertTrue(marks.contains("Dashed red line: over-saturated since ")
          && marks.contains("Solid dark red line: the run was stopped there"), marks);
    }
  }

  @Test
  void aRunWithNoRequestGetsAPageThatSaysWhy() {
    // what the after-run path reports when the run ended before its first request
    ReportOutcome out = RunReporter.report(RunInfo.builder("served-llm").backend("openai").build(),
        new RecordStore(), ResultOptions.builder().printSummary(false).saveResult(false).build(),
        results.resolve("empty"), null, System.nanoTime());
    assertTrue(out.ok(), out.error());
    Path page = out.htmlReport();
    check(page, "no-request", 0);
    assertTrue(browser.text(page, "#no-request").startsWith("No request was recorded"));
  }

  /**
   * Seen in CI: a pooling run's end-to-end latencies all lay between 50.19 and 50.94 ms; the x
   * axis starts at its data, so its first label ("50.2") stood next to the origin, over the
   * count axis's "0". The same latencies, recorded by hand, give the same axis.
   */
  @Test
  void aHistogramStartingAtItsDataKeepsItsFirstLabelClearOfTheCountAxis() {
    RecordStore store = new RecordStore();
    long start = System.nanoTime();
    double[] e2elMs = {50.19, 50.2, 50.21, 50.25, 50.33, 50.33, 50.45, 50.6, 50.81, 50.94};
    for (int i = 0; i < e2elMs.length; i++) {
      long s = start + i * 10_000_000L;
      long latency = Math.round(e2elMs[i] * 1e6);
      store.add(RequestRecord.builder("embeddings").startNanos(s).latencyNanos(latency)
          .endNanos(s + latency).promptTokens(16).httpStatus(200).success(true).build());
    }
    ReportOutcome out = RunReporter.report(RunInfo.builder("served-llm").backend(
        "openai-embeddings").taskType(TaskType.EMBEDDING).build(), store,
        ResultOptions.builder().printSummary(false).saveResult(false).build(),
        results.resolve("narrow"), null, start);
    assertTrue(out.ok(), out.error());
    check(out.htmlReport(), "narrow-histogram", 1);
  }

  // Each check can fail: a layout broken on purpose is caught.

  @Test
  void anUnwrappableWarningIsCaught() {
    PageLayout.Findings f = browser.inspect(normal, 800, null,
        "() => { const s = document.querySelector('#self-check');"
            + " s.appendChild(Object.assign(document.createElement('div'), {className: 'banner bad',"
            + " textContent: 'Warning: ' + 'the client itself was a bottleneck '.repeat(8)}));"
            + " s.querySelectorAll('.banner, td').forEach(e => e.style.whiteSpace = 'nowrap'); }");
    assertTrue(f.overflows().stream().anyMatch(o -> o.contains("Client self-check")),
        "the overflow is found: " + f.problems());
  }

  @Test
  void aSubtitleOverAnAxisNameIsCaught() {
    PageLayout.Findings f = browser.inspect(normal, 1400, null,
        "() => echarts.getInstanceByDom(document.getElementById('hist-ttft'))"
            + ".setOption({ grid: { top: 24 } })");
    assertTrue(f.overlaps().stream().anyMatch(o -> o.startsWith("hist-ttft: ")),
        "the overlap is found: " + f.problems());
  }

  @Test
  void anEmptyChartAConsoleErrorAndARequestAreCaught() {
    PageLayout.Findings f = browser.inspect(normal, 1400, null,
        "() => { echarts.getInstanceByDom(document.getElementById('hist-itl'))"
            + ".setOption({ series: [{ data: [] }] });"
            + " console.error('broken on purpose'); }");
    assertEquals(List.of("hist-itl"), f.emptyCharts());
    assertTrue(f.errors().contains("broken on purpose"), f.errors().toString());
    PageLayout.Findings r = browser.inspect(normal, 1400, null,
        "() => { const i = document.createElement('img'); i.src = 'https://example.invalid/x.png';"
            + " document.body.appendChild(i); }");
    assertFalse(r.problems().isEmpty(), "a request out of the page is caught");
  }
}
