package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the simulator does with a connection after a response, under each policy: the
 * headers, the body's framing, and whether the connection stays open for the next request.
 */
@Timeout(30)
class SimulatorConnectionPolicyTest {

  private static final String STREAMED =
      "{\"model\":\"sim-model\",\"prompt\":\"a b\",\"max_tokens\":3,\"stream\":true}";
  private static final String NOT_STREAMED =
      "{\"model\":\"sim-model\",\"prompt\":\"a b\",\"max_tokens\":3}";

  private static Simulator start(SimulatorConfig.Builder config) {
    return Simulator.start(config.ttft(Duration.ofMillis(1)).itl(Duration.ofMillis(1)).build());
  }

  @Test
  void closeAfterResponseAnswersChunkedAnnouncesKeepAliveAndClosesWithoutSaying() {
    try (Simulator sim = start(SimulatorConfig.builder()
        .connectionPolicy(SimulatorConfig.ConnectionPolicy.CLOSE_AFTER_RESPONSE))) {
      for (String body : new String[] {STREAMED, NOT_STREAMED}) {
        try (TestClient client = new TestClient(sim.port())) {
          TestClient.Response r = client.post("/v1/completions", body);
          assertEquals(200, r.status());
          assertTrue(r.complete(), "the whole body came before the close");
          assertEquals("chunked", r.header("transfer-encoding"), body);
          assertNull(r.header("content-length"), body);
          assertEquals("timeout=5, max=100", r.header("keep-alive"), body);
          assertNull(r.header("connection"), "no Connection: close: " + body);
          assertTrue(client.serverClosed(), "closed after the last chunk: " + body);
        }
      }
      try (TestClient client = new TestClient(sim.port())) {
        TestClient.Response answer = client.post("/v1/completions", NOT_STREAMED);
        assertEquals(" zero one two",
            answer.json().path("choices").get(0).path("text").asText());
      }
      assertEquals(3, sim.connectionsAccepted());
    }
  }

  @Test
  void connectionCloseSaysSoAndCloses() {
    try (Simulator sim = start(SimulatorConfig.builder()
        .connectionPolicy(SimulatorConfig.ConnectionPolicy.CONNECTION_CLOSE));
        TestClient client = new TestClient(sim.port())) {
      TestClient.Response r = client.post("/v1/completions", STREAMED);
      assertTrue(r.complete());
      assertEquals("close", r.header("connection"));
      assertNull(r.header("keep-alive"));
      assertTrue(client.serverClosed());
    }
  }

  @Test
  void keepAliveMaxServesNResponsesOnAConnectionThenClosesWithoutSaying() {
    try (Simulator sim = start(SimulatorConfig.builder().keepAliveMax(2));
        TestClient client = new TestClient(sim.port())) {
      TestClient.Response first = client.post("/v1/completions", STREAMED);
      TestClient.Response second = client.get("/health"); // every response counts
      for (TestClient.Response r : new TestClient.Response[] {first, second}) {
        assertEquals(200, r.status());
        assertEquals("timeout=5, max=2", r.header("keep-alive"));
        assertNull(r.header("connection"));
      }
      assertTrue(client.serverClosed(), "closed after its second response");
      assertEquals(1, sim.connectionsAccepted());
    }
  }

  @Test
  void byDefaultTheConnectionStaysOpenAndNothingIsSaidAboutIt() {
    try (Simulator sim = start(SimulatorConfig.builder());
        TestClient client = new TestClient(sim.port())) {
      for (int i = 0; i < 3; i++) {
        TestClient.Response r = client.post("/v1/completions", i == 1 ? NOT_STREAMED : STREAMED);
        assertEquals(200, r.status());
        assertNull(r.header("keep-alive"));
        assertNull(r.header("connection"));
      }
      assertEquals(1, sim.connectionsAccepted());
    }
  }
}
