package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.protocol.RunResultsAccess;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.simulations.datasets.VllmFlagsSimulation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server-compliance check of prompt tokens where the server is the embedded simulator: when
 * the simulator counts with the run's tokenizer (the one a simulation starts for itself does),
 * the check applies and passes, and the run's input tokens are the server's; a server that
 * counts otherwise is still reported.
 */
@Timeout(180)
class SimulatorTokenizerIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern DATA = Pattern.compile(
      "<script type=\"application/json\" id=\"llm-data\">(.*?)</script>", Pattern.DOTALL);
  private static final String WARNING = "Warning: the server's usage.prompt_tokens differs";
  // sonnet, not random: random prompts are re-aligned to the server's own /tokenize counts
  // before the run (vLLM 0.29), which would hide a server that counts otherwise
  private static final String DROP_IN = "--model served-llm --tokenizer datasets/tokenizers/gpt2 "
      + "--dataset-name sonnet --dataset-path datasets/sonnet/sonnet.txt --sonnet-input-len 64 "
      + "--sonnet-prefix-len 16 --sonnet-output-len 8 --num-prompts 30 "
      + "--request-rate 50 --seed 3 --request-id-prefix run- ";

  @TempDir
  Path results;

  private static SimulatorConfig.Builder fast() {
    return StrictServer.builder().ttft(Duration.ofMillis(2)).itl(Duration.ofMillis(1))
        .recordRequests(true);
  }

  /** One Gatling run in this JVM whose console, its summary included, is kept. */
  private record Run(GatlingRunner.Result result, String console) {
    /** The result as its LLM report embeds it. */
    JsonNode json() throws IOException {
      Matcher m = DATA.matcher(Files.readString(result.file("llm-report.html")));
      assertTrue(m.find(), "data in the report of " + result.runFolder());
      return JSON.readTree(m.group(1)).path("result");
    }
  }

  private Run run(Class<?> simulation, Map<String, String> properties) {
    // an earlier run's summary, held back until the next run, is not this run's
    RunResultsAccess.printPendingSummary();
    PrintStream original = System.out;
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    System.setOut(new PrintStream(copy, true, StandardCharsets.UTF_8));
    GatlingRunner.Result result;
    try {
      Map<String, String> all = new HashMap<>(properties);
      all.put("llm.resultsFolder", results.toString());
      result = GatlingRunner.run(simulation, results, all);
      if (simulation != BenchServe.class) {
        // without after() a run's results are written at the JVM's exit (which also stops the
        // simulator it started): in this JVM, now
        GatlingRunner.writeResults(simulation, results);
      }
      RunResultsAccess.printPendingSummary();
    } finally {
      // a run that crashed in-process leaves this thread interrupted
      Thread.interrupted();
      System.setOut(original);
    }
    String console = copy.toString(StandardCharsets.UTF_8);
    original.print(console);
    assertEquals(0, result.exitCode(), console);
    assertTrue(console.contains("Serving Benchmark Result"), "the summary was kept: " + console);
    return new Run(result, console);
  }

  private Run dropIn(Simulator sim) {
    return run(BenchServe.class, Map.of(CommandLine.ARGS_PROPERTY,
        DROP_IN + "--base-url " + sim.baseUrl()));
  }

  @Test
  void aDatasetExampleChecksItsPromptsAgainstTheSimulatorItStartsAndPasses() throws IOException {
    // no base URL: it starts its own simulator; no tokenizer named: the shipped GPT-2
    Run run = run(VllmFlagsSimulation.class, Map.of());
    assertFalse(run.console().contains(WARNING), run.console());
    JsonNode json = run.json();
    assertEquals("gpt2", json.get("tokenizer_id").asText());
    JsonNode compliance = json.get("server_compliance");
    // the shipped GPT-2 is compared with a server counting with it, not left out
    assertTrue(compliance.get("prompt_check_off").isNull(), compliance.toString());
    JsonNode prompts = compliance.path("checks").path("prompt_tokens_mismatch");
    assertEquals(json.get("completed").asInt(), prompts.path("checked").asInt());
    assertEquals(40, prompts.path("checked").asInt());
    assertEquals(0, prompts.path("violations").asInt(), compliance.toString());
    assertEquals(0, compliance.get("warnings").size(), compliance.toString());
  }

  @Test
  void aDropInRunAgainstTheSimulatorCountingWithItsTokenizerTakesTheServersCounts()
      throws Exception {
    try (Simulator sim = Simulator.start(fast().tokenizer("datasets/tokenizers/gpt2").build())) {
      Run run = dropIn(sim);
      assertFalse(run.console().contains(WARNING), run.console());
      JsonNode prompts = run.json().path("server_compliance").path("checks")
          .path("prompt_tokens_mismatch");
      assertEquals(30, prompts.path("checked").asInt());
      assertEquals(0, prompts.path("violations").asInt());
      // what the server reported for each of the run's prompts, asked again without streaming
      List<RecordedRequest> sent = sim.recordedRequests().stream()
          .filter(r -> r.path().equals("/v1/completions"))
          .filter(r -> r.header("x-request-id") != null
              && r.header("x-request-id").startsWith("run-"))
          .toList();
      assertEquals(30, sent.size());
      long usage = 0;
      for (RecordedRequest request : sent) {
        usage += promptTokensReported(sim, request.body());
      }
      assertEquals(usage, run.json().get("total_input_tokens").asLong());
    }
  }

  @Test
  void aServerCountingWithAnotherTokenizerIsStillReported() throws Exception {
    // counts words, as a server with another tokenizer would count otherwise
    try (Simulator sim = Simulator.start(fast().build())) {
      Run run = dropIn(sim);
      assertTrue(run.console().contains(WARNING), run.console());
      JsonNode prompts = run.json().path("server_compliance").path("checks")
          .path("prompt_tokens_mismatch");
      assertEquals(30, prompts.path("checked").asInt());
      assertTrue(prompts.path("violations").asInt() > 0, prompts.toString());
    }
  }

  /** {@code usage.prompt_tokens} of {@code body} sent again, not streamed, for one token. */
  private static int promptTokensReported(Simulator sim, byte[] body) throws Exception {
    ObjectNode again = (ObjectNode) JSON.readTree(body);
    again.put("stream", false);
    again.remove("stream_options");
    again.put("max_tokens", 1);
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create(sim.baseUrl() + "/v1/completions"))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(again.toString())).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return JSON.readTree(response.body()).path("usage").path("prompt_tokens").asInt();
  }
}
