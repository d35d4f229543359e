package dev.gatlingllm.launcher;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.protocol.RunResults;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.sweep.SweepConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gatling-llm bench serve} runs the drop-in through Gatling in this JVM against the
 * embedded simulator, as {@code bin/gatling-llm} does: result JSON and Gatling report in the
 * results folder, exit status 0, and the JVM's own settings given back afterwards.
 */
class LauncherIntegrationTest {

  @TempDir
  Path dir;

  @Test
  void benchServeRunsThroughGatlingAndWritesVllmsResult() throws Exception {
    Path results = dir.resolve("results");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (Simulator sim = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(10)).itl(Duration.ofMillis(2)).build())) {
      System.setProperty(RunResults.RESULTS_FOLDER_PROPERTY, results.toString());
      try {
        status = GatlingLlm.run(new String[] {"bench", "serve", "--base-url", sim.baseUrl(),
            "--model", "served-llm", "--tokenizer", "gpt2", "--dataset-name", "random",
            "--random-input-len", "32", "--random-output-len", "4", "--num-prompts", "6",
            "--seed", "3", "--label", "launcher run", "--save-result",
            "--result-filename", "result.json"}, System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
      } finally {
        System.clearProperty(RunResults.RESULTS_FOLDER_PROPERTY);
      }
    }
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    Path run;
    try (Stream<Path> folders = Files.list(results)) {
      run = folders.filter(p -> p.getFileName().toString().startsWith("benchserve-"))
          .findFirst().orElseThrow();
    }
    JsonNode result = new ObjectMapper().readTree(run.resolve("result.json").toFile());
    assertEquals(6, result.get("completed").asInt());
    assertEquals(6 * 4, result.get("total_output_tokens").asInt());
    assertEquals("launcher run", result.get("label").asText(), "a value with a space survives");
    assertTrue(Files.exists(run.resolve("index.html")), "Gatling's report");
    assertTrue(Files.exists(run.resolve("llm-report.html")), "the LLM report");
    assertNull(System.getProperty(CommandLine.ARGS_PROPERTY), "llm.args given back");
  }

  @Test
  void numRunsRunsTheBenchmarkThreeTimesAndWritesTheSpreadOfItsFigures() throws Exception {
    Path out = dir.resolve("repeated");
    String text = launchAgainstSimulator(baseUrl -> new String[] {"bench", "serve",
        "--base-url", baseUrl, "--model", "served-llm", "--tokenizer", "gpt2",
        "--dataset-name", "random", "--random-input-len", "16", "--random-output-len", "4",
        "--num-prompts", "5", "--request-rate", "50", "--num-runs", "3",
        "--result-dir", out.toString()});
    Path root = onlyFolder(out);
    ObjectMapper json = new ObjectMapper();
    for (int n = 0; n < 3; n++) {
      Path run = root.resolve("run=" + n);
      JsonNode result = json.readTree(run.resolve("result.json").toFile());
      assertEquals(5, result.get("completed").asInt(), "run " + n);
      assertTrue(Files.isRegularFile(run.resolve("console.log")));
      try (Stream<Path> gatling = Files.list(run.resolve("gatling"))) {
        Path folder = gatling.findFirst().orElseThrow();
        assertTrue(Files.exists(folder.resolve("index.html")), "Gatling's report of run " + n);
        assertTrue(Files.exists(folder.resolve("llm-report.html")), "LLM report of run " + n);
      }
      // fresh arrivals: each run its own seed, as no --seed was given
      assertTrue(text.matches("(?s).*Run Number: " + n + "\nBenchmark command: BenchServe [^\n]*"
          + "--seed " + n + "\n.*"), text);
    }
    JsonNode agg = json.readTree(root.resolve("aggregate.json").toFile());
    assertEquals(3, agg.get("num_runs").asInt());
    JsonNode throughput = agg.at("/metrics/request_throughput");
    assertEquals(3, throughput.get("values").size());
    double mean = 0;
    for (JsonNode v : throughput.get("values")) {
      mean += v.asDouble() / 3;
    }
    assertEquals(mean, throughput.get("mean").asDouble(), 1e-9);
    assertTrue(throughput.get("min").asDouble() <= mean && mean <= throughput.get("max")
        .asDouble());
    assertTrue(throughput.get("ci95_low").asDouble() <= mean);
    for (String key : new String[] {"output_throughput", "total_token_throughput",
        "mean_ttft_ms", "p99_ttft_ms", "mean_tpot_ms", "p99_tpot_ms", "mean_itl_ms",
        "p99_itl_ms"}) {
      assertTrue(agg.at("/metrics/" + key + "/cv").isNumber(), key);
    }
    assertTrue(Files.isRegularFile(root.resolve("sweep-report.html")));
    assertTrue(text.contains(" Repeated runs: 3, 95 % interval (Student t) "), text);
    assertTrue(text.contains("Request throughput (req/s)"), text);
  }

  @Test
  void aDslSimulationRepeatedGetsItsSeedPerRunAndTheSameStatistics() throws Exception {
    Path out = dir.resolve("dsl");
    String text = launchAgainstSimulator(baseUrl -> new String[] {"bench", "sweep", "repeat",
        "--simulation", "dev.gatlingllm.internal.sweep.RepeatedSimulation", "--num-runs", "2",
        "-o", out.toString(), "--jvm-args",
        String.join(" ", SweepConfig.DEFAULT_JVM_ARGS) + " -Dit.baseUrl=" + baseUrl});
    Path root = onlyFolder(out);
    ObjectMapper json = new ObjectMapper();
    for (int n = 0; n < 2; n++) {
      Path run = root.resolve("run=" + n);
      assertEquals(6, json.readTree(run.resolve("result.json").toFile()).get("completed")
          .asInt(), "the DSL's result JSON, copied beside the run's reports");
      assertTrue(Files.readString(run.resolve("console.log"))
          .contains("repeated simulation seed=" + n), "run " + n + " got -Dllm.seed=" + n);
    }
    JsonNode agg = json.readTree(root.resolve("aggregate.json").toFile());
    assertEquals(2, agg.at("/metrics/request_throughput/values").size());
    assertTrue(text.contains(" Repeated runs: 2, 95 % interval (Student t) "), text);
  }

  @Test
  void sweepMaxConcurrencyRunsOnePointEachAndPrintsTheSweepsTable() throws Exception {
    Path out = dir.resolve("one-command");
    String text = launchAgainstSimulator(baseUrl -> new String[] {"bench", "serve",
        "--base-url", baseUrl, "--model", "served-llm", "--tokenizer", "gpt2",
        "--dataset-name", "random", "--random-input-len", "16", "--random-output-len", "4",
        "--sweep-max-concurrency", "1,4", "--sweep-num-prompts-factor", "2",
        "--reset-prefix-cache", "--sweep-summary-percentiles", "95",
        "--result-dir", out.toString()});
    Path root = onlyFolder(out);
    ObjectMapper json = new ObjectMapper();
    for (int c : new int[] {1, 4}) {
      JsonNode run = json.readTree(root.resolve("SERVE-BENCH-max_concurrency=" + c
          + "-num_prompts=" + 2 * c + "/run=0.json").toFile());
      assertEquals(c, run.get("max_concurrency").asInt());
      assertEquals(2 * c, run.get("completed").asInt(), "factor 2 × concurrency " + c);
    }
    assertTrue(Files.isRegularFile(root.resolve("sweep-report.html")));
    assertTrue(text.contains(" Sweep: mean of each point's runs (ms for latencies) "), text);
    assertTrue(text.matches("(?s).*\nSERVE-BENCH-max_concurrency=4-num_prompts=8 +1 .*"), text);
    // --sweep-summary-percentiles 95: computed in each run, two more columns with figures
    for (int c : new int[] {1, 4}) {
      JsonNode run = json.readTree(root.resolve("SERVE-BENCH-max_concurrency=" + c
          + "-num_prompts=" + 2 * c + "/run=0.json").toFile());
      assertTrue(run.get("p95_ttft_ms").asDouble() > 0, "p95 TTFT of concurrency " + c);
    }
    assertTrue(text.contains("P99 E2EL   P95 TTFT   P95 TPOT  flags"), text);
    assertTrue(text.matches("(?s).*\nSERVE-BENCH-max_concurrency=1-num_prompts=2 +1"
        + "( +\\d+\\.\\d\\d){8}  .*"), text);
    // --reset-prefix-cache: the simulator answers it (as vLLM with VLLM_SERVER_DEV_MODE=1),
    // before each of the two runs
    assertEquals(3, text.split("Reset the prefix cache: POST ", -1).length, text);
    assertFalse(text.contains("WARNING: --reset-prefix-cache"), text);
  }

  @Test
  void aValueRefusedWhileTheRunIsBuiltExitsOneAsUnderMaven() {
    System.setProperty(RunResults.RESULTS_FOLDER_PROPERTY, dir.resolve("refused").toString());
    try {
      assertEquals(1, GatlingLlm.run(new String[] {"bench", "serve", "--model", "m",
          "--tokenizer", "gpt2", "--dataset-name", "sharegpt"}, System.out, System.err));
    } finally {
      System.clearProperty(RunResults.RESULTS_FOLDER_PROPERTY);
    }
  }

  /**
   * The launcher's console (standard output, where bench serve and the sweeps print) when it
   * runs {@code args} of the simulator's base URL; the launch must exit 0.
   */
  private static String launchAgainstSimulator(Function<String, String[]> args) {
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    PrintStream before = System.out;
    int status;
    try (Simulator sim = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(10)).itl(Duration.ofMillis(2)).build())) {
      System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
      try {
        status = GatlingLlm.run(args.apply(sim.baseUrl()), System.out, System.err);
      } finally {
        System.setOut(before);
      }
    }
    String text = console.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, text);
    return text;
  }

  /** The one folder a repeated or swept run wrote under {@code out}. */
  private static Path onlyFolder(Path out) throws IOException {
    try (Stream<Path> folders = Files.list(out)) {
      return folders.filter(Files::isDirectory).findFirst().orElseThrow();
    }
  }
}
