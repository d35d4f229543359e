package dev.gatlingllm.internal.servermetrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.internal.client.CannedHttpServer;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scraper's warm-up scrapes as often as asked, on the caller's thread, and stops early. */
class ServerMetricsWarmUpTest {

  private static final String EXPOSITION = "vllm:num_requests_running{model_name=\"m\"} 3\n";

  private static URI metrics(CannedHttpServer server) {
    return URI.create(server.baseUrl() + "/metrics");
  }

  @Test
  void scrapesTheAskedNumberOfTimesWithTheRunsHeaders() {
    try (CannedHttpServer server = CannedHttpServer.streaming(EXPOSITION)) {
      ServerMetricsScraper.warmUp(metrics(server), Map.of("Authorization", "Bearer k"), false, 7);
      assertEquals(7, server.received().size());
      server.received().forEach(r -> {
        assertEquals("/metrics", r.uri());
        assertEquals("Bearer k", r.headers().get("Authorization"));
      });
    }
  }

  @Test
  void stopsAtTheFirstAnswerThatIsNotVllmsMetrics() {
    String notFound = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
    try (CannedHttpServer server = CannedHttpServer.raw(notFound, false)) {
      ServerMetricsScraper.warmUp(metrics(server), Map.of(), false, 7);
      assertEquals(1, server.received().size());
    }
    try (CannedHttpServer server = CannedHttpServer.streaming("# nothing of vLLM's\nup 1\n")) {
      ServerMetricsScraper.warmUp(metrics(server), Map.of(), false, 7);
      assertEquals(1, server.received().size());
    }
  }

  @Test
  void aFailingServerCostsOneAttempt() {
    String error = "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n";
    try (CannedHttpServer server = CannedHttpServer.raw(error, false)) {
      ServerMetricsScraper.warmUp(metrics(server), Map.of(), false, 7);
      assertEquals(1, server.received().size());
    }
  }
}
