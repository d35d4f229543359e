package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drop-in against a simulator that can generate for 4 requests at once ({@code
 * --max-running 4}; TTFT 20 ms, ITL 5 ms, 12 output tokens, no jitter: a request holds a slot
 * about 75 ms, so the server finishes about 53 requests/s). Offered 150 requests/s it queues
 * them and the run must be marked over-saturated; offered 20 requests/s it keeps up and must
 * not be. A closed loop at max concurrency 4 gets a steady-state window. Every run goes the
 * whole way: Gatling, the records and the result JSON (the console block is tested in
 * {@code RunAnalysisTest}).
 */
@Timeout(180)
class OverSaturationIntegrationTest {

  /** The flags of these runs, shared with {@code OverSaturationStopIntegrationTest}. */
  static final String COMMON = "--model served-llm --tokenizer datasets/tokenizers/gpt2 "
      + "--save-result --seed 1 --backend openai --dataset-name random --random-input-len 16 "
      + "--random-output-len 12 --ignore-eos ";

  /** The server of these runs, shared with {@code OverSaturationStopIntegrationTest}. */
  static final SimulatorConfig FOUR_SLOTS = StrictServer.builder()
      .ttft(Duration.ofMillis(20)).itl(Duration.ofMillis(5)).jitter(0).maxRunning(4).build();

  @TempDir
  static Path results;

  private static Simulator sim;

  @BeforeAll
  static void start() {
    sim = Simulator.start(FOUR_SLOTS);
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  private static CapturedBench.Run bench(String name, String args) throws Exception {
    return CapturedBench.run(results.resolve(name),
        COMMON + args + " --base-url " + sim.baseUrl());
  }

  @Test
  void offeredAboveTheCapIsMarkedOverSaturated() throws Exception {
    CapturedBench.Run run = bench("over", "--num-prompts 150 --request-rate 150");
    JsonNode o = run.json().get("over_saturation");
    System.out.println("over: " + o);
    assertTrue(o.get("detected").asBoolean(), o.toString());
    double since = o.get("since_s").asDouble();
    assertTrue(since > 0 && since < run.json().get("duration").asDouble(), o.toString());
    JsonNode e = o.get("evidence");
    assertTrue(e.get("backlog_added").asDouble() >= 0.2 * o.get("window_requests").asInt(),
        e.toString());
    assertTrue(e.get("ttft_slope_ms_per_s").asDouble() > 0, e.toString());
    // an open loop: no steady state unless a trim is asked
    assertTrue(run.json().get("steady_state").isNull());
  }

  @Test
  void offeredBelowTheCapIsNotMarked() throws Exception {
    CapturedBench.Run run = bench("under", "--num-prompts 80 --request-rate 20");
    JsonNode o = run.json().get("over_saturation");
    System.out.println("under: " + o);
    assertFalse(o.get("detected").asBoolean(), o.toString());
    assertTrue(o.get("since_s").isNull());
    assertTrue(o.get("windows_tested").asInt() > 0, "the run was long enough to be tested");
  }

  @Test
  void closedLoopGetsASteadyStateWindow() throws Exception {
    CapturedBench.Run run = bench("closed", "--num-prompts 60 --request-rate inf --max-concurrency 4");
    JsonNode s = run.json().get("steady_state");
    System.out.println("closed: " + s);
    JsonNode w = s.get("window");
    assertEquals("closed_loop", w.get("mode").asText());
    assertEquals(4, w.get("threshold_abs").asInt());
    assertEquals(4, w.get("observed_peak").asInt());
    // the window opens at the 4th start and closes when a freed slot is no longer refilled:
    // the first 3 requests start before it (57 of 60 in the measured run)
    assertTrue(w.get("requests_started_in_window").asInt() >= 50, w.toString());
    assertTrue(s.get("request_throughput").asDouble() > 0);
    assertFalse(run.json().get("over_saturation").get("detected").asBoolean());
  }
}
