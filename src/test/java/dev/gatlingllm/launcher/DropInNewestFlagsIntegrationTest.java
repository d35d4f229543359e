package dev.gatlingllm.launcher;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The newest drop-in flags (timeline, BFCL, --max-model-len, warm prompts) run as pasted
 * against the embedded simulator, through {@code gatling-llm bench serve}.
 */
class DropInNewestFlagsIntegrationTest {

  @TempDir
  Path dir;

  /**
   * Runs {@code bench serve} on the simulator; returns the run folder. (vLLM's summary, with
   * the timeline's line, is printed at exit: {@code TimelinePlotTest} checks that line.)
   */
  private Path run(String... flags) throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(10)).itl(Duration.ofMillis(2)).build())) {
      List<String> words = new ArrayList<>(List.of("bench", "serve", "--base-url",
          sim.baseUrl(), "--model", "served-llm", "--tokenizer", "gpt2"));
      words.addAll(List.of(flags));
      return BenchServeInProcess.run(dir.resolve("results"), words);
    }
  }

  @Test
  void plotTimelineWritesVllmsTimelineBesideTheResult() throws Exception {
    Path run = run("--dataset-name", "random", "--random-input-len", "16",
        "--random-output-len", "5", "--num-prompts", "4", "--seed", "1", "--save-result",
        "--result-filename", "result.json", "--plot-timeline",
        "--timeline-itl-thresholds", "1,20");
    Path timeline = run.resolve("result.timeline.html");
    assertTrue(Files.exists(timeline), "beside result.json");
    String html = Files.readString(timeline);
    // four requests, each a TTFT and its gaps (the simulator's 2 ms sit between 1 and 20 ms)
    for (int i = 0; i < 4; i++) {
      assertTrue(html.contains("<title>Req " + i + "\nTTFT"), "request " + i);
    }
    Matcher mid = Pattern.compile("<title>Req \\d\n1ms \u2264 ITL &lt; 20ms").matcher(html);
    int mids = 0;
    while (mid.find()) {
      mids++;
    }
    assertTrue(mids >= 4, "each request's 2 ms gaps are the middle class: " + mids);
  }

  @Test
  void maxModelLenDropsTheLongRequestsAndCacheHitPromptsRun() throws Exception {
    // inputs 8..24 and outputs 2..8 tokens (range ratio 0.5): those over 25 together are
    // dropped; half the prompts share an 8-token prefix
    Path run = run("--dataset-name", "random", "--random-input-len", "16",
        "--random-output-len", "5", "--random-range-ratio", "0.5", "--num-prompts", "12",
        "--seed", "4", "--ignore-eos", "--max-model-len", "25",
        "--random-cache-hit-fraction", "0.5", "--random-cache-ratio", "0.5", "--save-result",
        "--save-detailed", "--result-filename", "result.json");
    JsonNode result = new ObjectMapper().readTree(run.resolve("result.json").toFile());
    int completed = result.get("completed").asInt();
    assertTrue(completed > 0 && completed < 12, "some dropped, some sent: " + completed);
    for (int i = 0; i < completed; i++) {
      int total = result.get("input_lens").get(i).asInt()
          + result.get("output_lens").get(i).asInt();
      assertTrue(total <= 25, "request " + i + " has " + total + " tokens");
    }
  }

  @Test
  void bfclQuestionsRunAsChatRequestsWithTheirTools() throws Exception {
    Path run = run("--backend", "openai-chat", "--endpoint", "/v1/chat/completions",
        "--dataset-name", "hf", "--dataset-path", "datasets/hf/bfcl", "--hf-name",
        "gorilla-llm/Berkeley-Function-Calling-Leaderboard", "--bfcl-categories",
        "simple,multiple", "--num-prompts", "5", "--hf-output-len", "6", "--save-result",
        "--result-filename", "result.json");
    JsonNode result = new ObjectMapper().readTree(run.resolve("result.json").toFile());
    assertEquals(5, result.get("completed").asInt(), result.toString());
    assertEquals(0, result.get("failed").asInt());
  }
}
