package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.SteadyStateOptions.Trim;
import dev.gatlingllm.internal.metrics.SteadyStateOptions;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions;
import org.junit.jupiter.api.Test;

class SteadyStateFlagsTest {

  private static ResultOptions results(String line) {
    return BenchPlan.of(BenchArgs.parse(CommandLine.split("--model m " + line))).results();
  }

  private static SteadyStateOptions steady(String line) {
    return ResultOptionsAccess.steadyState(results(line));
  }

  private static String error(String line) {
    return assertThrows(IllegalArgumentException.class, () -> results(line)).getMessage();
  }

  @Test
  void withoutTheFlagsTheRunHasVllmBenchsDefaults() {
    ResultOptions o = results("");
    assertEquals(SteadyStateOptions.DEFAULTS, ResultOptionsAccess.steadyState(o));
    assertFalse(o.stopOnOverSaturation());
  }

  @Test
  void vllmBenchFlagsSetTheClosedLoopWindow() {
    assertEquals(new SteadyStateOptions(true, 0.8, 4.5, null),
        steady("--steady-state-threshold 0.8 --steady-state-min-window 4.5"));
    assertEquals(new SteadyStateOptions(false, 0.95, null, null),
        steady("--no-steady-state"));
    assertTrue(results("--stop-on-over-saturation").stopOnOverSaturation());
  }

  @Test
  void theOpenLoopTrimIsSecondsOrRequests() {
    assertEquals(Trim.seconds(30, 12.5),
        steady("--steady-state-trim-start 30 --steady-state-trim-end 12.5s").trim());
    assertEquals(Trim.requests(200, 0),
        steady("--steady-state-trim-start 200req").trim());
    assertEquals(Trim.requests(0, 7), steady("--steady-state-trim-end 7REQ").trim());
  }

  @Test
  void badValuesAreRefusedNamingTheFlag() {
    assertEquals("--steady-state-threshold: The steady-state threshold must be in (0, 1], "
        + "got 1.5", error("--steady-state-threshold 1.5"));
    assertEquals("--steady-state-min-window: The steady-state minimum window must be >= 0 "
        + "seconds, got -1.0", error("--steady-state-min-window -1"));
    assertEquals("--steady-state-trim-start expects seconds >= 0 (30 or 30s) or a whole number "
        + "of requests >= 0 (200req), got '2.5req'", error("--steady-state-trim-start 2.5req"));
    assertEquals("--steady-state-trim-end expects seconds >= 0 (30 or 30s) or a whole number "
        + "of requests >= 0 (200req), got 'soon'", error("--steady-state-trim-end soon"));
    assertEquals("--steady-state-trim-start and --steady-state-trim-end must count in the same "
        + "unit (both seconds, or both requests with 'req'), got '10' and '5req'",
        error("--steady-state-trim-start 10 --steady-state-trim-end 5req"));
  }
}
