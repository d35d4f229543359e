package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole runs against a server that closes every connection right after its response while
 * announcing keep-alive (llama.cpp's server): no request may fail for it, at any concurrency,
 * and the result JSON says how many stale connections were sent on again and that the client
 * stopped reusing connections.
 */
@Timeout(180)
class ConnectionReuseIntegrationTest {

  private static final int REQUESTS = 64;

  @TempDir
  Path results;

  @ParameterizedTest(name = "max concurrency {0}")
  @ValueSource(ints = {1, 8, 64})
  void aServerClosingAfterEachResponseFailsNoRequest(int concurrency) throws IOException {
    check(concurrency, true);
  }

  @Test
  void nonStreamedAnswersSentChunkedAndClosedFailNoRequestEither() throws IOException {
    check(8, false);
  }

  private void check(int concurrency, boolean stream) throws IOException {
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1))
        .connectionPolicy(SimulatorConfig.ConnectionPolicy.CLOSE_AFTER_RESPONSE).build())) {
      GatlingRunner.Result result = GatlingRunner.run(ConnectionReuseItSimulation.class, results,
          Map.of(ConnectionReuseItSimulation.BASE_URL, simulator.baseUrl(),
              ConnectionReuseItSimulation.CONCURRENCY, Integer.toString(concurrency),
              ConnectionReuseItSimulation.REQUESTS, Integer.toString(REQUESTS),
              ConnectionReuseItSimulation.STREAM, Boolean.toString(stream),
              "llm.resultsFolder", results.toString()));
      assertEquals(0, result.exitCode(), "Gatling counted no KO");

      List<RequestRecord> records = GatlingRunner.captured();
      assertEquals(REQUESTS, records.size());
      for (RequestRecord r : records) {
        assertTrue(r.success(), r.error());
        assertEquals(SimTokens.text(16), r.generatedText());
      }
      assertEquals(REQUESTS, records.stream().map(RequestRecord::requestId).distinct().count(),
          "one record per request id");
      // The server answered each request once (a stale attempt never reached it), and the
      // permits held: never more requests at once than the cap.
      assertEquals(REQUESTS, simulator.requestsReceived());
      assertTrue(simulator.maxInFlight() <= concurrency, "in flight " + simulator.maxInFlight());

      JsonNode json = resultJson(result.runFolder());
      assertEquals(REQUESTS, json.get("completed").asInt());
      assertEquals(0, json.get("failed").asInt());
      JsonNode check = json.get("client_self_check");
      assertTrue(check.get("connection_retries").isIntegralNumber(), check.toString());
      long retries = check.get("connection_retries").asLong();
      assertTrue(retries >= 0 && retries <= concurrency + 4, "retries " + retries);
      assertTrue(check.get("connection_reuse_stopped").asBoolean(), check.toString());
    }
  }

  private static JsonNode resultJson(Path runFolder) throws IOException {
    try (Stream<Path> files = Files.list(runFolder)) {
      Path json = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
      return new ObjectMapper().readTree(json.toFile());
    }
  }
}
