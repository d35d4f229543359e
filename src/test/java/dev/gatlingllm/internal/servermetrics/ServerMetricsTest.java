package dev.gatlingllm.internal.servermetrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading vLLM's exposition and turning samples into the result JSON's series. */
class ServerMetricsTest {

  private static final String V1 = """
      # HELP vllm:num_requests_running Number of requests in model execution batches.
      # TYPE vllm:num_requests_running gauge
      vllm:num_requests_running{engine="0",model_name="m"} 3.0
      vllm:num_requests_running{engine="1",model_name="m"} 4.0
      vllm:num_requests_waiting{engine="0",model_name="m {odd} \\"name\\""} 2.0 1700000000000
      vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.25
      vllm:kv_cache_usage_perc{engine="1",model_name="m"} 0.75
      vllm:prefix_cache_queries_total{engine="0",model_name="m"} 1000.0
      vllm:prefix_cache_hits_total{engine="0",model_name="m"} 250.0
      vllm:num_preemptions_total{engine="0",model_name="m"} NaN
      broken line without value
      """;

  @Test
  void gaugesAddUpOverEnginesAndTheKvCacheIsTheirMean() {
    ServerSample s = ServerSample.of(7, V1);
    assertEquals(7.0, s.running());
    assertEquals(2.0, s.waiting(), "a label value with braces, quotes and a timestamp");
    assertEquals(0.5, s.kvCacheUsage());
    assertEquals(1000.0, s.prefixQueries());
    assertEquals(250.0, s.prefixHits());
    assertTrue(Double.isNaN(s.prefixHitRate()));
  }

  @Test
  void v0NamesAreReadWhenV1IsAbsent() {
    ServerSample s = ServerSample.of(0, "vllm:gpu_cache_usage_perc{model_name=\"m\"} 0.4\n"
        + "vllm:gpu_prefix_cache_hit_rate{model_name=\"m\"} 0.3\n");
    assertEquals(0.4, s.kvCacheUsage());
    assertEquals(0.3, ServerSeries.hitRate(null, s));
    assertTrue(ServerSample.of(0, "process_cpu_seconds_total 3\n").empty(), "not a vLLM server");
  }

  @Test
  void theHitRateIsThatOfEachIntervalAndTimesAreFromTheOrigin() {
    ServerSample a = new ServerSample(1_500_000_000L, 1, 0, 0.1, 100, 10, Double.NaN);
    ServerSample b = new ServerSample(2_500_000_000L, 2, 1, 0.2, 300, 110, Double.NaN);
    ServerSample c = new ServerSample(3_500_000_000L, 0, 0, Double.NaN, 300, 110, Double.NaN);
    Map<String, Object> json = new ServerSeries("http://h:1/metrics", 1.0, List.of(a, b, c), 2,
        "ok").toJson(1_000_000_000L);
    assertEquals(List.of(0.5, 1.5, 2.5), json.get("time_s"));
    List<?> rate = (List<?>) json.get("prefix_cache_hit_rate");
    assertNull(rate.get(0), "no interval before the first scrape");
    assertEquals(0.5, rate.get(1), "100 of 200 queried tokens hit");
    assertNull(rate.get(2), "no query in the interval");
    assertNull(((List<?>) json.get("kv_cache_usage_perc")).get(2), "not exposed: null");
    assertEquals(2, json.get("failed_scrapes"));
  }

  @Test
  void theWrittenEndpointCarriesNoCredentials() {
    // nothing listens on port 1: the scrape fails, the endpoint is written all the same
    ServerSeries series = ServerMetricsScraper.start(
        URI.create("http://user:pw@127.0.0.1:1/metrics?token=x#f"), Map.of(),
        Duration.ofMillis(200)).stop();
    assertEquals("http://127.0.0.1:1/metrics", series.toJson(0).get("endpoint"));
  }
}
