package dev.gatlingllm.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    return SweepConfig.builder().benchArgs(BENCH).outputDir(dir).numRuns(1)
        .out(new PrintStream(console, true, StandardCharsets.UTF_8)).launcher(server);
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
  void workloadScanPlacesItsPointsFromTheFirstTwoRuns() {
    FakeServer server = new FakeServer(8, 0.05, 20);
    SweepOutcome o = Sweep.workload(config(server).build(), SlaVariable.REQUEST_RATE, 4);
    // concurrency 1: 20 req/s; everything at once: 160 req/s; 4 points between
    List<Object> rates = o.records().stream().map(r -> r.get("request_rate")).toList();
    assertEquals(List.of("inf", "inf", 48.0, 76.0, 104.0, 132.0), rates);
    assertTrue(Files.exists(o.folder().resolve("SERVE-BENCH/WORKLOAD-request_rate.json")));
    assertTrue(Files.exists(o.folder().resolve("SERVE-BENCH/request_rate=48.0/run=0.json")));
  }

  @Test
  void aFailingRunFailsItsCombinationWithTheResumeHint() {
    RunLauncher broken = (args, runDir) -> {
      throw new SweepFailure("the benchmark run failed (exit status 2)");
    };
    SweepFailure e = assertThrows(SweepFailure.class, () -> Sweep.serve(SweepConfig.builder()
        .benchArgs(BENCH).outputDir(dir).numRuns(1)
        .out(new PrintStream(console, true, StandardCharsets.UTF_8)).launcher(broken).build()));
    assertTrue(e.getMessage().contains("SERVE: the benchmark run failed (exit status 2)"),
        e.getMessage());
    assertTrue(e.getMessage().contains("Use `--resume " + e.outcome().folder().getFileName()
        + "` to continue"), e.getMessage());
  }
}
