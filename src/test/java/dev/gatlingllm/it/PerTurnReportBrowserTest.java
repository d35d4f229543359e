package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.report.LlmReport;
import dev.gatlingllm.internal.report.PageLayout;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LLM report of a {@code --multi-turn} run, read in Chromium as
 * {@link ReportLayoutBrowserTest} reads reports: its per-turn chart (TTFT and prompt length by
 * turn) and table are there with the result's per-turn figures, and the page's layout holds at
 * 1,400 and 800 px. A single-request run has no such section. Skipped, saying why, only when
 * no Chromium is installed.
 */
@Timeout(300)
class PerTurnReportBrowserTest {

  @TempDir
  Path results;

  @Test
  void aConversationRunDrawsTtftAndPromptLengthByTurn() throws Exception {
    Path chromium = PageLayout.chromiumOrSkip(
        "the per-turn chart was not checked in a browser");
    Files.createDirectories(ReportLayoutBrowserTest.SHOTS);
    Path page;
    Path single;
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .prefillPerToken(Duration.ofNanos(50_000)).itl(Duration.ofMillis(1)).sessionCache(true)
        .build())) {
      String common = "--backend openai-chat --model served-llm --tokenizer "
          + "datasets/tokenizers/gpt2 --seed 1 --disable-tqdm --base-url " + sim.baseUrl();
      page = report(common + " --multi-turn --multi-turn-num-turns 4 --per-turn-input-len 40 "
          + "--random-output-len 8 --num-prompts 12 --request-rate 30 --multi-turn-delay-ms 20");
      single = report(common + " --dataset-name random --random-input-len 40 "
          + "--random-output-len 8 --num-prompts 12");
    }
    try (PageLayout browser = PageLayout.start(chromium)) {
      for (int width : new int[] {1400, 800}) {
        PageLayout.Findings f = browser.inspect(page, width,
            ReportLayoutBrowserTest.SHOTS.resolve("per-turn-" + width + ".png"), null);
        assertEquals(List.of(), f.problems(), "per-turn report at " + width + " px");
      }
      String table = browser.text(page, "#per-turn-table");
      // four turn indexes; turn k's prompt: k messages of 40 tokens and k - 1 answers of 8
      int[] prompts = {40, 88, 136, 184};
      for (int k = 1; k <= 4; k++) {
        assertTrue(table.contains("\n" + k + "\t12\t0\t" + prompts[k - 1] + "\t"),
            "turn " + k + ": 12 sent, none failed, " + prompts[k - 1] + " tokens: " + table);
      }
      String chart = browser.text(page, "#per-turn");
      assertTrue(chart.contains("TTFT and prompt length by turn"), chart);
      assertTrue(chart.contains("4 turn indexes, 48 requests"), chart);
      assertEquals("", browser.text(single, "#per-turn-section"), "single requests: no section");
    }
  }

  private Path report(String args) {
    PrintStream original = System.out;
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    System.setOut(new PrintStream(copy, true, StandardCharsets.UTF_8));
    GatlingRunner.Result result;
    try {
      result = GatlingRunner.run(BenchServe.class, results, Map.of(
          CommandLine.ARGS_PROPERTY, args, "llm.resultsFolder", results.toString()));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      Thread.interrupted();
      System.setOut(original);
    }
    assertEquals(0, result.exitCode(), copy.toString(StandardCharsets.UTF_8));
    return result.runFolder().resolve(LlmReport.FILE_NAME);
  }
}
