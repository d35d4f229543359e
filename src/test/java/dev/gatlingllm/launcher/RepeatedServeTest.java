package dev.gatlingllm.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gatlingllm.internal.cli.BenchArgs;
import dev.gatlingllm.internal.cli.BenchChecks;
import dev.gatlingllm.internal.cli.BenchPlan;
import dev.gatlingllm.internal.cli.CommandLine;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The points of vLLM-bench's one-command sweeps. */
class RepeatedServeTest {

  private static List<Map<String, Object>> points(String line) {
    return RepeatedServe.points(BenchArgs.parse(CommandLine.split("--model m " + line)));
  }

  private static String refusal(String line) {
    return assertThrows(IllegalArgumentException.class, () -> points(line)).getMessage();
  }

  @Test
  void concurrenciesTimesRatesWithPromptsScaledByConcurrency() {
    assertEquals(List.of(Map.of("max_concurrency", 1), Map.of("max_concurrency", 4),
        Map.of("max_concurrency", 16)), points("--sweep-max-concurrency 1,4,16"));
    assertEquals(List.of(Map.of("max_concurrency", 2, "num_prompts", 20),
        Map.of("max_concurrency", 8, "num_prompts", 80)),
        points("--sweep-max-concurrency 2,8 --sweep-num-prompts-factor 10"));
    assertEquals(List.of(Map.of("request_rate", 2.5), Map.of("request_rate", "inf")),
        points("--sweep-request-rate 2.5,inf"));
    assertEquals(List.of(Map.of("max_concurrency", 4, "request_rate", 1.0),
        Map.of("max_concurrency", 4, "request_rate", 2.0)),
        points("--sweep-max-concurrency 4 --sweep-request-rate 1,2"));
  }

  @Test
  void summaryPercentilesAreReadAndTheSweepOnlyFlagsNeedASweep() {
    BenchArgs args = BenchArgs.parse(CommandLine.split("--model m --sweep-max-concurrency 1,2 "
        + "--sweep-summary-percentiles 95,99.9 --reset-prefix-cache"));
    assertEquals(List.of(95.0, 99.9), RepeatedServe.summaryPercentiles(args));
    BenchChecks.checkSweepOnly(args);
    assertEquals(List.of(), RepeatedServe.summaryPercentiles(BenchArgs.parse(List.of("--model",
        "m"))));
    assertEquals("--sweep-summary-percentiles takes comma-separated percentiles in [0, 100], "
        + "got 'p95'", assertThrows(IllegalArgumentException.class,
            () -> RepeatedServe.summaryPercentiles(BenchArgs.parse(CommandLine.split(
                "--model m --sweep-summary-percentiles p95")))).getMessage());
    assertEquals("--reset-prefix-cache acts on a one-command sweep's points: give "
        + "--sweep-max-concurrency or --sweep-request-rate with it (`gatling-llm bench serve`)",
        assertThrows(IllegalArgumentException.class, () -> BenchChecks.checkSweepOnly(
            BenchArgs.parse(CommandLine.split("--model m --num-runs 2 --reset-prefix-cache"))))
            .getMessage());
  }

  @Test
  void badListsAreNamed() {
    assertEquals("--sweep-max-concurrency takes comma-separated whole numbers of at least 1, "
        + "got '0' in '1,0'", refusal("--sweep-max-concurrency 1,0"));
    assertEquals("--sweep-request-rate takes comma-separated rates above 0 or inf, got 'x' in "
        + "'x'", refusal("--sweep-request-rate x"));
    assertEquals("--sweep-num-prompts-factor multiplies each point's max concurrency: it needs "
        + "--sweep-max-concurrency", refusal("--sweep-request-rate 1 --sweep-num-prompts-factor 2"));
    assertEquals("--sweep-max-concurrency gave no value: ','",
        refusal("--sweep-max-concurrency ,"));
  }
}
