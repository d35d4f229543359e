package dev.gatlingllm.internal.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.gatlingllm.internal.metrics.AnswerFigures;
import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.metrics.Cancels;
import dev.gatlingllm.internal.metrics.ClassFigures;
import dev.gatlingllm.internal.metrics.Distribution;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.PercentileValue;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestPhases;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.RequestTimes;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.metrics.TurnFigures;
import dev.gatlingllm.internal.metrics.SpecDecodeStats;
import dev.gatlingllm.internal.metrics.UrlFigures;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.internal.servermetrics.ServerSeries;
import dev.gatlingllm.options.ResultOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result JSON as an ordered map, with vLLM's keys in vLLM's order and types (ints as
 * Integer/Long, floats as Double). The per-request arrays are {@link PyJson.Streamed}
 * values that read the records (and spilled texts) while the file is written.
 */
final class ResultDocument {

  /**
   * Keys that only appear in detailed mode: vLLM's per-request arrays, and ours, the requests'
   * phases (the LLM report draws those from the records).
   */
  static final List<String> DETAILED_KEYS = List.of("input_lens", "output_lens", "ttfts", "itls",
      "latencies", "start_times", "generated_texts", "errors", "reasoning_tokens", "tool_calls",
      "tool_calls_parsed", "schema_valid", PhaseReport.PHASES_KEY);

  private ResultDocument() {}

  static LinkedHashMap<String, Object> build(RunInfo run, ResultOptions opts, BenchmarkMetrics m,
      RecordSource requests, long originNanos, String date, RunAnalysis analysis) {
    return build(run, opts, m, requests, originNanos, date, analysis, List.of());
  }

