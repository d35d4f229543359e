package dev.gatlingllm.sim;

import static dev.gatlingllm.sim.SimulatorEndpointsTest.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.TestClient.Response;
import dev.gatlingllm.testing.StrictServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Anthropic Messages API ({@code /v1/messages}) as the simulator serves it, in strict mode
 * (model {@code served-llm}) with two reasoning tokens: the event stream with its thinking and
 * text blocks, the whole message, and what vLLM's Messages route refuses.
 */
class SimulatorMessagesTest {

  static Simulator sim;

  @BeforeAll
  static void start() {
    sim = Simulator.start(StrictServer.builder().reasoningTokens(2)
        .ttft(Duration.ofMillis(1)).itl(Duration.ZERO).build());
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  /** The {@code data:} JSON of each SSE event, checking its {@code event:} line names it. */
  private static List<JsonNode> typedEvents(String body) {
    List<JsonNode> events = new ArrayList<>();
    for (String block : body.split("\n\n")) {
      String[] lines = block.split("\n");
      assertEquals(2, lines.length, block);
      assertTrue(lines[0].startsWith("event: ") && lines[1].startsWith("data: "), block);
      JsonNode data = new TestClient.Event(0, lines[1].substring(6)).json();
      assertEquals(lines[0].substring(7), data.get("type").asText(), block);
      events.add(data);
    }
    return events;
  }

  @Test
  void aStreamedMessageIsThinkingThenTextBlocksEndingWithTheUsage() {
    try (TestClient c = new TestClient(sim.port())) {
      // "one two three" + system "be brief" = 5 prompt tokens; 5 output tokens, one per delta,
      // the first 2 thinking
      Response r = c.post("/v1/messages", "{\"model\":\"served-llm\",\"system\":\"be brief\","
          + "\"messages\":[{\"role\":\"user\",\"content\":\"one two three\"}],"
          + "\"max_tokens\":5,\"stream\":true}");
      assertEquals(200, r.status(), r.body());
      assertTrue(r.header("content-type").startsWith("text/event-stream"));
      assertFalse(r.body().contains("[DONE]"));
      List<JsonNode> events = typedEvents(r.body());
      List<String> kinds = new ArrayList<>();
      StringBuilder thinking = new StringBuilder();
      StringBuilder text = new StringBuilder();
      for (JsonNode e : events) {
        String kind = e.get("type").asText();
        if (kind.equals("content_block_delta")) {
          JsonNode d = e.get("delta");
          kind = d.get("type").asText() + "@" + e.get("index").asInt();
          thinking.append(d.path("thinking").asText(""));
          text.append(d.path("text").asText(""));
        } else if (kind.startsWith("content_block_")) {
          kind += "@" + e.get("index").asInt();
        }
        kinds.add(kind);
      }
      assertEquals(List.of("message_start", "ping", "content_block_start@0",
          "thinking_delta@0", "thinking_delta@0", "signature_delta@0", "content_block_stop@0",
          "content_block_start@1", "text_delta@1", "text_delta@1", "text_delta@1",
          "content_block_stop@1", "message_delta", "message_stop"), kinds);
      assertEquals("thinking", events.get(2).get("content_block").get("type").asText());
      assertEquals("text", events.get(7).get("content_block").get("type").asText());
      assertEquals(" zero one", thinking.toString());
      assertEquals(" two three four", text.toString());
      JsonNode start = events.get(0).get("message");
      assertEquals("served-llm", start.get("model").asText());
      assertEquals(5, start.get("usage").get("input_tokens").asInt());
      JsonNode last = events.get(events.size() - 2);
      assertEquals("max_tokens", last.get("delta").get("stop_reason").asText());
      assertEquals(5, last.get("usage").get("output_tokens").asInt());
    }
  }

  @Test
  void aNonStreamedAnswerIsTheMessage() {
    try (TestClient c = new TestClient(sim.port())) {
      Response r = c.post("/v1/messages", "{\"model\":\"served-llm\",\"messages\":[{\"role\":"
          + "\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a b\"}]},{\"role\":\"assistant\","
          + "\"content\":\"c\"},{\"role\":\"user\",\"content\":\"d\"}],\"max_tokens\":3}");
      assertEquals(200, r.status(), r.body());
      JsonNode body = r.json();
      assertEquals("message", body.get("type").asText());
      assertEquals("assistant", body.get("role").asText());
      JsonNode content = body.get("content");
      assertEquals(2, content.size());
      assertEquals("thinking", content.get(0).get("type").asText());
      assertEquals(" zero one", content.get(0).get("thinking").asText());
      assertEquals("text", content.get(1).get("type").asText());
      assertEquals(" two", content.get(1).get("text").asText());
      assertEquals(4, body.get("usage").get("input_tokens").asInt());
      assertEquals(3, body.get("usage").get("output_tokens").asInt());
    }
  }

  /**
   * What vLLM refuses: its request validation answers a missing or non-positive
   * {@code max_tokens}, a {@code messages} that is not a list, a bad role or block with its 400
   * (the OpenAI error body); the Messages handler answers an unknown model with a 404 in the
   * Messages API's error shape.
   */
  @Test
  void whatVllmRefusesIsRefused() {
    try (TestClient c = new TestClient(sim.port())) {
      String user = "[{\"role\":\"user\",\"content\":\"x\"}]";
      assertError(c.post("/v1/messages", "{\"model\":\"served-llm\",\"messages\":" + user
          + "}"), 400, "BadRequestError", "max_tokens: Field required");
      assertError(c.post("/v1/messages", "{\"model\":\"served-llm\",\"messages\":" + user
          + ",\"max_tokens\":0}"), 400, "BadRequestError",
          "max_tokens: Value error, max_tokens must be positive");
      assertError(c.post("/v1/messages", "{\"model\":\"served-llm\",\"messages\":\"x\","
          + "\"max_tokens\":4}"), 400, "BadRequestError",
          "messages: Input should be a valid list, got \"x\"");
      assertError(c.post("/v1/messages", "{\"messages\":" + user + ",\"max_tokens\":4}"), 400,
          "BadRequestError", "model: Field required");
      assertEquals(400, c.post("/v1/messages", "{\"model\":\"served-llm\",\"messages\":"
          + "[{\"role\":\"tool\",\"content\":\"x\"}],\"max_tokens\":4}").status());
      assertEquals(400, c.post("/v1/messages", "{\"model\":\"served-llm\",\"messages\":"
          + "[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\"}]}],\"max_tokens\":4}")
          .status());

      Response unknown = c.post("/v1/messages", "{\"model\":\"sim-model\",\"messages\":" + user
          + ",\"max_tokens\":4,\"stream\":true}");
      assertEquals(404, unknown.status());
      JsonNode body = unknown.json();
      assertEquals("error", body.get("type").asText());
      assertEquals("NotFoundError", body.get("error").get("type").asText());
      assertEquals("The model `sim-model` does not exist.",
          body.get("error").get("message").asText());
    }
  }

  /** An in-band fault mid-stream is the Messages API's {@code error} event, and no stop. */
  @Test
  void anInBandFaultIsAnErrorEvent() {
    try (Simulator faulty = Simulator.start(StrictServer.builder().inBandErrorRate(1.0)
        .ttft(Duration.ofMillis(1)).itl(Duration.ZERO).build());
         TestClient c = new TestClient(faulty.port())) {
      Response r = c.post("/v1/messages", "{\"model\":\"served-llm\",\"messages\":[{\"role\":"
          + "\"user\",\"content\":\"x\"}],\"max_tokens\":4,\"stream\":true}");
      assertEquals(200, r.status());
      List<JsonNode> events = typedEvents(r.body());
      JsonNode last = events.get(events.size() - 1);
      assertEquals("error", last.get("type").asText());
      assertEquals("internal_error", last.get("error").get("type").asText());
      assertEquals("Simulated in-band error (fault injection)",
          last.get("error").get("message").asText());
      assertFalse(r.body().contains("message_stop"));
    }
  }
}
