package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole runs checking the server against the requests: silent against the simulator's vLLM
 * mode, and each warning firing against the llama.cpp habit it is about, with every request
 * a success all the same (the numbers are the server's, the warning says so).
 */
@Timeout(180)
class ServerComplianceIntegrationTest {

  private static final int REQUESTS = 20;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern DATA = Pattern.compile(
      "<script type=\"application/json\" id=\"llm-data\">(.*?)</script>", Pattern.DOTALL);
  private static final List<String> CHECKS = List.of("output_over_max_tokens",
      "output_under_ignore_eos", "model_not_listed", "prompt_tokens_mismatch");

  @TempDir
  Path results;

  private static SimulatorConfig.Builder llamaCpp(int contextTokens) {
    return StrictServer.builder().dialect(SimulatorConfig.Dialect.LLAMACPP)
        .contextTokens(contextTokens);
  }

  /** Runs and returns the result JSON's {@code server_compliance}, checking it was embedded. */
  private JsonNode run(SimulatorConfig.Builder server, String endpoint, String model,
      int maxTokens, int promptWords) throws IOException {
    try (Simulator simulator = Simulator.start(server.ttft(Duration.ofMillis(2))
        .itl(Duration.ofMillis(1)).build())) {
      Map<String, String> properties = new HashMap<>(Map.of(
          ComplianceItSimulation.BASE_URL, simulator.baseUrl(),
          ComplianceItSimulation.ENDPOINT, endpoint,
          ComplianceItSimulation.MODEL, model,
          ComplianceItSimulation.MAX_TOKENS, Integer.toString(maxTokens),
          ComplianceItSimulation.PROMPT_WORDS, Integer.toString(promptWords),
          ComplianceItSimulation.REQUESTS, Integer.toString(REQUESTS),
          "llm.resultsFolder", results.toString()));
      GatlingRunner.Result result =
          GatlingRunner.run(ComplianceItSimulation.class, results, properties);
      assertEquals(0, result.exitCode(), "Gatling counted no KO");
      JsonNode json = resultJson(result.runFolder());
      assertEquals(REQUESTS, json.get("completed").asInt());
      JsonNode compliance = json.get("server_compliance");
      assertEquals(compliance, embedded(result.file("llm-report.html")).path("result")
          .path("server_compliance"), "the report shows what the JSON holds");
      return compliance;
    }
  }

  private static void assertOnly(JsonNode compliance, String fired) {
    for (String check : CHECKS) {
      assertEquals(check.equals(fired) ? REQUESTS : 0,
          compliance.path("checks").path(check).path("violations").asInt(), check);
    }
    assertEquals(fired == null ? 0 : 1, compliance.get("warnings").size(),
        compliance.get("warnings").toString());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"chat", "completions"})
  void vllmModeIsSilentWithEveryCheckApplied(String endpoint) throws IOException {
    JsonNode compliance = run(StrictServer.builder(), endpoint, "served-llm", 16, 3);
    assertOnly(compliance, null);
    for (String check : CHECKS) {
      assertEquals(REQUESTS, compliance.path("checks").path(check).path("checked").asInt(), check);
    }
    assertEquals("[\"served-llm\"]", compliance.get("models_listed").toString());
    assertTrue(compliance.get("prompt_check_off").isNull());
  }

  @Test
  void ignoredMaxCompletionTokensIsReportedWithTheFix() throws IOException {
    // 40 - 3 prompt tokens = 37 output tokens for 16 asked; one stream in 20 has no role chunk
    JsonNode compliance = run(llamaCpp(40), "chat", "served-llm", 16, 3);
    assertOnly(compliance, "output_over_max_tokens");
    String warning = compliance.get("warnings").get(0).asText();
    assertTrue(warning.startsWith("the server ignores max_completion_tokens: 20 of 20 requests"
        + " (e.g. request "), warning);
    assertTrue(warning.endsWith("use --backend openai (completions, which sends max_tokens) or"
        + " send max_tokens too via --extra-body (extraBody in a simulation)"), warning);
    assertEquals(3, compliance.path("checks").path("output_over_max_tokens")
        .path("example_request_ids").size());
  }

  @Test
  void aModelTheServerDoesNotListIsRefusedBeforeTheRunEvenByAServerThatAnswersAnyName() {
    try (Simulator simulator = Simulator.start(llamaCpp(40).build())) {
      Map<String, String> properties = Map.of(
          ComplianceItSimulation.BASE_URL, simulator.baseUrl(),
          ComplianceItSimulation.MODEL, "sim-modle",
          "llm.resultsFolder", results.toString());
      Throwable e = assertThrows(Exception.class,
          () -> GatlingRunner.run(ComplianceItSimulation.class, results, properties));
      while (e.getCause() != null) {
        e = e.getCause();
      }
      assertEquals("the server at " + simulator.baseUrl() + " does not serve the model "
          + "`sim-modle`: its /v1/models lists served-llm; name one of them (--model or "
          + "--served-model-name on the command line, model(...) or servedModelName(...) in a "
          + "simulation)", e.getMessage());
      assertEquals(0, simulator.requestsReceived(), "refused before the warm-up");
    }
  }

  @Test
  void aModelTheServerDoesNotListIsReportedWhenTheRunGoesOnWithExitZero() throws IOException {
    System.setProperty(ComplianceItSimulation.EXIT_ZERO, "true");
    try {
      JsonNode compliance = run(llamaCpp(40), "completions", "sim-modle", 16, 3);
      assertOnly(compliance, "model_not_listed");
      assertTrue(compliance.get("warnings").get(0).asText().contains("(served-llm)"));
    } finally {
      System.clearProperty(ComplianceItSimulation.EXIT_ZERO);
    }
  }

  @Test
  void aStreamStoppedByTheContextDespiteIgnoreEosIsReported() throws IOException {
    // 20 - 3 = 17 output tokens for 64 asked with ignore_eos
    JsonNode compliance = run(llamaCpp(20), "chat", "served-llm", 64, 3);
    assertOnly(compliance, "output_under_ignore_eos");
  }

  @Test
  void aPromptCutToTheContextIsReported() throws IOException {
    // 30 prompt tokens cut to 20: 10 fewer, over the tolerance of 8
    JsonNode compliance = run(llamaCpp(20), "completions", "served-llm", 4, 30);
    assertOnly(compliance, "prompt_tokens_mismatch");
  }

  private static JsonNode resultJson(Path runFolder) throws IOException {
    try (Stream<Path> files = Files.list(runFolder)) {
      Path json = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
      return JSON.readTree(json.toFile());
    }
  }

  private static JsonNode embedded(Path html) throws IOException {
    Matcher m = DATA.matcher(Files.readString(html));
    assertTrue(m.find(), "data in " + html);
    return JSON.readTree(m.group(1));
  }
}
