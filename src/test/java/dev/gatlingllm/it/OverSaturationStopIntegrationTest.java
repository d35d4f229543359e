package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.Simulator;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --stop-on-over-saturation} against the simulator of {@code
 * OverSaturationIntegrationTest} (4 requests generated at once, about 53 finished per second).
 * Offered 150 requests/s for 6 s, the run would need about 17 s to drain its 900 requests; the
 * live check stops it within its first seconds instead (at 1.06 s in one run, at 3.02 s in
 * another on a loaded machine, where the windows of 32 requests fell short), before the last
 * arrivals, and the result keeps the requests that finished and says why. Offered 20
 * requests/s it is never stopped.
 */
@Timeout(180)
class OverSaturationStopIntegrationTest {

  private static final String COMMON = OverSaturationIntegrationTest.COMMON
      + "--stop-on-over-saturation ";

  @TempDir
  static Path results;

  private static Simulator sim;

  @BeforeAll
  static void start() {
    sim = Simulator.start(OverSaturationIntegrationTest.FOUR_SLOTS);
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  private static CapturedBench.Run bench(String name, String args) throws Exception {
    return bench(name, COMMON, args);
  }

  private static CapturedBench.Run bench(String name, String common, String args)
      throws Exception {
    return CapturedBench.run(results.resolve(name),
        common + args + " --base-url " + sim.baseUrl());
  }

  @Test
  void aRunPastSaturationEndsEarlyKeepsItsFinishedRequestsAndSaysWhy() throws Exception {
    long t0 = System.nanoTime();
    CapturedBench.Run run = bench("stopped", "--num-prompts 900 --request-rate 150");
    double wall = (System.nanoTime() - t0) / 1e9;
    JsonNode o = run.json().get("over_saturation");
    System.out.println("stopped: " + o + " completed " + run.json().get("completed")
        + " failed " + run.json().get("failed") + " duration " + run.json().get("duration")
        + " wall " + wall);
    assertTrue(o.get("stopped_early").asBoolean(), o.toString());
    JsonNode stop = o.get("stop");
    assertTrue(stop.get("reason").asText().startsWith("over-saturated: in flight +"),
        stop.toString());
    double at = stop.get("at_s").asDouble();
    // checked once a second from the first send: the first check is at ~1 s; the last
    // arrival is at 6 s
    assertTrue(at >= 0.9 && at < 5.5, "stopped at " + at + " s");
    assertTrue(stop.get("since_s").asDouble() < at, stop.toString());
    int completed = run.json().get("completed").asInt();
    int finishedAtStop = stop.get("requests_finished").asInt();
    // the finished requests are all kept (and those that finished before the results were
    // written); the run never sent its last arrivals
    assertTrue(completed >= finishedAtStop && finishedAtStop > 0, run.json().toString());
    assertTrue(completed + stop.get("requests_unfinished").asInt() < 900, stop.toString());
    assertTrue(stop.get("requests_in_flight").asInt() > 0, stop.toString());
    // a request refused after the stop is no failed request: it was never sent
    assertEquals(0, run.json().get("failed").asInt(), run.json().toString());
    // 900 requests at ~53/s would have taken 17 s
    assertTrue(run.json().get("duration").asDouble() < 7, run.json().get("duration").toString());
    assertTrue(run.console().contains("gatling-llm: stopping the run "), run.console());
    // the run is marked over-saturated whether or not its finished requests alone pass
    assertTrue(o.get("detected").asBoolean(), o.toString());
    assertTrue(run.json().get("over_saturation_stop") == null, "moved into over_saturation");
  }

  @Test
  void aRunBelowSaturationIsNotStopped() throws Exception {
    CapturedBench.Run run = bench("kept", "--num-prompts 80 --request-rate 20");
    JsonNode o = run.json().get("over_saturation");
    System.out.println("kept: " + o);
    assertFalse(o.get("stopped_early").asBoolean(), o.toString());
    assertTrue(o.get("stop").isNull(), o.toString());
    assertEquals(80, run.json().get("completed").asInt());
    assertFalse(run.console().contains("stopping the run"), run.console());
  }

  @Test
  void aConversationRunPastSaturationEndsToo() throws Exception {
    // a turn refused after the stop made no request: each conversation must end there rather
    // than try that turn again (it did, forever, before the conversation learnt of it)
    CapturedBench.Run run = bench("conversations", COMMON
        .replace("--backend openai ", "--backend openai-chat ")
        .replace("--random-input-len 16 ", ""), "--multi-turn --multi-turn-num-turns 4 "
        + "--per-turn-input-len 16 --num-prompts 600 --request-rate 150");
    JsonNode o = run.json().get("over_saturation");
    assertTrue(o.get("stopped_early").asBoolean(), o.toString());
    assertTrue(run.json().get("completed").asInt() < 2400, run.json().toString());
    assertEquals(0, run.json().get("failed").asInt(), run.json().toString());
  }
}
