package dev.gatlingllm.sim;

import static dev.gatlingllm.sim.SimulatorEndpointsTest.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.TestClient.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tool calls, structured answers and the server's reasoning count as the simulator streams
 * them, and the tool requests it refuses with vLLM's words.
 */
class SimulatorToolsTest {

  private static final String TOOLS = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":"
      + "\"get_weather\",\"parameters\":{\"type\":\"object\",\"properties\":{\"city\":{\"type\":"
      + "\"string\"},\"days\":{\"type\":\"integer\"}},\"required\":[\"city\"]}}},{\"type\":"
      + "\"function\",\"function\":{\"name\":\"noop\",\"parameters\":{\"type\":\"object\"}}}]";

  private static Simulator start(SimulatorConfig.Builder b) {
    return Simulator.start(b.model("served-llm").ttft(Duration.ofMillis(1)).itl(Duration.ZERO)
        .build());
  }

  private static String chat(String extra) {
    return "{\"model\":\"served-llm\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
        + "\"max_tokens\":4,\"stream\":true,\"stream_options\":{\"include_usage\":true}" + extra + "}";
  }

  /** The JSON of every data event but [DONE]. */
  private static List<JsonNode> events(Response r) {
    List<JsonNode> out = new ArrayList<>();
    for (TestClient.Event e : r.events()) {
      if (!e.data().equals("[DONE]")) {
        out.add(e.json());
      }
    }
    return out;
  }

  @Test
  void aToolCallStreamsItsNameFirstThenItsArgumentsInPieces() {
    try (Simulator sim = start(SimulatorConfig.builder().toolCallAnswers(true));
        TestClient c = new TestClient(sim.port())) {
      List<JsonNode> events = events(c.post("/v1/chat/completions", chat("," + TOOLS)));
      StringBuilder arguments = new StringBuilder();
      List<JsonNode> calls = new ArrayList<>();
      for (JsonNode e : events) {
        JsonNode call = e.path("choices").path(0).path("delta").path("tool_calls").path(0);
        if (!call.isMissingNode()) {
          calls.add(call);
          arguments.append(call.path("function").path("arguments").asText());
        }
      }
      assertEquals(4, calls.size(), "one fragment per output token");
      assertEquals("get_weather", calls.get(0).path("function").path("name").asText());
      assertEquals("function", calls.get(0).path("type").asText());
      assertFalse(calls.get(1).has("id"), "only the first fragment names the call");
      assertEquals("{\"city\":\"text\",\"days\":1}", arguments.toString());
      JsonNode last = events.get(events.size() - 2).path("choices").path(0);
      assertEquals("tool_calls", last.path("finish_reason").asText());
    }
  }

  @Test
  void aNamedFunctionIsCalledEvenWithoutToolCallAnswersAndNoneNeverIs() {
    try (Simulator sim = start(SimulatorConfig.builder());
        TestClient c = new TestClient(sim.port())) {
      String named = events(c.post("/v1/chat/completions", chat("," + TOOLS
          + ",\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"noop\"}}")))
          .get(1).path("choices").path(0).path("delta").path("tool_calls").path(0)
          .path("function").path("name").asText();
      assertEquals("noop", named);
      String body = c.post("/v1/chat/completions", chat("," + TOOLS + ",\"tool_choice\":\"none\""))
          .body();
      assertFalse(body.contains("tool_calls"));
      // auto, implied by the tools: this model answers in words
      assertFalse(c.post("/v1/chat/completions", chat("," + TOOLS)).body().contains("tool_calls"));
    }
  }

  @Test
  void malformedCallsAreCutBeforeTheirLastCharacter() {
    try (Simulator sim = start(SimulatorConfig.builder().toolCallAnswers(true)
        .malformedToolCallRate(1.0)); TestClient c = new TestClient(sim.port())) {
      Response r = c.post("/v1/chat/completions", chat("," + TOOLS).replace("\"stream\":true",
          "\"stream\":false").replace(",\"stream_options\":{\"include_usage\":true}", ""));
      JsonNode call = r.json().path("choices").path(0).path("message").path("tool_calls").path(0);
      assertEquals("{\"city\":\"text\",\"days\":1", call.path("function").path("arguments").asText());
    }
  }

