package dev.gatlingllm.sim;

import static dev.gatlingllm.sim.SimulatorEndpointsTest.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.sim.SimCommand;
import dev.gatlingllm.sim.TestClient.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What issue 27 asks of the simulator: {@code /v1/responses} streamed and not, several
 * served models, {@code /tokenize} and {@code /detokenize}, {@code min_tokens}, and the other
 * fields an {@code --extra-body} may carry.
 */
class SimulatorResponsesTest {

  static Simulator sim;

  @BeforeAll
  static void start() {
    sim = Simulator.start(SimulatorConfig.builder()
        .models(List.of("org/tiny-llm", "org/tiny-llm-lora", "tiny"))
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
  void aStreamedResponseIsTypedEventsEndingWithTheUsage() {
    try (TestClient c = new TestClient(sim.port())) {
      // input 3 words + instructions 2 words = 5 prompt tokens; 4 output tokens, one per delta
      Response r = c.post("/v1/responses", "{\"model\":\"org/tiny-llm\",\"input\":\"one two "
          + "three\",\"instructions\":\"be brief\",\"max_output_tokens\":4,\"temperature\":0.0,"
          + "\"stream\":true}");
      assertEquals(200, r.status());
      assertTrue(r.header("content-type").startsWith("text/event-stream"));
      assertFalse(r.body().contains("[DONE]"));
      List<JsonNode> events = typedEvents(r.body());
      List<String> types = events.stream().map(e -> e.get("type").asText()).toList();
      assertEquals(List.of("response.created", "response.in_progress",
          "response.output_item.added", "response.content_part.added",
          "response.output_text.delta", "response.output_text.delta",
          "response.output_text.delta", "response.output_text.delta",
          "response.output_text.done", "response.content_part.done",
          "response.output_item.done", "response.completed"), types);
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < events.size(); i++) {
        assertEquals(i, events.get(i).get("sequence_number").asInt());
        if (types.get(i).equals("response.output_text.delta")) {
          text.append(events.get(i).get("delta").asText());
        }
      }
      assertEquals(" zero one two three", text.toString());
      JsonNode completed = events.get(events.size() - 1).get("response");
      assertEquals("completed", completed.get("status").asText());
      assertEquals("org/tiny-llm", completed.get("model").asText());
      assertEquals(5, completed.get("usage").get("input_tokens").asInt());
      assertEquals(4, completed.get("usage").get("output_tokens").asInt());
      assertEquals(9, completed.get("usage").get("total_tokens").asInt());
    }
  }

  @Test
  void aNonStreamedResponseIsTheResponseObject() {
    try (TestClient c = new TestClient(sim.port())) {
      Response r = c.post("/v1/responses", "{\"input\":[{\"role\":\"user\",\"content\":"
          + "[{\"type\":\"input_text\",\"text\":\"a b\"}]},{\"role\":\"user\",\"content\":\"c\"}],"
          + "\"max_output_tokens\":2}");
      assertEquals(200, r.status());
      JsonNode body = r.json();
      assertEquals("response", body.get("object").asText());
      assertEquals(" zero one",
          body.get("output").get(0).get("content").get(0).get("text").asText());
      assertEquals(3, body.get("usage").get("input_tokens").asInt());
      assertEquals(2, body.get("usage").get("output_tokens").asInt());
      assertError(c.post("/v1/responses", "{\"max_output_tokens\":2}"), 400, "BadRequestError",
          "input is required");
    }
  }

  @Test
  void everyServedModelIsListedAndAnswered() {
    try (TestClient c = new TestClient(sim.port())) {
      JsonNode data = c.get("/v1/models").json().get("data");
      assertEquals(3, data.size());
      assertEquals("org/tiny-llm", data.get(0).get("id").asText());
      assertEquals("org/tiny-llm-lora", data.get(1).get("id").asText());
      assertEquals("tiny", data.get(2).get("id").asText());
      assertEquals("org/tiny-llm", data.get(2).get("root").asText());
      Response second = c.post("/v1/completions",
          "{\"model\":\"org/tiny-llm-lora\",\"prompt\":\"x\",\"max_tokens\":1}");
      assertEquals("org/tiny-llm-lora", second.json().get("model").asText());
      Response first = c.post("/v1/chat/completions", "{\"model\":\"org/tiny-llm\","
          + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_tokens\":1}");
      assertEquals("org/tiny-llm", first.json().get("model").asText());
      assertError(c.post("/v1/completions", "{\"model\":\"other\",\"prompt\":\"x\"}"), 404,
          "NotFoundError", "The model `other` does not exist.");
    }
  }

  @Test
  void tokenizeAndDetokenizeUseTheSimulatorsTokenizer() {
    try (TestClient c = new TestClient(sim.port())) {
      // "one" -> 1, "two" -> 2, "t10" -> 10, "hello" -> 10 + (99162322 mod 31990) = 25322
      JsonNode t = c.post("/tokenize", "{\"model\":\"org/tiny-llm\",\"prompt\":\"one two  t10 "
          + "hello\",\"add_special_tokens\":true}").json();
      assertEquals(4, t.get("count").asInt());
      assertEquals(1024, t.get("max_model_len").asInt());
      assertEquals("[1,2,10,25322]", t.get("tokens").toString());
      assertTrue(t.get("token_strs").isNull());
      JsonNode chat = c.post("/tokenize", "{\"messages\":[{\"role\":\"system\",\"content\":"
          + "\"zero\"},{\"role\":\"user\",\"content\":\"nine nine\"}],\"return_token_strs\":true}")
          .json();
      assertEquals("[0,9,9]", chat.get("tokens").toString());
      assertEquals("[\" zero\",\" nine\",\" nine\"]", chat.get("token_strs").toString());

      JsonNode d = c.post("/detokenize", "{\"model\":\"tiny\",\"tokens\":[3,10,31999,25322]}")
          .json();
      assertEquals(" three t10 t31999 t25322", d.get("prompt").asText());
      JsonNode back = c.post("/tokenize", "{\"prompt\":\" three t10 t31999 t25322\"}").json();
      assertEquals("[3,10,31999,25322]", back.get("tokens").toString());

      assertError(c.post("/detokenize", "{\"tokens\":[32000]}"), 400, "BadRequestError",
          "token id 32000 is out of vocabulary (0..31999)");
      assertError(c.post("/tokenize", "{\"model\":\"other\",\"prompt\":\"x\"}"), 404,
          "NotFoundError", "The model `other` does not exist.");
      assertEquals(405, c.get("/tokenize").status());
    }
  }

  @Test
  void minTokensIsHonouredAndExtraFieldsAreTolerated() {
    try (TestClient c = new TestClient(sim.port())) {
      // no budget: the default 16 tokens, raised to min_tokens 20
      Response raised = c.post("/v1/chat/completions", "{\"messages\":[{\"role\":\"user\","
          + "\"content\":\"x\"}],\"min_tokens\":20,\"top_k\":5,\"repetition_penalty\":1.1,"
          + "\"chat_template_kwargs\":{\"enable_thinking\":false},\"skip_special_tokens\":false,"
          + "\"some_field_vllm_does_not_know\":[1,2]}");
      assertEquals(200, raised.status(), raised.body());
      assertEquals(20, raised.json().get("usage").get("completion_tokens").asInt());
      Response within = c.post("/v1/completions",
          "{\"prompt\":\"x\",\"max_tokens\":8,\"min_tokens\":8}");
      assertEquals(8, within.json().get("usage").get("completion_tokens").asInt());
      Response responses = c.post("/v1/responses",
          "{\"input\":\"x\",\"max_output_tokens\":3,\"min_tokens\":2,\"ignore_eos\":true}");
      assertEquals(3, responses.json().get("usage").get("output_tokens").asInt());
      assertError(c.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":4,"
          + "\"min_tokens\":5}"), 400, "BadRequestError",
          "min_tokens must be less than or equal to max_tokens=4, got 5.");
      assertError(c.post("/v1/completions", "{\"prompt\":\"x\",\"min_tokens\":-1}"), 400,
          "BadRequestError", "min_tokens must be greater than or equal to 0, got -1.");
    }
  }

  @Test
  void theCommandLineListsTheServedModels() {
    SimulatorConfig config = SimCommand.parse("--served-model-name", "a/b,c", "--port", "0");
    assertEquals(List.of("a/b", "c"), config.models());
    assertEquals("a/b", config.model());
    assertTrue(config.serves("c"));
    assertFalse(config.serves("d"));
    assertEquals(List.of("sim-model"), SimCommand.parse().models());
    IllegalArgumentException blank = assertThrows(
        IllegalArgumentException.class, () -> SimCommand.parse("--served-model-name", "a,,b"));
    assertTrue(blank.getMessage().contains("models must be non-blank names, got '' in [, b]"),
        blank.getMessage());
  }
}
