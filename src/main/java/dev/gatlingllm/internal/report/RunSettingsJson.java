package dev.gatlingllm.internal.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.gatlingllm.internal.metrics.GoodputSlo;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.SteadyStateOptions;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@link RunSettings} as a JSON object, for the record log. Every value that reaches the
 * result JSON is kept exactly (doubles by their shortest text, key order as given), so that a
 * run reported from the log is byte for byte the run reported from memory.
 */
final class RunSettingsJson {

  private static final JsonMapper MAPPER = JsonMapper.builder()
      .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();
  private static final TypeReference<LinkedHashMap<String, Object>> OBJECT =
      new TypeReference<>() {};

  private RunSettingsJson() {}

  static byte[] write(RunSettings settings, Map<String, Object> more) {
    Map<String, Object> json = new LinkedHashMap<>(more);
    json.put("run", run(settings.run()));
    json.put("options", options(settings.options()));
    json.put("benchmark_start_nanos", settings.benchmarkStartNanos().isPresent()
        ? settings.benchmarkStartNanos().getAsLong() : null);
    json.put("report_time", settings.reportTime().toString());
    try {
      return MAPPER.writeValueAsBytes(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("run settings cannot be written as JSON: " + e, e);
    }
  }

  static Map<String, Object> parse(byte[] utf8) {
    try {
      return MAPPER.readValue(utf8, OBJECT);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("run settings are not valid JSON: " + e.getMessage(), e);
    }
  }

  @SuppressWarnings("unchecked")
  static RunSettings read(Map<String, Object> json) {
    Object start = json.get("benchmark_start_nanos");
    return new RunSettings(run((Map<String, Object>) json.get("run")),
        options((Map<String, Object>) json.get("options")),
        start == null ? OptionalLong.empty() : OptionalLong.of(((Number) start).longValue()),
        LocalDateTime.parse((String) json.get("report_time")));
  }

  private static Map<String, Object> run(RunInfo r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("model_id", r.modelId());
    m.put("backend", r.backend());
    m.put("endpoint_type", r.endpointType());
    m.put("task_type", r.taskType().name());
    m.put("tokenizer_id", r.tokenizerId());
    m.put("num_prompts", r.numPrompts());
    m.put("request_rate", Double.isInfinite(r.requestRate()) ? "inf" : r.requestRate());
    m.put("burstiness", r.burstiness());
    m.put("arrival_replay", r.arrivalReplay());
    m.put("max_concurrency", r.maxConcurrency());
    m.put("ramp_up_strategy", r.rampUpStrategy());
    m.put("ramp_up_start_rps", r.rampUpStartRps());
    m.put("ramp_up_end_rps", r.rampUpEndRps());
    m.put("rps_change_events", r.rpsChangeEvents());
    m.put("seed", r.seedGiven() ? r.seed() : null);
    m.put("extras", r.extras());
    return m;
  }

  @SuppressWarnings("unchecked")
  private static RunInfo run(Map<String, Object> m) {
    RunInfo.Builder b = RunInfo.builder((String) m.get("model_id"))
        .backend((String) m.get("backend"))
        .endpointType((String) m.get("endpoint_type"))
        .taskType(TaskType.valueOf((String) m.get("task_type")))
        .tokenizerId((String) m.get("tokenizer_id"))
        .maxConcurrency((Integer) m.get("max_concurrency"))
        .rpsChangeEvents((List<Map<String, Object>>) m.get("rps_change_events"));
    if (m.get("num_prompts") != null) {
      b = b.numPrompts(((Number) m.get("num_prompts")).intValue());
    }
    if (m.get("request_rate") instanceof Number rate) {
      b = b.requestRate(rate.doubleValue());
    }
    if (m.get("burstiness") instanceof Number burstiness) {
      b = b.burstiness(burstiness.doubleValue());
    }
    if (m.get("arrival_replay") instanceof Map<?, ?> replay) {
      b = b.replay((String) replay.get("source"), ((Number) replay.get("time_scale")).doubleValue());
    }
    if (m.get("ramp_up_strategy") != null) {
      b = b.rampUp((String) m.get("ramp_up_strategy"),
          ((Number) m.get("ramp_up_start_rps")).doubleValue(),
          ((Number) m.get("ramp_up_end_rps")).doubleValue());
    }
    if (m.get("seed") != null) {
      b = b.seed(((Number) m.get("seed")).longValue());
    }
    for (Map.Entry<String, Object> e : ((Map<String, Object>) m.get("extras")).entrySet()) {
      b = b.extra(e.getKey(), e.getValue());
    }
    return b.build();
  }

  private static Map<String, Object> options(ResultOptions o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("save_result", o.saveResult());
    m.put("result_dir", o.resultDir() == null ? null : o.resultDir().toString());
    m.put("result_filename", o.resultFilename());
    m.put("label", o.label());
    m.put("detailed", o.detailed());
    m.put("append", o.append());
    m.put("metadata", o.metadata());
    m.put("percentile_metrics", ResultOptionsAccess.percentileMetrics(o) == null ? null
        : ResultOptionsAccess.percentileMetrics(o).stream().map(Metric::key).toList());
    m.put("metric_percentiles", o.metricPercentiles());
    m.put("goodput", ResultOptionsAccess.goodput(o).asMap());
    m.put("pytorch", o.pytorch());
    m.put("print_summary", o.printSummary());
    m.put("steady_state", steadyState(ResultOptionsAccess.steadyState(o)));
    m.put("stop_on_over_saturation", o.stopOnOverSaturation());
    m.put("plot_timeline", o.plotTimeline());
    m.put("timeline_itl_thresholds_ms", o.timelineThresholdsMs());
    m.put("report_cached_tokens", o.reportCachedTokens());
    return m;
  }

  /** So that {@code recover} and {@code merge} choose the window the run chose. */
  private static Map<String, Object> steadyState(SteadyStateOptions s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("closed_loop", s.closedLoop());
    m.put("threshold", s.threshold());
    m.put("min_window_s", s.minWindowSeconds());
    if (s.trim() == null) {
      m.put("trim", null);
    } else {
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("unit", s.trim().unit().name());
      t.put("start", s.trim().start());
      t.put("end", s.trim().end());
      m.put("trim", t);
    }
    return m;
  }

  /** A log written before these settings existed has none: the defaults it was reported with. */
  @SuppressWarnings("unchecked")
  private static SteadyStateOptions steadyState(Map<String, Object> m) {
    if (m == null) {
      return SteadyStateOptions.DEFAULTS;
    }
    Map<String, Object> t = (Map<String, Object>) m.get("trim");
    Number min = (Number) m.get("min_window_s");
    return new SteadyStateOptions((Boolean) m.get("closed_loop"),
        ((Number) m.get("threshold")).doubleValue(), min == null ? null : min.doubleValue(),
        t == null ? null : new SteadyStateOptions.Trim(
            SteadyStateOptions.TrimUnit.valueOf((String) t.get("unit")),
            ((Number) t.get("start")).doubleValue(), ((Number) t.get("end")).doubleValue()));
  }

  @SuppressWarnings("unchecked")
  private static ResultOptions options(Map<String, Object> m) {
    ResultOptions.Builder b = ResultOptions.builder()
        .saveResult((Boolean) m.get("save_result"))
        .label((String) m.get("label"))
        .detailed((Boolean) m.get("detailed"))
        .append((Boolean) m.get("append"))
        .metadata((Map<String, String>) m.get("metadata"))
        .metricPercentiles(((List<Number>) m.get("metric_percentiles")).stream()
            .mapToDouble(Number::doubleValue).toArray())
        .pytorch((Boolean) m.get("pytorch"))
        .printSummary((Boolean) m.get("print_summary"))
        .stopOnOverSaturation(Boolean.TRUE.equals(m.get("stop_on_over_saturation")))
        .plotTimeline(Boolean.TRUE.equals(m.get("plot_timeline")))
        .reportCachedTokens(Boolean.TRUE.equals(m.get("report_cached_tokens")));
    b = ResultOptionsAccess.steadyState(b,
        steadyState((Map<String, Object>) m.get("steady_state")));
    if (m.get("timeline_itl_thresholds_ms") != null) {
      b = b.timelineItlThresholds(((List<Number>) m.get("timeline_itl_thresholds_ms")).stream()
          .mapToDouble(Number::doubleValue).toArray());
    }
    if (m.get("result_dir") != null) {
      b = b.resultDir(Path.of((String) m.get("result_dir")));
    }
    if (m.get("result_filename") != null) {
      b = b.resultFilename((String) m.get("result_filename"));
    }
    if (m.get("percentile_metrics") != null) {
      List<Metric> metrics = new ArrayList<>();
      for (String key : (List<String>) m.get("percentile_metrics")) {
        metrics.add(Metric.ofKey(key));
      }
      b = ResultOptionsAccess.percentileMetrics(b, metrics.toArray(Metric[]::new));
    }
    Map<String, Number> goodput = (Map<String, Number>) m.get("goodput");
    if (!goodput.isEmpty()) {
      b = ResultOptionsAccess.goodput(b, GoodputSlo.of(goodput));
    }
    return b.build();
  }
}
