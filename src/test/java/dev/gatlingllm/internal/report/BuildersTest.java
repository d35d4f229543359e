package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuildersTest {

  @Test
  void runInfoDefaultsAreVllms() {
    RunInfo run = RunInfo.builder("m").build();
    assertEquals("openai", run.backend());
    assertEquals("openai", run.endpointType());
    assertEquals("m", run.tokenizerId());
    assertEquals(Double.POSITIVE_INFINITY, run.requestRate());
    assertEquals(1.0, run.burstiness());
    assertNull(run.maxConcurrency());
    assertNull(run.numPrompts());
    assertEquals(TaskType.GENERATION, run.taskType());
  }

  @Test
  void backendIsOnlyALabelTheMetricSetIsChosenExplicitly() {
    // The plugin streams generations whatever the backend is called.
    for (String label : List.of("openai-embeddings", "my-pooling-server", "rerank-gw")) {
      assertEquals(TaskType.GENERATION, RunInfo.builder("m").backend(label).build().taskType(),
          label);
    }
    assertEquals(TaskType.EMBEDDING, RunInfo.builder("m").backend("openai-embeddings")
        .taskType(TaskType.EMBEDDING).build().taskType());
  }

  @Test
  void runInfoBuilderIsImmutable() {
    RunInfo.Builder base = RunInfo.builder("m");
    base.requestRate(5).maxConcurrency(2).backend("vllm");
    RunInfo run = base.build();
    assertEquals(Double.POSITIVE_INFINITY, run.requestRate());
    assertNull(run.maxConcurrency());
    assertEquals("openai", run.backend());
  }

  @Test
  void runInfoValidatesWithVllmsRules() {
    assertEquals("A positive burstiness factor is expected, but given 0.0",
        assertThrows(IllegalArgumentException.class,
            () -> RunInfo.builder("m").burstiness(0)).getMessage());
    assertEquals("maxConcurrency must be greater than 0, got 0",
        assertThrows(IllegalArgumentException.class,
            () -> RunInfo.builder("m").maxConcurrency(0)).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> RunInfo.builder("m").rampUp("linear", 5, 1)).getMessage()
        .startsWith("Ramp-up start RPS must be less than end RPS"));
    assertEquals("For exponential ramp-up, the start RPS cannot be 0.",
        assertThrows(IllegalArgumentException.class,
            () -> RunInfo.builder("m").rampUp("exponential", 0, 1)).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> RunInfo.builder("m").rampUp("cubic", 1, 2)).getMessage().contains("'cubic'"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> RunInfo.builder("m").requestRate(3).rampUp("linear", 1, 2).build()).getMessage()
        .startsWith("When using ramp-up, do not specify a request rate (got 3.0)"));
    assertThrows(IllegalArgumentException.class, () -> RunInfo.builder(" "));
    assertThrows(IllegalArgumentException.class, () -> RunInfo.builder("m").requestRate(0));
  }

  @Test
  void resultOptionsDefaults() {
    ResultOptions o = ResultOptions.defaults();
    assertTrue(o.saveResult());
    assertFalse(o.detailed());
    assertFalse(o.append());
    assertFalse(o.pytorch());
    assertTrue(o.printSummary());
    assertTrue(ResultOptionsAccess.goodput(o).isEmpty());
    assertEquals(List.of(Metric.TTFT, Metric.TPOT, Metric.ITL),
        ResultOptionsAccess.percentileMetrics(o, TaskType.GENERATION));
    assertEquals(List.of(Metric.E2EL),
        ResultOptionsAccess.percentileMetrics(o, TaskType.EMBEDDING));
    assertEquals(99.0, o.metricPercentiles()[0]);
  }

  @Test
  void resultOptionsBuilderIsImmutableAndParsesVllmFlags() {
    ResultOptions.Builder base = ResultOptions.builder();
    base.detailed(true).label("x").metadata("k", "v");
    assertFalse(base.build().detailed());
    assertTrue(base.build().metadata().isEmpty());

    ResultOptions o = base.metadataPairs("version=0.3.3", "note= a=b ")
        .metadata(Map.of("tp", "1"))
        .percentileMetrics("e2el,ttft")
        .metricPercentiles("50,99.9")
        .goodput("e2el:2000")
        .build();
    assertEquals(Map.of("version", "0.3.3", "note", "a=b", "tp", "1"), o.metadata());
    assertEquals(List.of("version", "note", "tp"), List.copyOf(o.metadata().keySet()));
    assertEquals(List.of(Metric.E2EL, Metric.TTFT), ResultOptionsAccess.percentileMetrics(o));
    assertEquals(99.9, o.metricPercentiles()[1]);
    assertEquals(Map.of("e2el", 2000.0), ResultOptionsAccess.goodput(o).asMap());
  }

  @Test
  void resultOptionsRejectBadValuesNamingThem() {
    assertEquals("Invalid metadata format. Please use KEY=VALUE format. Got 'version'.",
        assertThrows(IllegalArgumentException.class,
            () -> ResultOptions.builder().metadataPairs("version")).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ResultOptions.builder().goodput("latency:5")).getMessage()
        .startsWith("Invalid metric name found, latency: 5.0."));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ResultOptions.builder().metricPercentiles("99,200")).getMessage()
        .contains("200.0"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ResultOptions.builder().percentileMetrics("ttfb")).getMessage().contains("'ttfb'"));
    assertThrows(IllegalArgumentException.class, () -> ResultOptions.builder().resultFilename(""));
  }
}
