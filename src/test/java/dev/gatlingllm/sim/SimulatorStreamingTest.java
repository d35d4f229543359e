package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.TestClient.Event;
import dev.gatlingllm.sim.TestClient.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Output shapes and timing of the generation endpoints against vLLM's wire format. */
class SimulatorStreamingTest {

  /** Generous: a loaded 2-core CI machine may stall any thread for a while. */
  static final long SLACK_MS = 1500;
  static final long TTFT_MS = 40;
  static final long ITL_MS = 5;

  static Simulator sim;

  @BeforeAll
  static void start() {
    sim = Simulator.start(SimulatorConfig.builder()
        .ttft(Duration.ofMillis(TTFT_MS)).itl(Duration.ofMillis(ITL_MS)).build());
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  static String completion(int maxTokens, boolean stream, boolean usage) {
    return "{\"model\":\"sim-model\",\"prompt\":\"Tell me a story\",\"max_tokens\":" + maxTokens
        + ",\"stream\":" + stream + (usage ? ",\"stream_options\":{\"include_usage\":true}" : "")
        + ",\"temperature\":0.0,\"ignore_eos\":true}";
  }

  static double ms(long nanos) {
    return nanos / 1e6;
  }

  @Test
  void streamedCompletionHasOneChunkPerTokenThenUsageThenDone() {
    try (TestClient client = new TestClient(sim.port())) {
      Response r = client.post("/v1/completions", completion(7, true, true));
      assertEquals(200, r.status());
      assertTrue(r.complete());
      assertEquals("text/event-stream; charset=utf-8", r.header("content-type"));
      assertEquals("chunked", r.header("transfer-encoding"));

      List<Event> events = r.events();
      assertEquals(9, events.size(), "7 content chunks, usage, [DONE]");
      assertEquals("[DONE]", events.get(8).data());
      List<String> expected = SimTokens.chunks(7, 1);
      String id = events.get(0).json().get("id").asText();
      assertTrue(id.matches("cmpl-\\d+"), id);
      for (int j = 0; j < 7; j++) {
        JsonNode chunk = events.get(j).json();
        assertEquals(id, chunk.get("id").asText());
        assertEquals("text_completion", chunk.get("object").asText());
        assertEquals("sim-model", chunk.get("model").asText());
        assertTrue(chunk.get("created").isIntegralNumber());
        assertTrue(chunk.get("usage").isNull());
        JsonNode choice = chunk.get("choices").get(0);
        assertEquals(0, choice.get("index").asInt());
        assertEquals(expected.get(j), choice.get("text").asText());
        assertTrue(choice.get("logprobs").isNull());
        assertEquals(j == 6 ? "length" : null, choice.get("finish_reason").textValue());
      }
      JsonNode usage = events.get(7).json();
      assertEquals(0, usage.get("choices").size());
      assertEquals(4, usage.at("/usage/prompt_tokens").asInt());
      assertEquals(7, usage.at("/usage/completion_tokens").asInt());
      assertEquals(11, usage.at("/usage/total_tokens").asInt());

      long ttft = events.get(0).nanos() - r.startNanos();
      long latency = events.get(6).nanos() - r.startNanos();
      assertTrue(ms(ttft) >= TTFT_MS, "ttft " + ms(ttft));
      assertTrue(ms(ttft) < TTFT_MS + SLACK_MS, "ttft " + ms(ttft));
      assertTrue(ms(latency) >= TTFT_MS + 6 * ITL_MS, "latency " + ms(latency));
      assertTrue(ms(latency) < TTFT_MS + 6 * ITL_MS + SLACK_MS, "latency " + ms(latency));
    }
  }

  @Test
  void usageIsSentOnlyWhenAskedFor() {
    try (TestClient client = new TestClient(sim.port())) {
      Response r = client.post("/v1/completions", completion(3, true, false));
      List<Event> events = r.events();
      assertEquals(4, events.size());
      assertEquals("[DONE]", events.get(3).data());
      events.subList(0, 3).forEach(e -> assertEquals(1, e.json().get("choices").size()));
      assertEquals(SimTokens.text(3), texts(events.subList(0, 3), "text"));
    }
  }

  @Test
  void streamedChatSendsTheRoleChunkTogetherWithTheFirstContent() {
    String body = "{\"model\":\"sim-model\",\"messages\":["
        + "{\"role\":\"system\",\"content\":\"You are terse.\"},"
        + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Say five words\"},"
        + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}}]}],"
        + "\"max_completion_tokens\":5,\"max_tokens\":99,\"stream\":true,"
        + "\"stream_options\":{\"include_usage\":true}}";
    try (TestClient client = new TestClient(sim.port())) {
      Response r = client.post("/v1/chat/completions", body);
      assertEquals(200, r.status());
      List<Event> events = r.events();
      assertEquals(8, events.size(), "role, 5 content chunks, usage, [DONE]");
      JsonNode role = events.get(0).json();
      assertEquals("chat.completion.chunk", role.get("object").asText());
      assertTrue(role.get("id").asText().matches("chatcmpl-\\d+"));
      assertEquals("assistant", role.at("/choices/0/delta/role").asText());
      assertEquals("", role.at("/choices/0/delta/content").asText());
      assertTrue(role.at("/choices/0/finish_reason").isNull());
      assertEquals(events.get(0).nanos(), events.get(1).nanos(), "same HTTP chunk");
      assertEquals(r.chunks().get(0).text(), "data: " + events.get(0).data() + "\n\ndata: "
          + events.get(1).data() + "\n\n");

      assertEquals(SimTokens.text(5), texts(events.subList(1, 6), "delta"));
      for (int j = 1; j <= 5; j++) {
        JsonNode choice = events.get(j).json().get("choices").get(0);
        assertFalse(choice.get("delta").has("role"));
        assertEquals(j == 5 ? "length" : null, choice.get("finish_reason").textValue());
      }
      JsonNode usage = events.get(6).json().get("usage");
      assertEquals(6, usage.get("prompt_tokens").asInt(), "3 + 3 words, image part not counted");
      assertEquals(5, usage.get("completion_tokens").asInt());
      assertEquals("[DONE]", events.get(7).data());
    }
  }

  @Test
  void severalTokensPerChunkComeEveryKTimesTheItl() {
    try (Simulator chunky = Simulator.start(SimulatorConfig.builder().tokensPerChunk(3)
        .ttft(Duration.ofMillis(TTFT_MS)).itl(Duration.ofMillis(20)).build());
        TestClient client = new TestClient(chunky.port())) {
      Response r = client.post("/v1/completions", completion(8, true, true));
      List<Event> content = r.contentEvents();
      assertEquals(List.of(" zero one two", " three four five", " six seven"),
          content.stream().map(e -> e.json().at("/choices/0/text").asText()).toList());
      assertEquals(8, r.events().get(3).json().at("/usage/completion_tokens").asInt());
      long gap1 = content.get(1).nanos() - content.get(0).nanos();
      long last = content.get(2).nanos() - r.startNanos();
      // Chunk j is planned at ttft + j * 3 * itl; one late chunk can shorten the next gap,
      // so check the gap loosely and the last chunk's position exactly from below.
      assertTrue(ms(gap1) >= 30, "gap " + ms(gap1));
      assertTrue(ms(last) >= TTFT_MS + 2 * 3 * 20, "last " + ms(last));
      assertTrue(ms(last) < TTFT_MS + 120 + SLACK_MS, "last " + ms(last));
    }
  }

  @Test
  void nonStreamedCompletionArrivesWhenTheLastTokenIsReady() {
    try (TestClient client = new TestClient(sim.port())) {
      Response r = client.post("/v1/completions", completion(9, false, false));
      assertEquals(200, r.status());
      assertEquals("application/json", r.header("content-type"));
      JsonNode body = r.json();
      assertEquals("text_completion", body.get("object").asText());
      assertEquals(SimTokens.text(9), body.at("/choices/0/text").asText());
      assertEquals("length", body.at("/choices/0/finish_reason").asText());
      assertEquals(4, body.at("/usage/prompt_tokens").asInt());
      assertEquals(9, body.at("/usage/completion_tokens").asInt());
      assertEquals(13, body.at("/usage/total_tokens").asInt());
      long latency = r.chunks().get(0).nanos() - r.startNanos();
      assertTrue(ms(latency) >= TTFT_MS + 8 * ITL_MS, "latency " + ms(latency));
      assertTrue(ms(latency) < TTFT_MS + 8 * ITL_MS + SLACK_MS, "latency " + ms(latency));
    }
  }

  @Test
  void nonStreamedChatHasTheAssistantMessage() {
    try (TestClient client = new TestClient(sim.port())) {
      Response r = client.post("/v1/chat/completions",
          "{\"messages\":[{\"role\":\"user\",\"content\":\"hi there\"}],\"max_tokens\":4}");
      JsonNode body = r.json();
      assertEquals("chat.completion", body.get("object").asText());
      assertEquals("assistant", body.at("/choices/0/message/role").asText());
      assertEquals(SimTokens.text(4), body.at("/choices/0/message/content").asText());
      assertEquals(2, body.at("/usage/prompt_tokens").asInt());
      assertEquals(4, body.at("/usage/completion_tokens").asInt());
    }
  }

  @Test
  void withoutMaxTokensTheDefaultLengthIsUsed() {
    try (TestClient client = new TestClient(sim.port())) {
      JsonNode body = client.post("/v1/completions", "{\"prompt\":\"x\"}").json();
      assertEquals(SimTokens.text(16), body.at("/choices/0/text").asText());
    }
  }

  @Test
  void promptsAsTokenIdsOrAOneStringListAreCounted() {
    try (TestClient client = new TestClient(sim.port())) {
      assertEquals(5, client.post("/v1/completions", "{\"prompt\":[1,2,3,4,5],\"max_tokens\":1}")
          .json().at("/usage/prompt_tokens").asInt());
      assertEquals(3, client.post("/v1/completions", "{\"prompt\":[\"a b c\"],\"max_tokens\":1}")
          .json().at("/usage/prompt_tokens").asInt());
    }
  }

  @Test
  void prefillCostPerPromptTokenIsAddedToTheTtft() {
    try (Simulator slow = Simulator.start(SimulatorConfig.builder().ttft(Duration.ofMillis(10))
        .prefillPerToken(Duration.ofMillis(2)).itl(Duration.ZERO).build());
        TestClient client = new TestClient(slow.port())) {
      String prompt = "word ".repeat(100);
      Response r = client.post("/v1/completions",
          "{\"prompt\":\"" + prompt + "\",\"max_tokens\":2,\"stream\":true}");
      long ttft = r.contentEvents().get(0).nanos() - r.startNanos();
      assertTrue(ms(ttft) >= 10 + 200, "ttft " + ms(ttft));
      assertTrue(ms(ttft) < 210 + SLACK_MS, "ttft " + ms(ttft));
    }
  }

  @Test
  void connectionsAreKeptAliveAndPipelinedRequestsAnsweredInOrder() {
    try (TestClient client = new TestClient(sim.port())) {
      assertEquals(SimTokens.text(2), texts(client.post("/v1/completions", completion(2, true, false))
          .contentEvents(), "text"));
      assertEquals(200, client.get("/health").status());
      client.write("POST", "/v1/completions", completion(3, true, false), Map.of());
      client.write("POST", "/v1/completions", completion(1, false, false), Map.of());
      long start = System.nanoTime();
      assertEquals(SimTokens.text(3), texts(client.read(start).contentEvents(), "text"));
      assertEquals(SimTokens.text(1), client.read(start).json().at("/choices/0/text").asText());
    }
  }

  @Test
  void connectionCloseIsHonouredAndTheRequestIdEchoed() {
    try (TestClient client = new TestClient(sim.port())) {
      Response r = client.exchange("POST", "/v1/completions", completion(2, true, true),
          Map.of("connection", "close", "x-request-id", "bench-7"));
      assertTrue(r.complete());
      assertEquals("close", r.header("connection"));
      assertEquals("bench-7", r.header("x-request-id"));
      assertTrue(client.serverClosed());
    }
  }

  static String texts(List<Event> events, String field) {
    StringBuilder sb = new StringBuilder();
    for (Event e : events) {
      JsonNode choice = e.json().get("choices").get(0);
      sb.append(field.equals("delta") ? choice.at("/delta/content").asText() : choice.get(field).asText());
    }
    return sb.toString();
  }
}