  /**
   * The document, with each base URL's figures ({@code per_url}, after the run's own extras)
   * when the run went to several; none adds no key.
   */
  static LinkedHashMap<String, Object> build(RunInfo run, ResultOptions opts, BenchmarkMetrics m,
      RecordSource requests, long originNanos, String date, RunAnalysis analysis,
      List<UrlFigures> perUrl) {
    LinkedHashMap<String, Object> doc = new LinkedHashMap<>();
    doc.put("date", date);
    doc.put("endpoint_type", run.endpointType());
    doc.put("backend", run.backend());
    doc.put("label", opts.label());
    doc.put("model_id", run.modelId());
    doc.put("tokenizer_id", run.tokenizerId());
    doc.put("num_prompts", run.numPrompts() != null ? run.numPrompts() : requests.size());
    // metadata comes before the traffic keys; a clashing key is overwritten in place below
    for (Map.Entry<String, String> e : opts.metadata().entrySet()) {
      doc.put(e.getKey(), e.getValue());
    }
    doc.put("request_rate", run.requestRate() == Double.POSITIVE_INFINITY ? "inf"
        : (Object) run.requestRate());
    doc.put("burstiness", run.burstiness());
    doc.put("max_concurrency", run.maxConcurrency());
    if (run.rampUpStrategy() != null) {
      doc.put("ramp_up_strategy", run.rampUpStrategy());
      doc.put("ramp_up_start_rps", rps(run.rampUpStartRps()));
      doc.put("ramp_up_end_rps", rps(run.rampUpEndRps()));
    }
    if (run.seedGiven()) {
      doc.put("seed", run.seed());
    }
    if (run.arrivalReplay() != null) {
      doc.put("arrival_replay", run.arrivalReplay());
    }
    doc.put("duration", m.durationSeconds());
    doc.put("completed", m.completed());
    doc.put("failed", m.failed());
    // ours: requests the client cancelled on purpose (--cancel-fraction), in neither count
    Object cancelSettings = run.extras().get(PhaseReport.CANCEL_KEY);
    if (cancelSettings != null || Cancels.count(requests) > 0) {
      doc.put("cancelled", Cancels.count(requests));
    }
    doc.put("total_input_tokens", m.totalInput());
    boolean generation = m.taskType() == TaskType.GENERATION;
    if (generation && opts.reportCachedTokens()) {
      doc.put("total_cached_tokens", m.totalCached());
    }
    if (generation) {
      doc.put("total_output_tokens", m.totalOutput());
    }
    doc.put("request_throughput", m.requestThroughput());
    if (generation) {
      doc.put("request_goodput", m.requestGoodput());
      doc.put("output_throughput", m.outputThroughput());
    }
    doc.put("total_token_throughput", m.totalTokenThroughput());
    if (opts.detailed()) {
      putDetailed(doc, m, requests, originNanos);
    }
    if (generation) {
      doc.put("max_output_tokens_per_s", m.maxOutputTokensPerS());
      doc.put("max_concurrent_requests", m.maxConcurrentRequests());
      // newest vLLM writes 0.0 in every result; written here when the run sent audio, so that
      // a text run keeps the keys of the releases the golden files come from
      if (m.rtfx() > 0) {
        doc.put("rtfx", m.rtfx());
      }
    }
    if (!run.rpsChangeEvents().isEmpty()) {
      doc.put("rps_change_events", run.rpsChangeEvents());
    }
    // the run's extras go last, but these where vLLM writes them (the later putAll keeps the
    // place of a key already in the map)
    for (String key : SpecDecodeStats.KEYS) {
      if (run.extras().containsKey(key)) {
        doc.put(key, run.extras().get(key));
      }
    }
    List<Metric> selected = ResultOptionsAccess.percentileMetrics(opts, m.taskType());
    for (Metric metric : Metric.values()) {
      if (!selected.contains(metric) || (!generation && metric != Metric.E2EL)) {
        continue;
      }
      putDistribution(doc, metric.key(), m.distribution(metric));
    }
    // Our addition for reasoning models, absent otherwise so that other runs keep vLLM's keys;
    // the same figures again under AIPerf's name, time to first output token.
    m.ttfc().ifPresent(d -> {
      putDistribution(doc, BenchmarkMetrics.TTFC_KEY, d);
      putDistribution(doc, AnswerFigures.TTFO_KEY, d);
    });
    putAnswers(doc, m.answers());
    analysis.putInto(doc);
    // Conversation runs only (vllm-bench's multi-turn mode): the figures of each turn index.
    if (generation) {
      List<TurnFigures> turns = TurnFigures.of(requests, m, opts.metricPercentiles());
      if (!turns.isEmpty()) {
        doc.put(TurnReport.KEY, TurnReport.json(turns));
      }
      // Datasets that tag requests with a class (mixed_serving_boundary): figures by class.
      List<ClassFigures> classes = ClassFigures.of(requests, m, opts.metricPercentiles());
      if (!classes.isEmpty()) {
        doc.put(ClassReport.KEY, ClassReport.json(classes));
      }
    }
    doc.putAll(run.extras());
    if (cancelSettings instanceof Map<?, ?> settings) {
      doc.put(PhaseReport.CANCEL_KEY, PhaseReport.cancellationJson(settings,
          Cancels.of(requests, opts.metricPercentiles()),
          // several replicas: each one's aborts, summed
          doc.containsKey(ServerSeries.PER_URL_KEY) ? doc.get(ServerSeries.PER_URL_KEY)
              : doc.get("server_metrics")));
    }
    if (opts.detailed()) {
      RequestPhases phases = RequestPhases.of(requests, opts.metricPercentiles());
      if (phases.measured()) {
        doc.put(PhaseReport.PHASES_KEY, PhaseReport.json(phases));
      }
    }
    if (!perUrl.isEmpty()) {
      doc.put(UrlReport.KEY, UrlReport.json(perUrl));
    }
    return doc;
  }

  /**
   * vLLM's keys of one distribution: {@code mean_<key>_ms}, {@code median_}, {@code std_}, then
   * {@code p<NN>_<key>_ms} for each percentile.
   */
  static void putDistribution(Map<String, Object> out, String key, Distribution d) {
    out.put("mean_" + key + "_ms", d.mean());
    out.put("median_" + key + "_ms", d.median());
    out.put("std_" + key + "_ms", d.std());
    for (PercentileValue p : d.percentiles()) {
      out.put("p" + p.word() + "_" + key + "_ms", p.valueMs());
    }
  }

