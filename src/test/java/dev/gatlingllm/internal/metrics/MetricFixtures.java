package dev.gatlingllm.internal.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The record sets of src/test/resources/metrics/metrics_cases.json (made by make_fixtures.py)
 * and the values numpy computed for them.
 */
public final class MetricFixtures {

  /** The fake tokenizer the fixtures assume: whitespace-separated words. */
  public static final ToIntFunction<String> WORDS =
      text -> text.isBlank() ? 0 : text.trim().split("\\s+").length;

  private static final Map<String, JsonNode> CASES = load();

  private MetricFixtures() {}

  private static Map<String, JsonNode> load() {
    try (InputStream in = MetricFixtures.class.getResourceAsStream("/metrics/metrics_cases.json")) {
      JsonNode root = new ObjectMapper().readTree(in);
      Map<String, JsonNode> out = new LinkedHashMap<>();
      root.get("cases").forEach(c -> out.put(c.get("name").asText(), c));
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static List<String> names() {
    return List.copyOf(CASES.keySet());
  }

  public static JsonNode get(String name) {
    JsonNode c = CASES.get(name);
    if (c == null) {
      throw new IllegalArgumentException("No fixture case " + name + "; have " + CASES.keySet());
    }
    return c;
  }

  public static List<RequestRecord> records(String name) {
    List<RequestRecord> out = new ArrayList<>();
    int i = 0;
    for (JsonNode r : get(name).get("records")) {
      int[] chunks = new int[r.get("chunk_us").size()];
      for (int k = 0; k < chunks.length; k++) {
        chunks[k] = r.get("chunk_us").get(k).asInt();
      }
      out.add(RequestRecord.builder("req-" + i++).scheduledNanos(r.get("scheduled_ns").asLong())
          .startNanos(r.get("start_ns").asLong()).ttftNanos(r.get("ttft_ns").asLong())
          .latencyNanos(r.get("latency_ns").asLong()).endNanos(r.get("end_ns").asLong())
          .chunkMicros(chunks).promptTokens(r.get("prompt_tokens").asInt())
          .usagePromptTokens(r.get("usage_prompt_tokens").asInt())
          .outputTokens(r.get("output_tokens").asInt()).httpStatus(r.get("http_status").asInt())
          .success(r.get("success").asBoolean())
          .error(r.get("error").isNull() ? null : r.get("error").asText())
          .generatedText(r.get("text").asText()).build());
    }
    return out;
  }

  public static double[] percentiles(String name) {
    JsonNode ps = get(name).get("percentiles");
    double[] out = new double[ps.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = ps.get(i).asDouble();
    }
    return out;
  }

  public static GoodputSlo goodput(String name) {
    JsonNode g = get(name).get("goodput");
    if (g.isNull()) {
      return GoodputSlo.none();
    }
    Map<String, Double> slos = new LinkedHashMap<>();
    g.properties().forEach(e -> slos.put(e.getKey(), e.getValue().asDouble()));
    return GoodputSlo.of(slos);
  }

  public static TaskType task(String name) {
    return get(name).get("task").asText().equals("embedding") ? TaskType.EMBEDDING
        : TaskType.GENERATION;
  }

  public static double duration(String name) {
    return get(name).get("duration_s").asDouble();
  }

  public static long origin(String name) {
    return get(name).get("origin_ns").asLong();
  }

  public static JsonNode expected(String name) {
    return get(name).get("expected");
  }

  /** The calculator configured as the case says. */
  public static MetricsCalculator calculator(String name) {
    return MetricsCalculator.builder()
        .taskType(task(name))
        .percentiles(percentiles(name))
        .goodput(goodput(name))
        .tokenCounter(WORDS)
        .build();
  }

  /** Relative agreement, with an absolute floor for values that should be 0. */
  public static boolean close(double expected, double actual, double rel) {
    double scale = Math.max(Math.abs(expected), Math.abs(actual));
    return Math.abs(expected - actual) <= Math.max(rel * scale, 1e-12);
  }
}
