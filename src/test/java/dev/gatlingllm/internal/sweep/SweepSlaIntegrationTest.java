package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SLA searches and a workload scan of real Gatling runs against the embedded simulator with a
 * knee at a known load. The simulator runs at most M = 2 requests at once; each takes
 * S = TTFT 50 ms + 8 × ITL 25 ms = 250 ms (9 output tokens). So:
 * <ul>
 *   <li>concurrency ≤ 2 never queues (TTFT 50 ms); at 3 the third request waits up to a whole
 *       service time (p99 TTFT about 300 ms): with {@code p99_ttft_ms <= 200} the answer is 2;
 *   <li>the capacity is M / S = 8 req/s: below it near-even arrivals ({@code --burstiness
 *       1000}) do not queue; above it the queue grows through the run, and at 9 req/s the
 *       last of 24 requests waits about (9 − 8) × 24/9 / 8 s ≈ 330 ms (p99 TTFT about
 *       380 ms): the answer is 8.
 * </ul>
 * The margins (80 ms and more on each side of 200 ms) are above the client's own delays on a
 * loaded 2-core machine (event-loop lag up to about 70 ms seen). The search must land within
 * one step (one request, or 1 req/s) of these values.
 *
 * <p>The runs are whole Gatling runs of the drop-in with the flags, folders and result JSON
 * the sweep gives them, made in this JVM ({@link InProcessRun}) rather than one JVM each: the
 * point here is what the runs measure, and a JVM start costs about 4 s a run on two cores.
 * {@link SweepServeCmdIntegrationTest} runs its sweep with {@link ForkedRun}, one JVM per
 * run. The workload scan resumes into the concurrency search's folder, as a user resuming
 * it with another mode would: its runs go to folders of their own ({@code ...-WL-...}).
 */
@Timeout(600)
class SweepSlaIntegrationTest {

  private static final int M = 2;
  private static Simulator simulator;

  @TempDir
  Path dir;

  private final ByteArrayOutputStream console = new ByteArrayOutputStream();

  @BeforeAll
  static void startSimulator() {
    simulator = Simulator.start(SimulatorConfig.builder().maxRunning(M)
        .ttft(Duration.ofMillis(50)).itl(Duration.ofMillis(25)).build());
  }

  @AfterAll
  static void stopSimulator() {
    simulator.close();
  }

  private String console() {
    return console.toString(StandardCharsets.UTF_8);
  }

  private SweepConfig.Builder builder() {
    return SweepConfig.builder()
        .benchArgs("--base-url " + simulator.baseUrl() + " --model sim-model --tokenizer gpt2 "
            + "--dataset-name random --random-input-len 16 --random-output-len 9 --ignore-eos "
            + "--num-prompts 24 --burstiness 1000 --seed 1 --ready-check-timeout-sec 10 "
            + "--disable-tqdm")
        .numRuns(1).outputDir(dir)
        .out(new PrintStream(console, true, StandardCharsets.UTF_8));
  }

  private static final List<Map<String, SlaCriterion>> SLA =
      SlaCriterion.parseAll("[{\"p99_ttft_ms\": \"<=200\"}]");