  /**
   * Reasoning tokens (AIPerf's {@code total_reasoning_tokens}), tool calls and schema checks,
   * each only when some answer had it.
   */
  private static void putAnswers(Map<String, Object> doc, AnswerFigures a) {
    if (a.reasoningRequests() > 0) {
      doc.put("total_reasoning_tokens", a.reasoningTokens());
      doc.put("reasoning_tokens_from_server", a.reasoningFromServer());
    }
    if (a.toolCallRequests() > 0) {
      doc.put("tool_call_requests", a.toolCallRequests());
      doc.put("total_tool_calls", a.toolCalls());
      doc.put("total_tool_calls_parsed", a.toolCallsParsed());
      doc.put("tool_call_parse_rate", a.toolCallParseRate());
      if (a.toolCallTime() != null) {
        putDistribution(doc, AnswerFigures.TOOL_CALL_KEY, a.toolCallTime());
      }
    }
    if (a.schemaChecked() > 0) {
      doc.put("structured_output_requests", a.schemaChecked());
      doc.put("structured_output_valid", a.schemaValid());
      doc.put("structured_output_valid_rate", a.schemaValidRate());
    }
  }

  private static Object rps(Double value) {
    return value == Math.rint(value) ? (Object) value.longValue() : value;
  }

  private static void putDetailed(Map<String, Object> doc, BenchmarkMetrics m, RecordSource rs,
      long origin) {
    int n = rs.size();
    TaskType task = m.taskType();
    doc.put("input_lens", array(n, (g, i) -> g.writeNumber(RequestTimes.promptLen(rs.record(i), task))));
    if (task == TaskType.GENERATION) {
      doc.put("output_lens", array(n, (g, i) -> g.writeNumber(m.outputLen(i))));
      doc.put("ttfts", array(n, (g, i) ->
          PyJson.writeDouble(g, RequestTimes.ttftSeconds(rs.record(i)), false)));
      doc.put("itls", array(n, (g, i) -> {
        RequestRecord r = rs.record(i);
        g.writeStartArray();
        for (int k = 0; k < r.itlCount(); k++) {
          PyJson.writeDouble(g, r.itlSeconds(k), false);
        }
        g.writeEndArray();
      }));
    }
    doc.put("latencies", array(n, (g, i) -> PyJson.writeDouble(g, task == TaskType.EMBEDDING
        ? RequestTimes.embeddingLatencySeconds(rs.record(i))
        : RequestTimes.latencySeconds(rs.record(i)), false)));
    if (task == TaskType.GENERATION) {
      doc.put("start_times", array(n, (g, i) ->
          PyJson.writeDouble(g, RequestTimes.startSeconds(rs.record(i), origin), false)));
      doc.put("generated_texts", array(n, (g, i) -> {
        String text = rs.text(i);
        g.writeString(text == null ? "" : text);
      }));
    }
    doc.put("errors", array(n, (g, i) -> g.writeString(error(rs.record(i)))));
    AnswerFigures a = m.answers();
    if (a.reasoningRequests() > 0) {
      doc.put("reasoning_tokens", array(n, (g, i) -> g.writeNumber(
          rs.record(i).success() ? rs.record(i).reasoningTokenCount() : 0)));
    }
    if (a.toolCallRequests() > 0) {
      doc.put("tool_calls", array(n, (g, i) -> g.writeNumber(rs.record(i).toolCalls())));
      doc.put("tool_calls_parsed", array(n, (g, i) -> g.writeNumber(rs.record(i).toolCallsParsed())));
    }
    if (a.schemaChecked() > 0) {
      doc.put("schema_valid", array(n, (g, i) -> {
        int check = rs.record(i).schemaCheck();
        if (check == RequestRecord.SCHEMA_NOT_ASKED) {
          g.writeNull();
        } else {
          g.writeBoolean(check == RequestRecord.SCHEMA_VALID);
        }
      }));
    }
  }

  /** vLLM writes "" for successful requests; a failure always gets a non-empty reason. */
  static String error(RequestRecord r) {
    if (r.success()) {
      return "";
    }
    if (r.cancelled()) {
      return "cancelled by the client";
    }
    if (r.error() != null && !r.error().isEmpty()) {
      return r.error();
    }
    return r.httpStatus() > 0 ? "HTTP " + r.httpStatus() : "request failed";
  }

  private interface Element {
    void write(JsonGenerator g, int index) throws java.io.IOException;
  }

  private static PyJson.Streamed array(int n, Element element) {
    return g -> {
      g.writeStartArray();
      for (int i = 0; i < n; i++) {
        element.write(g, i);
      }
      g.writeEndArray();
    };
  }
}
