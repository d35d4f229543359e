package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Result options and run parameters at the edges {@link BuildersTest} leaves out: the
 * smallest accepted values, blank strings, each setter's own value, and the messages that
 * name what was wrong.
 */
class ReportSettingsEdgeCasesTest {

  @Test
  void resultDirAndFilenameRefuseBlanksAndKeepTheirValue() {
    assertEquals(Path.of("out/results"),
        ResultOptions.builder().resultDir("out/results").build().resultDir());
    assertEquals("resultDir must not be blank, got null", assertThrows(
        IllegalArgumentException.class, () -> ResultOptions.builder().resultDir((String) null))
        .getMessage());
    assertEquals("resultDir must not be blank, got ' '", assertThrows(
        IllegalArgumentException.class, () -> ResultOptions.builder().resultDir(" "))
        .getMessage());
    assertEquals("resultFilename must not be blank, got null", assertThrows(
        IllegalArgumentException.class, () -> ResultOptions.builder().resultFilename(null))
        .getMessage());
    assertEquals("resultFilename must not be blank, got ''", assertThrows(
        IllegalArgumentException.class, () -> ResultOptions.builder().resultFilename(""))
        .getMessage());
    assertEquals("x.json", ResultOptions.builder().resultFilename("x.json").build()
        .resultFilename());
  }

  @Test
  void metadataFromAMapAndPairsSplitAtTheFirstEquals() {
    Map<String, String> pairs = new LinkedHashMap<>();
    pairs.put("tp", "2");
    pairs.put("gpu", "H100");
    assertEquals(pairs, ResultOptions.builder().metadata(pairs).build().metadata());
    // '=' at position 0 is an empty key, not a missing '='
    assertEquals("Metadata key must not be blank, got ''", assertThrows(
        IllegalArgumentException.class, () -> ResultOptions.builder().metadataPairs("=v"))
        .getMessage());
    assertEquals("Metadata key must not be blank, got null", assertThrows(
        IllegalArgumentException.class, () -> ResultOptions.builder().metadata(null, "v"))
        .getMessage());
    assertEquals("Invalid metadata format. Please use KEY=VALUE format. Got 'novalue'.",
        assertThrows(IllegalArgumentException.class,
            () -> ResultOptions.builder().metadataPairs("novalue")).getMessage());
  }

  @Test
  void percentileMetricsAndGoodputFromEveryForm() {
    ResultOptions o = ResultOptionsAccess.percentileMetrics(ResultOptions.builder(), Metric.ITL,
            Metric.TTFT)
        .goodput(Map.of("tpot", 40)).metricPercentiles(50, 90).printSummary(false).build();
    assertEquals(List.of(Metric.ITL, Metric.TTFT), ResultOptionsAccess.percentileMetrics(o));
    assertEquals(List.of(Metric.ITL, Metric.TTFT),
        ResultOptionsAccess.percentileMetrics(o, TaskType.GENERATION));
    assertEquals(Map.of("tpot", 40.0), ResultOptionsAccess.goodput(o).asMap());
    assertEquals(90.0, o.metricPercentiles()[1]);
    assertFalse(o.printSummary());
    assertEquals("Percentile metrics must not be empty: give at least one of TTFT, TPOT, ITL, "
        + "E2EL", assertThrows(IllegalArgumentException.class,
            () -> ResultOptionsAccess.percentileMetrics(ResultOptions.builder(), new Metric[0]))
            .getMessage());
  }

  @Test
  void runParametersKeepWhatTheyAreGiven() {
    RunInfo run = RunInfo.builder("org/m").endpointType("openai-chat")
        .taskType(TaskType.EMBEDDING).tokenizerId("gpt2").numPrompts(0).seed(0).build();
    assertEquals("openai-chat", run.endpointType());
    assertEquals(TaskType.EMBEDDING, run.taskType());
    assertEquals("gpt2", run.tokenizerId());
    assertEquals(0, run.numPrompts(), "zero prompts is a valid (empty) run");
    assertEquals(0L, run.seed());
    assertTrue(run.seedGiven(), "seed 0 was given, even though it is the default value");
    RunInfo seeded = RunInfo.builder("m").seed(1234567890123L).build();
    assertEquals(1234567890123L, seeded.seed());
    assertFalse(RunInfo.builder("m").build().seedGiven());
  }

  @Test
  void blankRunParametersAreNamed() {
    assertEquals("endpointType must not be blank, got ' '", assertThrows(
        IllegalArgumentException.class, () -> RunInfo.builder("m").endpointType(" "))
        .getMessage());
    assertEquals("tokenizerId must not be blank, got null", assertThrows(
        IllegalArgumentException.class, () -> RunInfo.builder("m").tokenizerId(null))
        .getMessage());
    assertEquals("numPrompts must be >= 0, got -1", assertThrows(
        IllegalArgumentException.class, () -> RunInfo.builder("m").numPrompts(-1)).getMessage());
  }

  @Test
  void rampUpBoundariesFollowVllm() {
    // A flat ramp (start == end) and a linear ramp from 0 are allowed.
    RunInfo flat = RunInfo.builder("m").rampUp("linear", 5, 5).build();
    assertEquals(5.0, flat.rampUpStartRps());
    assertEquals(5.0, flat.rampUpEndRps());
    assertEquals("linear", RunInfo.builder("m").rampUp("linear", 0, 3).build().rampUpStrategy());
    assertEquals(0.0, RunInfo.builder("m").rampUp("linear", 0, 0).build().rampUpEndRps());
    assertEquals("Ramp-up start and end RPS must be non-negative, got -1.0 and 2.0",
        assertThrows(IllegalArgumentException.class,
            () -> RunInfo.builder("m").rampUp("linear", -1, 2)).getMessage());
    assertEquals("Ramp-up start and end RPS must be non-negative, got 0.0 and -2.0",
        assertThrows(IllegalArgumentException.class,
            () -> RunInfo.builder("m").rampUp("linear", 0, -2)).getMessage());
  }
}
