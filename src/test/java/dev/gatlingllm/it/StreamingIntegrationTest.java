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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real simulations against the embedded simulator: token counts, text, and measured TTFT and
 * ITL against the simulator's configured values. Lower bounds are strict (the client can never
 * see a token before the server sends it); upper bounds leave room for a loaded 2-core machine
 * running client and server at once. Ten users arrive over one second.
 */
class StreamingIntegrationTest {

  private static final int USERS = 10;
  private static final int MAX_TOKENS = 20;
  private static final double TTFT_MS = 80;
  private static final double ITL_MS = 15;

  private static Simulator simulator;

  @TempDir
  static Path results;

  @BeforeAll
  static void startSimulator() {
    simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis((long) TTFT_MS))
        .itl(Duration.ofMillis((long) ITL_MS))
        .build());
    // A fresh JVM (client and simulator) is slow for its first requests, like any JVM; the
    // timings checked below are those of a warmed-up load generator, as in a real run.
    run("completions", true);
  }

  @AfterAll
  static void stopSimulator() {
    simulator.close();
  }

  private static List<RequestRecord> run(String kind, boolean stream) {
    GatlingRunner.Result result = GatlingRunner.run(ItSimulation.class, results, Map.of(
        ItSimulation.BASE_URL, simulator.baseUrl(),
        ItSimulation.KIND, kind,
        ItSimulation.STREAM, Boolean.toString(stream),
        ItSimulation.USERS, Integer.toString(USERS),
        ItSimulation.MAX_TOKENS, Integer.toString(MAX_TOKENS),
        ItSimulation.RAMP_MS, "1000",
        ItSimulation.EXPECT_FAILED, "0"));
    assertEquals(0, result.exitCode(), "Gatling run (with its no-KO assertion) must pass");
    assertTrue(Files.exists(result.file("index.html")), "HTML report written");
    List<RequestRecord> records = GatlingRunner.records();
    assertEquals(USERS, records.size());
    for (RequestRecord r : records) {
      assertTrue(r.success(), r.error());
      assertEquals(MAX_TOKENS, r.outputTokens(), "usage.completion_tokens");
      assertEquals(5, r.usagePromptTokens(), "five whitespace-separated words");
      assertEquals(SimTokens.text(MAX_TOKENS), r.generatedText());
    }
    return records;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static void assertStreamTimings(List<RequestRecord> records) {
    double medianTtft = median(records.stream().mapToDouble(RequestRecord::ttftMillis).toArray());
    assertTrue(medianTtft >= TTFT_MS && medianTtft < TTFT_MS + 100,
        "median TTFT " + medianTtft + " ms vs configured " + TTFT_MS);
    double itlSum = 0;
    int itlCount = 0;
    for (RequestRecord r : records) {
      for (int i = 0; i < r.itlCount(); i++) {
        itlSum += r.itlMillis(i);
      }
      itlCount += r.itlCount();
    }
    double meanItl = itlSum / itlCount;
    assertTrue(meanItl > ITL_MS - 1.5 && meanItl < ITL_MS + 5,
        "mean ITL " + meanItl + " ms vs configured " + ITL_MS);
  }

  @Test
  void streamedCompletions() {
    List<RequestRecord> records = run("completions", true);
    records.forEach(r -> assertEquals(MAX_TOKENS, r.chunkMicros().length, "one chunk per token"));
    assertStreamTimings(records);
  }

  @Test
  void streamedChat() {
    List<RequestRecord> records = run("chat", true);
    // The assistant-role chunk arrives with the first token and counts as a content chunk,
    // exactly as in the reference client.
    records.forEach(r -> assertEquals(MAX_TOKENS + 1, r.chunkMicros().length));
    assertStreamTimings(records);
  }

  @Test
  void nonStreamedCompletionsAndChat() {
    double expected = TTFT_MS + (MAX_TOKENS - 1) * ITL_MS;
    for (String kind : List.of("completions", "chat")) {
      List<RequestRecord> records = run(kind, false);
      for (RequestRecord r : records) {
        assertEquals(1, r.chunkMicros().length, "the whole answer is one chunk");
        assertEquals(r.ttftNanos(), r.latencyNanos());
        // The server cannot answer before it has generated every token: a hard floor.
        assertTrue(r.latencyMillis() >= expected,
            kind + " latency " + r.latencyMillis() + " ms vs " + expected);
      }
      // Above it, the median, as for the streamed runs: one request delayed by a busy host
      // (CI saw 517 ms against 365 once) says nothing about how latency is measured.
      double median = median(records.stream().mapToDouble(RequestRecord::latencyMillis).toArray());
      assertTrue(median < expected + 150, kind + " median latency " + median + " ms vs " + expected);
    }
  }
}