  @Test
  void theConcurrencySearchFindsTheRunningRequestCapAndTheScanInItsFolderShowsTheKnee() {
    InProcessRun searchRuns = new InProcessRun();
    SweepOutcome o = Sweep.serveSla(SweepAccess.withLauncher(builder(), searchRuns).build(), SLA,
        SlaVariable.MAX_CONCURRENCY);
    int answer = o.answers().get(0).value();
    assertTrue(Math.abs(answer - M) <= 1, "answer " + answer + ", expected " + M + " ± 1; "
        + o.answers());
    assertTrue(Files.exists(o.folder().resolve("SERVE-BENCH/SLA-p99_ttft_ms<=200.00.json")));
    assertTrue(Files.exists(o.folder().resolve("sweep-report.html")));
    // each run is a whole Gatling run with its own report
    Path run = o.folder().resolve("SERVE-BENCH/max_concurrency=" + answer + "/run=0");
    assertTrue(Files.isRegularFile(run.resolve("result.json")));
    assertTrue(gatlingIndex(run), "Gatling's report of " + run);
    // the unlimited run, then every value the search tried
    assertEquals(1 + o.answers().get(0).tested().size(), searchRuns.runs);

    // the workload scan of the rate, resumed into the same folder, with vLLM's ends: serial
    // (concurrency 1 at 1 req/s) and batch (concurrency and rate = the 24 prompts), then
    // linspace(ceil(serial), floor(batch), 3)[1:-1]: one rate between
    console.reset();
    InProcessRun inProcess = new InProcessRun();
    SweepOutcome w = Sweep.workload(SweepAccess.withLauncher(builder(), inProcess)
        .resume(o.folder().getFileName().toString()).build(), SlaVariable.REQUEST_RATE, 3);
    assertEquals(o.folder(), w.folder());
    assertEquals(3, inProcess.runs, "the scan's WL- folders are its own: " + console());
    List<Map<String, Object>> rs = w.records();
    assertEquals(3, rs.size(), "serial, batch, 1 rate between: " + rs);
    // serial: one request a second, each done in S: about 1 req/s
    Map<String, Object> serial = rs.get(0);
    assertEquals(1, SweepData.number(serial, "max_concurrency"));
    assertEquals(1, SweepData.number(serial, "request_throughput"), 0.2);
    // batch: the server's capacity, M / S = 8 req/s, behind a long queue
    Map<String, Object> burst = rs.get(1);
    assertEquals(24, SweepData.number(burst, "max_concurrency"));
    assertEquals(8, SweepData.number(burst, "request_throughput"), 1.2);
    assertTrue(SweepData.number(burst, "p99_ttft_ms") > 1000, "queued: " + burst);
    // the rate between (about (1 + 7) / 2 = 4 req/s) stays below the knee: no queue
    Map<String, Object> between = rs.get(2);
    double rate = SweepData.number(between, "request_rate");
    assertTrue(rate > 1 && rate < 8, "a rate between the ends: " + rate);
    assertTrue(SweepData.number(between, "p99_ttft_ms") < 200, "no queue below the knee: "
        + between);
    assertEquals(rate, SweepData.number(between, "request_throughput"), rate * 0.15);
    assertTrue(Files.exists(w.folder().resolve("SERVE-BENCH-WL-request_rate.json")));
    assertTrue(Files.exists(w.folder().resolve("SERVE-BENCH-WL-request_rate="
        + (int) rate + "/run=0.json")));
    // both modes' files side by side
    assertTrue(Files.exists(w.folder().resolve("SERVE-BENCH/SLA-p99_ttft_ms<=200.00.json")));
  }

  @Test
  void theRateSearchFindsTheCapacity() {
    InProcessRun inProcess = new InProcessRun();
    SweepOutcome o = Sweep.serveSla(SweepAccess.withLauncher(builder(), inProcess).build(), SLA,
        SlaVariable.REQUEST_RATE);
    int answer = o.answers().get(0).value();
    assertTrue(Math.abs(answer - 8) <= 1, "answer " + answer + ", expected 8 ± 1; "
        + o.answers());
    // the unlimited run, then every value the search tried, each a whole run with its reports
    assertEquals(1 + o.answers().get(0).tested().size(), inProcess.runs);
    Path run = o.folder().resolve("SERVE-BENCH/request_rate=" + answer + "/run=0");
    assertTrue(Files.isRegularFile(run.resolve("result.json")));
    assertTrue(gatlingIndex(run), "Gatling's report of " + run);
  }

  private static boolean gatlingIndex(Path run) {
    try (var s = Files.list(run.resolve("gatling"))) {
      return s.anyMatch(p -> Files.isRegularFile(p.resolve("index.html")));
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
