package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.internal.client.LlmRequest;
import dev.gatlingllm.internal.metrics.RequestRecord;
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

/**
 * One touch per concept in whole runs: a profile given once, to the protocol, paces every
 * first request and injects the users ({@code llm.injection()}), and a second protocol is
 * refused before any request is sent.
 */
@Timeout(120)
class OneTouchIntegrationTest {

  @TempDir
  Path results;

  @Test
  void aProfileGivenOnceToTheProtocolPacesEachFirstRequestOnItsSchedule() throws IOException {
    GatlingRunner.Result result;
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).build())) {
      result = GatlingRunner.run(OneTouchItSimulation.class, results, Map.of(
          OneTouchItSimulation.BASE_URL, simulator.baseUrl(),
          "llm.resultsFolder", results.toString()));
    }
    assertEquals(0, result.exitCode());
    List<RequestRecord> records = GatlingRunner.captured();
    assertEquals(OneTouchItSimulation.NUM_PROMPTS, records.size());
    for (RequestRecord r : records) {
      assertNotEquals(LlmRequest.NOT_SCHEDULED, r.scheduledNanos(), "every request is paced");
      assertTrue(r.startNanos() >= r.scheduledNanos(), "never sent before its slot");
    }
    // The sent gaps have the schedule's spread: a coefficient of variation near 1 (Poisson),
    // where users let go as injected, without pacing, were evenly spread (0.05).
    long[] sent = records.stream().mapToLong(RequestRecord::startNanos).sorted().toArray();
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(OneTouchItSimulation.NUM_PROMPTS).requestRate(OneTouchItSimulation.RATE)
        .seed(42).build());
    long[] planned = new long[schedule.size()];
    for (int i = 0; i < planned.length; i++) {
      planned[i] = schedule.offsetNanos(i);
    }
    double plannedCv = gapCv(planned);
    double sentCv = gapCv(sent);
    assertTrue(plannedCv > 0.8 && plannedCv < 1.2, "the seeded schedule is Poisson-like: "
        + plannedCv);
    assertEquals(plannedCv, sentCv, 0.1, "sent gaps follow the schedule's");
    // ... and the result file names the profile the users were injected with.
    JsonNode doc;
    try (Stream<Path> files = Files.list(result.runFolder())) {
      doc = new ObjectMapper().readTree(files.filter(p -> p.toString().endsWith(".json"))
          .findFirst().orElseThrow().toFile());
    }
    assertEquals(OneTouchItSimulation.RATE, doc.get("request_rate").asDouble());
    assertEquals(1.0, doc.get("burstiness").asDouble());
    assertEquals(42, doc.get("seed").asLong());
  }

  @Test
  void aSecondProtocolIsRefusedBeforeAnyRequestIsSent() {
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).build())) {
      IllegalStateException refused = assertThrows(IllegalStateException.class,
          () -> GatlingRunner.run(TwoProtocolsItSimulation.class, results,
              Map.of(TwoProtocolsItSimulation.BASE_URL, simulator.baseUrl(),
                  "llm.resultsFolder", results.toString())));
      assertTrue(refused.getMessage().startsWith("this simulation has two llm() protocols"),
          refused.getMessage());
      assertTrue(refused.getMessage().endsWith("build the protocol once and give it once, in "
          + "setUp(...).protocols(llm), for every scenario"), refused.getMessage());
      assertEquals(0, simulator.requestsReceived(), "nothing was sent");
    }
  }

  /** Population coefficient of variation of the gaps between sorted times. */
  private static double gapCv(long[] times) {
    int n = times.length - 1;
    double mean = (times[n] - times[0]) / (double) n;
    double sq = 0;
    for (int i = 0; i < n; i++) {
      double d = times[i + 1] - times[i] - mean;
      sq += d * d;
    }
    return Math.sqrt(sq / n) / mean;
  }
}
