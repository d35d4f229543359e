package dev.gatlingllm.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.report.LlmReport;
import dev.gatlingllm.internal.report.PageLayout;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.testing.StrictServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39's item 4 through the drop-in against the strict simulator: BFCL's questions
 * answered with streamed tool calls (half of them cut so that their arguments are not JSON),
 * and the structured-output dataset answered after some reasoning (a quarter of the answers
 * cut so that they do not validate). The result counts both from what arrived.
 */
@Timeout(240)
class ToolsAndStructuredOutputIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  /** The last run's folder. */
  private Path runFolder;

  private JsonNode run(SimulatorConfig.Builder sim, String... flags) throws Exception {
    try (Simulator s = Simulator.start(sim.ttft(Duration.ofMillis(5))
        .itl(Duration.ofNanos(200_000)).build())) {
      List<String> words = new ArrayList<>(List.of("bench", "serve", "--base-url",
          s.baseUrl(), "--model", StrictServer.MODEL, "--tokenizer", "gpt2",
          "--backend", "openai-chat", "--endpoint", "/v1/chat/completions", "--save-result",
          "--save-detailed", "--result-filename", "result.json", "--disable-tqdm",
          "--metric-percentiles", "50,99"));
      words.addAll(List.of(flags));
      runFolder = BenchServeInProcess.run(dir.resolve("results"), words);
      return JSON.readTree(runFolder.resolve("result.json").toFile());
    }
  }

  /** How many of {@code n} consecutive arrivals the fault rule hits at {@code rate}: ⌊n·r⌋ or ⌈n·r⌉. */
  private static void assertShare(int hits, int n, double rate, String what) {
    assertTrue(hits == (int) Math.floor(n * rate) || hits == (int) Math.ceil(n * rate),
        what + ": " + hits + " of " + n);
  }

  @Test
  void toolCallsAreTimedCountedAndTheirArgumentsParsed() throws Exception {
    int prompts = 6;
    JsonNode r = run(StrictServer.builder().toolCallAnswers(true).malformedToolCallRate(0.5),
        "--dataset-name", "hf", "--dataset-path", "datasets/hf/bfcl", "--hf-name",
        "gorilla-llm/Berkeley-Function-Calling-Leaderboard", "--bfcl-categories",
        "simple,multiple", "--num-prompts", String.valueOf(prompts), "--hf-output-len", "8");
    assertEquals(prompts, r.get("completed").asInt(), r.toString());
    assertEquals(prompts, r.get("tool_call_requests").asInt());
    assertEquals(prompts, r.get("total_tool_calls").asInt(), "one call per answer");
    int parsed = r.get("total_tool_calls_parsed").asInt();
    assertShare(prompts - parsed, prompts, 0.5, "calls cut short");
    assertEquals((double) parsed / prompts, r.get("tool_call_parse_rate").asDouble(), 1e-12);
    // every chunk of these answers is a tool-call chunk: the first one is the first token
    assertEquals(r.get("mean_ttft_ms").asDouble(), r.get("mean_ttftc_ms").asDouble(), 1e-9);
    assertTrue(r.has("p99_ttftc_ms"), r.toString());
    int perRequest = 0;
    for (JsonNode n : r.get("tool_calls_parsed")) {
      perRequest += n.asInt();
    }
    assertEquals(parsed, perRequest, "the detailed form adds up");
    assertTrue(!r.has("structured_output_requests") && !r.has("total_reasoning_tokens"),
        "no key of what the answers did not have");
  }

  @Test
  void structuredAnswersAreCheckedAndReasoningTokensTakenFromTheUsage() throws Exception {
    int prompts = 8;
    JsonNode r = run(StrictServer.builder().invalidStructuredRate(0.25).reasoningTokens(3),
        "--dataset-name", "structured_output", "--num-prompts", String.valueOf(prompts),
        "--seed", "5");
    assertEquals(prompts, r.get("completed").asInt(), r.toString());
    assertEquals(prompts, r.get("structured_output_requests").asInt());
    int valid = r.get("structured_output_valid").asInt();
    assertShare(prompts - valid, prompts, 0.25, "answers cut short");
    assertEquals((double) valid / prompts, r.get("structured_output_valid_rate").asDouble(),
        1e-12);
    int validPerRequest = 0;
    for (JsonNode v : r.get("schema_valid")) {
      validPerRequest += v.asBoolean() ? 1 : 0;
    }
    assertEquals(valid, validPerRequest);
    // three reasoning tokens per answer, as the usage said
    assertEquals(3L * prompts, r.get("total_reasoning_tokens").asLong());
    assertTrue(r.get("reasoning_tokens_from_server").asBoolean());
    for (JsonNode n : r.get("reasoning_tokens")) {
      assertEquals(3, n.asInt());
    }
    // the answer starts after the reasoning: TTFC, AIPerf's TTFO, is the same figure
    assertEquals(r.get("mean_ttfc_ms").asDouble(), r.get("mean_ttfo_ms").asDouble());
    assertEquals(r.get("p99_ttfc_ms").asDouble(), r.get("p99_ttfo_ms").asDouble());
    assertTrue(r.get("mean_ttfo_ms").asDouble() > r.get("mean_ttft_ms").asDouble(), r.toString());

    // the LLM report shows the counts among its headline figures, and lays out cleanly
    Optional<Path> chromium = PageLayout.chromium();
    if (chromium.isPresent()) {
      Path page = runFolder.resolve(LlmReport.FILE_NAME);
      try (PageLayout browser = PageLayout.start(chromium.get())) {
        assertEquals("0.75", browser.text(page, "[data-key=structured_output_valid_rate]"));
        assertEquals("24", browser.text(page, "[data-key=total_reasoning_tokens]"));
        PageLayout.Findings f = browser.inspect(page, 800,
            dir.resolve("structured-report.png"), null);
        assertEquals(List.of(), f.problems(), "the report at 800 px");
      }
    }
  }
}
