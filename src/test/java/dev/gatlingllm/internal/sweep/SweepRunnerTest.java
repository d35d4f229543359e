package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.cli.BenchArgs;
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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweeps' logic and files, with a queueing model in place of Gatling runs. */
class SweepRunnerTest {

  private static final String BENCH = "--base-url http://127.0.0.1:9 --model m --num-prompts 40";

  @TempDir
  Path dir;

  private final ByteArrayOutputStream console = new ByteArrayOutputStream();

  private SweepConfig.Builder config(FakeServer server) {
    return SweepAccess.withLauncher(SweepConfig.builder().benchArgs(BENCH).outputDir(dir)
        .numRuns(1)
        .out(new PrintStream(console, true, StandardCharsets.UTF_8)), server);
  }

  private String console() {
    return console.toString(StandardCharsets.UTF_8);
  }

  @Test
  void slaSearchFindsTheConcurrencyAndTheRateOfTheModel() throws Exception {
    FakeServer server = new FakeServer(2, 0.1, 20);
    List<Map<String, SlaCriterion>> sla = SlaCriterion.parseAll("[{\"p99_ttft_ms\": \"<=60\"}]");
    SweepOutcome mc = Sweep.serveSla(config(server).build(), sla, SlaVariable.MAX_CONCURRENCY);
    assertEquals(1, mc.answers().size());
    assertEquals(2, mc.answers().get(0).value());
    // concurrency 3 waits 50 ms (TTFT 70): fails; 2 does not wait
    Path base = mc.folder().resolve("SERVE-BENCH");
    assertTrue(Files.exists(base.resolve("max_concurrency=65536/run=0.json")));
    assertTrue(Files.exists(base.resolve("max_concurrency=65536/summary.json")));
    assertTrue(Files.exists(base.resolve("SLA-p99_ttft_ms<=60.00.json")));
    assertTrue(Files.exists(mc.folder().resolve("summary.csv")));
    assertTrue(Files.exists(mc.folder().resolve("sla-results.json")));
    assertTrue(Files.exists(mc.folder().resolve("sweep-report.html")));
    assertTrue(console().contains("Maximum max_concurrency for SLA: 2 concurrent requests."),
        console());
    assertTrue(console().contains("Validating SLA: p99_ttft_ms = 20.00<=60.00 | PASSED"));
    Map<String, Object> run = Params.readObject(base.resolve("max_concurrency=2/run=0.json"));
    assertEquals(0, run.get("run_number"));
    assertEquals("SERVE-BENCH/max_concurrency=2", run.get(SweepData.POINT_KEY));
    assertEquals("SERVE-BENCH/max_concurrency=2/run=0", run.get(SweepData.RUN_KEY));
    assertFalse(run.containsKey("ttfts"), "per-request arrays stay in the run's own file");

    // the rate: capacity 20 req/s; 21 waits 50 ms more (TTFT 70): fails
    FakeServer rateServer = new FakeServer(2, 0.1, 20);
    SweepOutcome rate = Sweep.serveSla(config(rateServer).outputDir(dir.resolve("rate"))
        .build(), sla, SlaVariable.REQUEST_RATE);
    assertEquals(20, rate.answers().get(0).value());
  }

