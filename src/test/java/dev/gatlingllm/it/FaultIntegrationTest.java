package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each fault the simulator can inject, through a real Gatling run: exactly the faulty requests
 * fail, with a clear message that Gatling's stats count as KO, the others are untouched, and
 * the run ends.
 */
@Timeout(120)
class FaultIntegrationTest {

  private static final int USERS = 20;
  private static final int MAX_TOKENS = 12;

  @TempDir
  Path results;

  private List<RequestRecord> runAgainst(UnaryOperator<SimulatorConfig.Builder> faults,
      int expectedFailures, Map<String, String> extraProperties) {
    SimulatorConfig config = faults.apply(StrictServer.builder()
        .ttft(Duration.ofMillis(20)).itl(Duration.ofMillis(5))).build();
    try (Simulator simulator = Simulator.start(config)) {
      Map<String, String> properties = new HashMap<>(extraProperties);
      properties.put(ItSimulation.BASE_URL, simulator.baseUrl());
      properties.put(ItSimulation.USERS, Integer.toString(USERS));
      properties.put(ItSimulation.MAX_TOKENS, Integer.toString(MAX_TOKENS));
      properties.put(ItSimulation.EXPECT_FAILED, Integer.toString(expectedFailures));
      GatlingRunner.Result result = GatlingRunner.run(ItSimulation.class, results, properties);
      assertEquals(0, result.exitCode(),
          "Gatling must count exactly " + expectedFailures + " KO requests");
      assertTrue(Files.exists(result.file("index.html")));
    }
    List<RequestRecord> records = GatlingRunner.records();
    assertEquals(USERS, records.size(), "every virtual user came back");
    long failed = records.stream().filter(r -> !r.success()).count();
    assertEquals(expectedFailures, failed);
    for (RequestRecord r : records) {
      if (r.success()) {
        assertEquals(SimTokens.text(MAX_TOKENS), r.generatedText(), "successful ones unaffected");
        assertEquals(MAX_TOKENS, r.outputTokens());
      }
    }
    return records.stream().filter(r -> !r.success()).toList();
  }

  private static void assertAllErrors(List<RequestRecord> failed, String expectedStart) {
    for (RequestRecord r : failed) {
      assertTrue(r.error().startsWith(expectedStart), "error was: " + r.error());
    }
  }

  @Test
  void httpErrorsFailWithStatusAndServerMessage() {
    List<RequestRecord> failed = runAgainst(b -> b.errorRate(0.2), 4, Map.of());
    assertAllErrors(failed, "HTTP 500: ");
    failed.forEach(r -> assertEquals(500, r.httpStatus()));
  }

  @Test
  void midStreamDisconnectsFail() {
    List<RequestRecord> failed = runAgainst(b -> b.disconnectRate(0.25), 5, Map.of());
    assertAllErrors(failed, "connection closed mid-stream");
    failed.forEach(r -> assertTrue(r.chunkMicros().length > 0, "tokens before the cut are kept"));
  }

  @Test
  void inBandErrorEventsFail() {
    List<RequestRecord> failed = runAgainst(b -> b.inBandErrorRate(0.1), 2, Map.of());
    assertAllErrors(failed, "error event: ");
  }

  @Test
  void stallsLongerThanTheIdleTimeoutFail() {
    List<RequestRecord> failed = runAgainst(
        b -> b.stallRate(0.2).stallDuration(Duration.ofSeconds(3)), 4,
        Map.of(ItSimulation.IDLE_TIMEOUT_MS, "400"));
    assertAllErrors(failed, "idle timeout (400 ms without data)");
  }

  @Test
  void stallsShorterThanTheIdleTimeoutOnlyShowInTheItl() {
    // The simulator keeps an absolute schedule, so a server running late shortens the gap
    // after a stall a little: look for gaps of at least 2/3 of it, far above the 5 ms ITL.
    // The stall is long (600 ms) so that a loaded machine's own hiccups (one of 200+ ms was
    // seen at load average 14) cannot pass for one.
    runAgainst(b -> b.stallRate(0.2).stallDuration(Duration.ofMillis(600)), 0, Map.of());
    long stalled = GatlingRunner.records().stream()
        .filter(r -> {
          for (int i = 0; i < r.itlCount(); i++) {
            if (r.itlMillis(i) >= 400) {
              return true;
            }
          }
          return false;
        })
        .count();
    assertEquals(4, stalled, "the 4 stalled requests, and only they, show the stall in one ITL");
  }

  @Test
  void unreachableServerFailsEveryRequestAndEnds() {
    Map<String, String> properties = Map.of(
        ItSimulation.BASE_URL, "http://127.0.0.1:1",
        ItSimulation.USERS, "5",
        ItSimulation.EXPECT_FAILED, "5");
    GatlingRunner.Result result = GatlingRunner.run(ItSimulation.class, results, properties);
    assertEquals(0, result.exitCode());
    List<RequestRecord> records = GatlingRunner.records();
    assertEquals(5, records.size());
    assertAllErrors(records, "connect failed: connection refused");
  }
}
