package dev.gatlingllm.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.sim.TestClient;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The server-side truth the client-truth benchmark compares against. */
class ChunkLogTest {

  private static final String BODY =
      "{\"model\":\"sim-model\",\"prompt\":\"x\",\"max_tokens\":5,\"stream\":true}";

  @Test
  void logsTheReceiveTimeAndOneWriteTimePerChunkOfEachStreamedRequest() {
    try (Simulator sim = Simulator.start(SimCommand.parse(
            "--ttft-ms", "20", "--itl-ms", "5", "--chunk-log"));
        TestClient c = new TestClient(sim.port())) {
      TestClient.Response r = c.exchange("POST", "/v1/completions", BODY,
          Map.of("x-request-id", "req-7"));
      List<TestClient.Event> content = r.contentEvents();
      assertEquals(5, content.size());

      String log = c.get("/debug/chunk-log").body();
      String[] fields = log.strip().split(" ");
      assertEquals("req-7", fields[0]);
      assertEquals(2 + 5, fields.length, log);
      long[] times = Arrays.stream(fields, 1, fields.length).mapToLong(Long::parseLong).toArray();
      // Same clock as this JVM's: sent after we started, received before we read each chunk.
      assertTrue(times[0] >= r.startNanos());
      for (int i = 1; i < times.length; i++) {
        assertTrue(times[i] > times[i - 1], "times increase: " + log);
        assertTrue(times[i] <= content.get(i - 1).nanos(), "written before it was read");
      }
      // Timers aim at planned instants, so single gaps can be shorter; the totals cannot.
      assertTrue(times[1] - times[0] >= Duration.ofMillis(20).toNanos(), "TTFT 20 ms");
      assertTrue(times[5] - times[0] >= Duration.ofMillis(20 + 4 * 5).toNanos(), "4 ITLs of 5 ms");

      assertEquals("", c.get("/debug/chunk-log").body(), "a read drains the log");
    }
  }

  @Test
  void isNotServedWhenOff() {
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().build());
        TestClient c = new TestClient(sim.port())) {
      assertEquals(404, c.get("/debug/chunk-log").status());
    }
  }
}