  @Test
  void theSearchedVariableCannotBeAParameter() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Sweep.serveSla(config(new FakeServer(2, 0.1, 20))
            .benchParams(Params.parse("[{\"request-rate\": 5}]")).build(),
            SlaCriterion.parseAll("[{\"p99_ttft_ms\": \"<=70\"}]"), SlaVariable.REQUEST_RATE));
    assertEquals("You should not override `request_rate` in `bench_params` in SLA mode, since "
        + "it is supposed to be determined automatically.", e.getMessage());
  }

  @Test
  void gridRunsEveryCombinationAndResumeRunsNothingAgain() throws Exception {
    FakeServer server = new FakeServer(4, 0.1, 20);
    SweepConfig c = config(server).numRuns(2)
        .benchParams(Params.parse("[{\"max_concurrency\": 1}, {\"max_concurrency\": 8}]"))
        .build();
    SweepOutcome first = Sweep.serve(c);
    assertEquals(4, server.calls.size());
    assertEquals(4, first.records().size());
    assertTrue(server.calls.get(0).containsAll(List.of("--max-concurrency", "1",
        "--save-result", "--result-filename", "result.json")));
    List<String> csv = Files.readAllLines(first.folder().resolve("summary.csv"));
    assertEquals(5, csv.size());

    FakeServer again = new FakeServer(4, 0.1, 20);
    SweepOutcome resumed = Sweep.serve(config(again).numRuns(2)
        .benchParams(c.benchParams()).resume(first.folder().getFileName().toString()).build());
    assertEquals(0, again.calls.size(), "every run was there already");
    assertEquals(4, resumed.records().size());
    assertTrue(console().contains("Found existing results. Skipping."));
  }

  @Test
  void aGridOverConcurrencyIsOneCurveWithItsKneeAndItsFlaggedRuns() throws Exception {
    FakeServer server = new FakeServer(4, 0.1, 20);
    server.starved.add(1);
    server.saturated.add(16);
    SweepOutcome o = Sweep.serve(config(server).benchParams(Params.parse("[{\"max_concurrency\""
        + ": 1}, {\"max_concurrency\": 4}, {\"max_concurrency\": 8}, {\"max_concurrency\": 16}]"))
        .build());
    Map<String, Object> starvedRun = Params.readObject(o.folder().resolve(
        "SERVE-BENCH-max_concurrency=1/run=0.json"));
    assertEquals(List.of("client: the client itself was a bottleneck: event-loop lag p99 "
        + "189.00 ms"), starvedRun.get(RunFlags.KEY));
    Map<String, Object> fine = Params.readObject(o.folder().resolve(
        "SERVE-BENCH-max_concurrency=4/run=0.json"));
    assertEquals(List.of(), fine.get(RunFlags.KEY));

    // the console's table: one row a point, the flagged ones named, then why
    String console = console();
    assertTrue(console.matches("(?s).*SERVE-BENCH-max_concurrency=1 +1 +10\\.00 +90\\.00 +20\\.00 "
        + "+20\\.00 +- +100\\.00  FLAGGED client\n.*"), console);
    assertTrue(console.matches("(?s).*SERVE-BENCH-max_concurrency=4 +1 +40\\.00 .*  ok\n.*"),
        console);
    assertTrue(console.matches("(?s).*SERVE-BENCH-max_concurrency=16 +1 +40\\.00 .* 700\\.00  "
        + "FLAGGED over-saturated\n.*"), console);
    assertTrue(console.contains("  - SERVE-BENCH-max_concurrency=16/run=0: over-saturated: in "
        + "flight and TTFT grew while completions stayed flat from 2.5 s; its latencies grow "
        + "with the run's length\n"), console);

    // the report: latency against throughput is one curve along the concurrency, not four
    // series of one point; the knee at concurrency 4 (throughput 10, 40, 40, 40 req/s; p99
    // E2EL 100, 100, 300, 700 ms: scaled (0, 0), (1, 0), (1, 1/3), (1, 1); below the chord
    // 0.707, 0.471), flags on the points of 1 and 16
    JsonNode data = reportData(o.folder());
    assertEquals("max_concurrency", data.at("/summary/variable").asText());
    assertEquals(2, data.at("/summary/flagged").asInt());
    JsonNode main = data.at("/figures/0");
    assertEquals("request_throughput", main.at("/varX").asText());
    assertEquals("p99_e2el_ms", main.at("/varY").asText());
    JsonNode curves = main.at("/panels/0/curves");
    assertEquals(1, curves.size());
    JsonNode points = curves.at("/0/points");
    assertEquals(4, points.size());
    assertEquals(1, curves.at("/0/knee").asInt());
    double[] p99 = {100, 100, 300, 700};
    for (int i = 0; i < 4; i++) {
      assertEquals(p99[i], points.at("/" + i + "/y").asDouble(), 1e-9);
    }
    assertEquals("[\"client\"]", points.at("/0/flags").toString());
    assertEquals("[]", points.at("/1/flags").toString());
    assertEquals("[\"over-saturated\"]", points.at("/3/flags").toString());
    assertEquals("[\"client: the client itself was a bottleneck: event-loop lag p99 189.00 ms\"]",
        data.at("/runs/0/flags").toString());
    // a view along the concurrency has no knee: its x is the load, not a throughput
    assertEquals("max_concurrency", data.at("/figures/2/varX").asText());
    assertEquals(-1, data.at("/figures/2/panels/0/curves/0/knee").asInt());
    // the image files say it too (SVG texts can be searched; the PNGs are the same drawing)
    assertEquals(0, Sweep.run(new String[] {"plot", o.folder().toString(), "--format", "svg"},
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err));
    String svg = Files.readString(o.folder().resolve("plots/p99_e2el_ms-vs-request_throughput.svg"));
    assertTrue(svg.contains("flagged: client"), svg);
    assertTrue(svg.contains("knee"), "the knee at concurrency 4");
    assertTrue(svg.contains("flagged: over-saturated"));
  }

  @Test
  void repeatedRunsDrawFreshArrivalsAndWriteTheirStatistics() throws Exception {
    FakeServer server = new FakeServer(4, 0.1, 20);
    server.seedMovesTtft = true;
    SweepOutcome o = Sweep.repeat(config(server).benchArgs(BENCH + " --max-concurrency 2")
        .numRuns(3).build());
    assertEquals(List.of("0", "1", "2"), server.calls.stream()
        .map(c -> BenchArgs.parse(c).value("seed").orElseThrow()).toList());
    for (int n = 0; n < 3; n++) {
      assertTrue(Files.isRegularFile(o.folder().resolve("run=" + n + ".json")));
    }
    JsonNode agg = Params.json().readTree(o.folder().resolve(RunStatistics.FILE_NAME).toFile());
    assertEquals(3, agg.at("/num_runs").asInt());
    assertEquals("[\"run=0\",\"run=1\",\"run=2\"]", agg.at("/runs").toString());
    // mean TTFT 20, 21, 22 ms: mean 21, std 1, CV 1/21, t(0.975, 2) / sqrt(3) = 2.4841377
    JsonNode ttft = agg.at("/metrics/mean_ttft_ms");
    assertEquals(21, ttft.at("/mean").asDouble(), 1e-9);
    assertEquals(1, ttft.at("/std").asDouble(), 1e-9);
    assertEquals(20, ttft.at("/min").asDouble(), 1e-9);
    assertEquals(22, ttft.at("/max").asDouble(), 1e-9);
    assertEquals(1.0 / 21, ttft.at("/cv").asDouble(), 1e-9);
    assertEquals(21 - 2.484137712, ttft.at("/ci95_low").asDouble(), 1e-6);
    assertEquals(21 + 2.484137712, ttft.at("/ci95_high").asDouble(), 1e-6);
    assertEquals("[20.0,21.0,22.0]", ttft.at("/values").toString());
    // the same throughput every run: no spread; goodput (absent) and TPOT (absent) left out
    assertEquals(0, agg.at("/metrics/request_throughput/std").asDouble());
    assertTrue(agg.at("/metrics/request_goodput").isMissingNode());
    assertTrue(console().contains("Mean TTFT (ms)                        21.00       1.00      "
        + "20.00      22.00   4.76%  [18.52, 23.48]\n"), console());
    assertEquals(3, reportData(o.folder()).at("/spreads//num_runs").asInt());
  }

  @Test
  void aSeedTheUserFixedStaysTheSameInEveryRun() {
    FakeServer server = new FakeServer(4, 0.1, 20);
    Sweep.repeat(config(server).benchArgs(BENCH + " --seed 7").numRuns(2).build());
    assertEquals(List.of("7", "7"), server.calls.stream()
        .map(c -> BenchArgs.parse(c).value("seed").orElseThrow()).toList());
  }

  private static JsonNode reportData(Path folder) throws Exception {
    String html = Files.readString(folder.resolve(SweepReport.FILE_NAME));
    String open = "<script type=\"application/json\" id=\"llm-data\">";
    int from = html.indexOf(open) + open.length();
    return Params.json().readTree(html.substring(from, html.indexOf("</script>", from)));
  }

  @Test
  void dryRunPrintsTheCommandsAndRunsNothing() {
    FakeServer server = new FakeServer(4, 0.1, 20);
    SweepOutcome o = Sweep.serve(config(server).dryRun(true)
        .benchParams(Params.parse("[{\"max_concurrency\": 3}]")).build());
    assertEquals(0, server.calls.size());
    assertTrue(o.records().isEmpty());
    assertTrue(console().contains("Benchmark command: BenchServe --base-url "
        + "http://127.0.0.1:9 --model m --num-prompts 40 --max-concurrency 3 "
        + "--percentile-metrics ttft,tpot,itl,e2el --save-result"),
        console());
    assertFalse(Files.exists(o.folder().resolve("summary.csv")));
  }

  @Test
  void resumingAFolderThatIsNotThereIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Sweep.serve(config(new FakeServer(1, 1, 1)).resume("19990101_000000").build()));
    assertEquals("Cannot resume from non-existent directory (" + dir.resolve("19990101_000000")
        + ")", e.getMessage());
  }

  @Test
  void workloadScanOfTheRatePlacesItsLoadsBetweenTheSerialAndTheBatchRuns() {
    FakeServer server = new FakeServer(8, 0.05, 20);
    SweepOutcome o = Sweep.workload(config(server).build(), SlaVariable.REQUEST_RATE, 6);
    // serial end: concurrency 1 at 1 req/s -> 1 req/s, ceil 1; batch end: concurrency and rate
    // 40 (the prompts) -> 40 req/s, floor 40; linspace(1, 40, 6) = 1, 8.8, 16.6, 24.4, 32.2, 40
    List<Object> rates = o.records().stream().map(r -> r.get("request_rate")).toList();
    assertEquals(List.of(1.0, 40.0, 9.0, 17.0, 24.0, 32.0), rates);
    List<Object> concurrencies = o.records().stream().map(r -> r.get("max_concurrency"))
        .toList();
    assertEquals(java.util.Arrays.asList(1, 40, null, null, null, null), concurrencies,
        "the loads between keep the flags' concurrency (none)");
    Path root = o.folder();
    assertTrue(Files.exists(root.resolve("SERVE-BENCH-max_concurrency=1-WL-request_rate=1"
        + "/run=0.json")));
    assertTrue(Files.exists(root.resolve("SERVE-BENCH-max_concurrency=40-WL-request_rate=40"
        + "/run=0.json")));
    assertTrue(Files.exists(root.resolve("SERVE-BENCH-WL-request_rate=9/run=0.json")));
    List<Map<String, Object>> scan = Params.parse(readString(root.resolve(
        "SERVE-BENCH-WL-request_rate.json")));
    assertEquals(List.of(1.0, 9.0, 17.0, 24.0, 32.0, 40.0), scan.stream()
        .map(r -> r.get("request_rate")).toList(), "serial, the loads between, batch");
    assertTrue(console().contains("Serial inference: request_rate=1\n"), console());
    assertTrue(console().contains("Batch inference: request_rate=40\n"), console());
    assertTrue(console().contains("Exploring: request_rate=32\n"), console());
  }

  @Test
  void workloadScanOfTheConcurrencyEstimatesItByLittlesLaw() {
    FakeServer server = new FakeServer(8, 0.05, 20);
    SweepOutcome o = Sweep.workload(config(server).build(), SlaVariable.MAX_CONCURRENCY, 4);
    // serial: 20 req/s x 50 ms = 1; batch at 40: 160 req/s x 250 ms (200 ms queued) = 40;
    // linspace(1, 40, 4) = 1, 14, 27, 40
    assertEquals(List.of(1, 40, 14, 27), o.records().stream()
        .map(r -> r.get("max_concurrency")).toList());
    assertTrue(Files.exists(o.folder().resolve(
        "SERVE-BENCH-max_concurrency=1-WL-max_concurrency=1/run=0.json")));
    assertTrue(Files.exists(o.folder().resolve("SERVE-BENCH-WL-max_concurrency=27/run=0.json")));
  }

  private static String readString(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void everySweepRunGetsVllmsFourPercentileMetricsAndRepeatedRunsKeepTheUsersOwn() {
    FakeServer server = new FakeServer(4, 0.1, 20);
    Sweep.serve(config(server).benchArgs(BENCH + " --percentile-metrics ttft")
        .benchParams(Params.parse("[{\"max_concurrency\": 1}, {\"max_concurrency\": 2}]"))
        .build());
    assertEquals(List.of("ttft,tpot,itl,e2el", "ttft,tpot,itl,e2el"), server.calls.stream()
        .map(c -> BenchArgs.parse(c).value("percentile-metrics").orElseThrow()).toList());
    String replaced = "--percentile-metrics ttft is replaced by ttft,tpot,itl,e2el in every "
        + "run, as vLLM's sweep does";
    assertEquals(2, console().split(java.util.regex.Pattern.quote(replaced), -1).length,
        "said once: " + console());

    FakeServer repeated = new FakeServer(4, 0.1, 20);
    Sweep.repeat(config(repeated).benchArgs(BENCH + " --percentile-metrics ttft")
        .outputDir(dir.resolve("repeat")).numRuns(2).build());
    assertEquals(List.of("ttft,e2el", "ttft,e2el"), repeated.calls.stream()
        .map(c -> BenchArgs.parse(c).value("percentile-metrics").orElseThrow()).toList());
  }

  @Test
  void poolingBackendsKeepTheirOwnPercentileMetrics() {
    // embeddings and rerank stream no tokens: TTFT, TPOT and ITL mean nothing for them
    FakeServer server = new FakeServer(4, 0.1, 20);
    Sweep.serve(config(server).benchArgs(BENCH + " --percentile-metrics e2el")
        .benchParams(Params.parse("[{\"backend\": \"openai-embeddings\"}, "
            + "{\"backend\": \"vllm-rerank\"}, {\"backend\": \"vllm-pooling\"}, "
            + "{\"backend\": \"openai-chat\"}]"))
        .build());
    // vllm-pooling has neither "embed" nor "rerank" in its name: the table's capability says
    assertEquals(List.of("e2el", "e2el", "e2el", "ttft,tpot,itl,e2el"), server.calls.stream()
        .map(c -> BenchArgs.parse(c).value("percentile-metrics").orElseThrow()).toList());
  }

  @Test
  void summaryPercentilesAreComputedInEveryRunAndAddTheirColumns() {
    FakeServer server = new FakeServer(4, 0.1, 20);
    Sweep.serve(config(server).benchArgs(BENCH + " --metric-percentiles 90")
        .summaryPercentiles(List.of(95.0, 99.0, 95.0, 99.9))
        .benchParams(Params.parse("[{\"max_concurrency\": 2}]")).build());
    assertEquals("90,95,99,99.9", BenchArgs.parse(server.calls.get(0))
        .value("metric-percentiles").orElseThrow());
    String header = console().lines().filter(l -> l.startsWith("point")).findFirst()
        .orElseThrow();
    assertTrue(header.endsWith("P99 E2EL   P95 TTFT   P95 TPOT P99.9 TTFT P99.9 TPOT  flags"),
        header);
    assertEquals("--sweep-summary-percentiles: a percentile must be in [0, 100], got 101.0",
        assertThrows(IllegalArgumentException.class, () -> SweepConfig.builder()
            .summaryPercentiles(List.of(101.0))).getMessage());
  }

  @Test
  void resetPrefixCacheBeforeEachRunAndAServerWithoutItIsSaidOnce() throws Exception {
    java.util.concurrent.atomic.AtomicInteger resets =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean refuse =
        new java.util.concurrent.atomic.AtomicBoolean();
    com.sun.net.httpserver.HttpServer http = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext("/reset_prefix_cache", exchange -> {
      if (exchange.getRequestMethod().equals("POST") && !refuse.get()) {
        resets.incrementAndGet();
      }
      exchange.sendResponseHeaders(refuse.get() ? 404 : 200, -1);
      exchange.close();
    });
    http.start();
    String url = "http://127.0.0.1:" + http.getAddress().getPort();
    try {
      FakeServer server = new FakeServer(4, 0.1, 20);
      Sweep.serve(config(server).benchArgs("--base-url " + url + " --model m").numRuns(2)
          .resetPrefixCache(true)
          .benchParams(Params.parse("[{\"max_concurrency\": 1}, {\"max_concurrency\": 2}]"))
          .build());
      assertEquals(4, resets.get(), "before each of the 2 runs of 2 points");
      assertTrue(console().contains("Reset the prefix cache: POST " + url
          + "/reset_prefix_cache\n"), console());

      // a server without it: one warning, and every run still runs
      console.reset();
      refuse.set(true);
      server = new FakeServer(4, 0.1, 20);
      Sweep.serve(config(server).benchArgs("--base-url " + url + " --model m")
          .outputDir(dir.resolve("none")).resetPrefixCache(true)
          .benchParams(Params.parse("[{\"max_concurrency\": 1}, {\"max_concurrency\": 2}]"))
          .build());
      assertEquals(2, server.calls.size());
      assertEquals(2, console().split("WARNING: --reset-prefix-cache: POST "
          + java.util.regex.Pattern.quote(url) + "/reset_prefix_cache answered HTTP 404", -1)
          .length, console());
      assertTrue(console().contains("the sweep goes on without resetting the server's prefix "
          + "cache"), console());
    } finally {
      http.stop(0);
    }
  }

  @Test
  void aFailingRunFailsItsCombinationWithTheResumeHint() {
    RunLauncher broken = (args, runDir) -> {
      throw new SweepFailure("the benchmark run failed (exit status 2)");
    };
    SweepFailure e = assertThrows(SweepFailure.class, () -> Sweep.serve(SweepAccess.withLauncher(
        SweepConfig.builder()
        .benchArgs(BENCH).outputDir(dir).numRuns(1)
        .out(new PrintStream(console, true, StandardCharsets.UTF_8)), broken).build()));
    assertTrue(e.getMessage().contains("SERVE: the benchmark run failed (exit status 2)"),
        e.getMessage());
    assertTrue(e.getMessage().contains("Use `--resume " + e.outcome().folder().getFileName()
        + "` to continue"), e.getMessage());
  }

  @Test
  void continueOnErrorWritesTheFailureAndRunsTheOtherPoints() throws Exception {
    FakeServer server = new FakeServer(4, 0.1, 20);
    RunLauncher flaky = (args, runDir) -> {
      if (args.containsAll(List.of("--max-concurrency", "4"))) {
        throw new SweepFailure("the benchmark run failed (exit status 255, no result JSON)");
      }
      return server.run(args, runDir);
    };
    SweepConfig c = SweepAccess.withLauncher(config(server), flaky).continueOnError(true)
        .experimentName("nightly")
        .benchParams(Params.parse("[{\"max_concurrency\": 1}, {\"max_concurrency\": 4}, "
            + "{\"max_concurrency\": 8}]")).build();
    SweepFailure e = assertThrows(SweepFailure.class, () -> Sweep.serve(c));
    Path root = dir.resolve("nightly");
    assertEquals(root, e.outcome().folder(), "-e names the folder");
    assertEquals(2, e.outcome().records().size(), "concurrency 1 and 8 ran");
    Map<String, Object> failure = Params.readObject(root.resolve(
        "SERVE-BENCH-max_concurrency=4/run=0.failure.json"));
    assertEquals(0, failure.get("run_number"));
    assertEquals(Map.of("max_concurrency", 4), failure.get("overrides"));
    assertEquals("the benchmark run failed (exit status 255, no result JSON)",
        failure.get("error"));
    assertTrue(e.getMessage().contains("1 combination(s) failed:\n  - "
        + "SERVE-BENCH-max_concurrency=4 run 0: the benchmark run failed"), e.getMessage());
    assertTrue(e.getMessage().contains("The sweep went on (--continue-on-error). Use `--resume "
        + "nightly` to run the failed runs again."), e.getMessage());
    assertTrue(console().contains("FAILED: SERVE-BENCH-max_concurrency=4 run 0: the benchmark "
        + "run failed"), console());

    // a named experiment is continued on purpose only; --resume reruns the failed run alone
    IllegalArgumentException exists = assertThrows(IllegalArgumentException.class,
        () -> Sweep.serve(config(server).experimentName("nightly").build()));
    assertEquals("The experiment folder " + root + " already exists: give --resume to "
        + "continue it, or another -e/--experiment-name", exists.getMessage());
    FakeServer again = new FakeServer(4, 0.1, 20);
    SweepOutcome resumed = Sweep.serve(config(again).benchParams(c.benchParams())
        .experimentName("nightly").resume("nightly").build());
    assertEquals(1, again.calls.size());
    assertEquals(3, resumed.records().size());
    assertFalse(Files.exists(root.resolve("SERVE-BENCH-max_concurrency=4/run=0.failure.json")),
        "the run that failed before succeeded now");
  }

  @Test
  void aSearchCannotGoOnWhenEveryRunOfALoadFailed() {
    RunLauncher broken = (args, runDir) -> {
      throw new SweepFailure("the benchmark run failed (exit status 2)");
    };
    SweepFailure e = assertThrows(SweepFailure.class, () -> Sweep.workload(
        SweepAccess.withLauncher(config(null), broken).continueOnError(true).build(),
        SlaVariable.REQUEST_RATE, 3));
    assertTrue(e.getMessage().contains("every run with {max_concurrency=1, request_rate=1} "
        + "failed, and the next load is placed from its results"), e.getMessage());
  }

  @Test
  void anExperimentNameMustBeAFolderName() {
    assertEquals("-e/--experiment-name must be a folder name, got 'a/b'",
        assertThrows(IllegalArgumentException.class,
            () -> SweepConfig.builder().experimentName("a/b")).getMessage());
  }

  @Test
  void plotWritesIntoPlotsBesideTheReportsImages() {
    FakeServer server = new FakeServer(4, 0.1, 20);
    SweepOutcome o = Sweep.serve(config(server).benchParams(Params.parse(
        "[{\"max_concurrency\": 1}, {\"max_concurrency\": 8}]")).build());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, Sweep.run(new String[] {"plot", o.folder().toString(), "--fig-name",
        "latency"}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
    assertTrue(Files.isRegularFile(o.folder().resolve("plots/latency.png")));
    assertTrue(Files.isRegularFile(o.folder().resolve("plots/plots.html")));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("Wrote "
        + o.folder().resolve("plots/latency.png")), out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aWarmUpRunPrecedesEachPointAndCountsInNoFigure() throws Exception {
    FakeServer server = new FakeServer(4, 0.1, 20);
    SweepConfig c = config(server).numRuns(2).warmupNumPrompts(5)
        .benchParams(Params.parse("[{\"max_concurrency\": 2}]")).build();
    SweepOutcome o = Sweep.serve(c);
    assertEquals(3, server.calls.size());
    assertEquals("5", BenchArgs.parse(server.calls.get(0)).value("num-prompts").orElseThrow());
    assertEquals("40", BenchArgs.parse(server.calls.get(1)).value("num-prompts").orElseThrow());
    assertEquals(2, o.records().size(), "the warm-up is no run");
    Path point = o.folder().resolve("SERVE-BENCH-max_concurrency=2");
    assertEquals(2, Params.readObject(point.resolve("warmup.json")).get("max_concurrency"));
    assertEquals(2, SweepData.read(o.folder()).size());
    assertTrue(console().contains("[BEGIN WARMUP]"));

    FakeServer again = new FakeServer(4, 0.1, 20);
    Sweep.serve(config(again).numRuns(2).warmupNumPrompts(5).benchParams(c.benchParams())
        .resume(o.folder().getFileName().toString()).build());
    assertEquals(0, again.calls.size(), "every run is there: no warm-up either");
    assertEquals("--warmup-num-prompts must be at least 0, got -1",
        assertThrows(IllegalArgumentException.class,
            () -> SweepConfig.builder().warmupNumPrompts(-1)).getMessage());
  }
}