  @Test
  void vllmsToolChecksAreRefusedInItsWords() {
    try (Simulator sim = start(SimulatorConfig.builder().autoToolChoice(false));
        TestClient c = new TestClient(sim.port())) {
      assertError(c.post("/v1/chat/completions", chat(",\"tool_choice\":\"auto\"")), 400,
          "BadRequestError", "When using `tool_choice`, `tools` must be set.");
      assertError(c.post("/v1/chat/completions", chat(",\"tools\":[]")), 400, "BadRequestError",
          "`tools` must not be an empty array. Either provide at least one tool or omit the "
              + "field entirely.");
      assertError(c.post("/v1/chat/completions", chat("," + TOOLS + ",\"tool_choice\":\"any\"")),
          400, "BadRequestError", "Invalid value for `tool_choice`: any! Only named tools, "
              + "\"none\", \"auto\" or \"required\" are supported.");
      assertError(c.post("/v1/chat/completions", chat("," + TOOLS + ",\"tool_choice\":{\"type\":"
          + "\"function\",\"function\":{\"name\":\"missing\"}}")), 400, "BadRequestError",
          "The tool specified in `tool_choice` does not match any of the specified `tools`");
      assertError(c.post("/v1/chat/completions", chat("," + TOOLS)), 400, "BadRequestError",
          "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be "
              + "set");
      // required is forced by guided decoding: no parser needed
      assertTrue(c.post("/v1/chat/completions", chat("," + TOOLS + ",\"tool_choice\":\"required\""))
          .body().contains("\"tool_calls\""));
    }
  }

  @Test
  void aStructuredAnswerFollowsItsSchemaUnlessItIsBroken() {
    String format = ",\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":"
        + "\"p\",\"schema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},"
        + "\"role\":{\"enum\":[\"admin\",\"user\"]},\"tags\":{\"type\":\"array\",\"items\":"
        + "{\"type\":\"number\"}}},\"required\":[\"name\"]}}}";
    try (Simulator sim = start(SimulatorConfig.builder().invalidStructuredRate(0.5));
        TestClient c = new TestClient(sim.port())) {
      List<String> answers = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        StringBuilder text = new StringBuilder();
        for (JsonNode e : events(c.post("/v1/chat/completions", chat(format)))) {
          text.append(e.path("choices").path(0).path("delta").path("content").asText(""));
        }
        answers.add(text.toString());
      }
      // arrival 0 is whole, arrival 1 is cut (rate 0.5: every other request)
      assertEquals(List.of("{\"name\":\"text\",\"role\":\"admin\",\"tags\":[1.5]}",
          "{\"name\":\"text\",\"role\":\"admin\",\"tags\":[1.5]"), answers);
      assertError(c.post("/v1/chat/completions", chat(",\"response_format\":{\"type\":"
          + "\"json_schema\"}")), 400, "BadRequestError", "When response_format type is "
          + "'json_schema', the 'json_schema' field must be provided.");
      assertError(c.post("/v1/chat/completions", chat(",\"structured_outputs\":{\"json\":{},"
          + "\"regex\":\"a+\"}")), 400, "BadRequestError", "You can only use one kind of "
          + "constraints for structured outputs ('json', 'regex' or 'choice').");
    }
  }

  @Test
  void theUsageSaysHowManyTokensWereReasoning() {
    try (Simulator sim = start(SimulatorConfig.builder().reasoningTokens(3));
        TestClient c = new TestClient(sim.port())) {
      List<JsonNode> events = events(c.post("/v1/chat/completions", chat("")));
      JsonNode usage = events.get(events.size() - 1).path("usage");
      assertEquals(4, usage.path("completion_tokens").asInt());
      assertEquals(3, usage.path("completion_tokens_details").path("reasoning_tokens").asInt());
    }
  }
}
