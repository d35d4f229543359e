package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.cli.CommandLine;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
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

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String COMMON = "--model sim-model --tokenizer datasets/tokenizers/gpt2 "
      + "--save-result --seed 1 --backend openai --dataset-name random --random-input-len 16 "
      + "--random-output-len 12 --ignore-eos ";

  @TempDir
  static Path results;

  private static Simulator sim;

  @BeforeAll
  static void start() {
    sim = Simulator.start(SimulatorConfig.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(5)).jitter(0).maxRunning(4).build());
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  private record Run(JsonNode json, String console) {}

  private static Run bench(String name, String args) throws Exception {
    Path folder = Files.createDirectories(results.resolve(name));
    PrintStream original = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    PrintStream captured = new PrintStream(copy, true, StandardCharsets.UTF_8);
    System.setOut(captured);
    System.setErr(captured);
    GatlingRunner.Result result;
    try {
      result = GatlingRunner.run(BenchServe.class, folder, Map.of(CommandLine.ARGS_PROPERTY,
          COMMON + args + " --base-url " + sim.baseUrl(), "llm.resultsFolder",
          folder.toString()));
    } finally {
      // a run that crashed in-process leaves this thread interrupted
      Thread.interrupted();
      System.setOut(original);
      System.setErr(originalErr);
    }
    String console = copy.toString(StandardCharsets.UTF_8);
    original.print(console);
    assertEquals(0, result.exitCode(), console);
    try (Stream<Path> files = Files.list(result.runFolder())) {
      List<Path> json = files.filter(p -> p.toString().endsWith(".json")).toList();
      assertEquals(1, json.size(), json.toString());
      return new Run(JSON.readTree(json.get(0).toFile()), console);
    }
  }

  @Test
  void offeredAboveTheCapIsMarkedOverSaturated() throws Exception {
    Run run = bench("over", "--num-prompts 150 --request-rate 150");
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
    Run run = bench("under", "--num-prompts 80 --request-rate 20");
    JsonNode o = run.json().get("over_saturation");
    System.out.println("under: " + o);
    assertFalse(o.get("detected").asBoolean(), o.toString());
    assertTrue(o.get("since_s").isNull());
    assertTrue(o.get("windows_tested").asInt() > 0, "the run was long enough to be tested");
  }

  @Test
  void closedLoopGetsASteadyStateWindow() throws Exception {
    Run run = bench("closed", "--num-prompts 60 --request-rate inf --max-concurrency 4");
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
