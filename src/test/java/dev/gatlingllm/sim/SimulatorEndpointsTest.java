package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.TestClient.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The non-generation endpoints and the refusals, with vLLM's status codes and bodies. */
class SimulatorEndpointsTest {

  static Simulator sim;

  @BeforeAll
  static void start() {
    sim = Simulator.start(SimulatorConfig.builder().model("org/tiny-llm")
        .ttft(Duration.ofMillis(1)).itl(Duration.ZERO).build());
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  @BeforeEach
  void reset() {
    sim.resetStats();
  }

  static void assertError(Response r, int code, String type, String message) {
    assertEquals(code, r.status());
    assertEquals("application/json", r.header("content-type"));
    // vLLM's current ErrorResponse: the fields nested under "error"
    JsonNode body = r.json().get("error");
    assertEquals(1, r.json().size(), "nothing beside error");
    assertEquals(message, body.get("message").asText());
    assertEquals(type, body.get("type").asText());
    if (message.startsWith("The model `")) {
      assertEquals("model", body.get("param").asText());
    } else {
      assertTrue(body.get("param").isNull());
    }
    assertEquals(code, body.get("code").asInt());
  }

  @Test
  void anotherModelIsNotFound() {
    try (TestClient c = new TestClient(sim.port())) {
      assertError(c.post("/v1/completions", "{\"model\":\"gpt2\",\"prompt\":\"x\"}"),
          404, "NotFoundError", "The model `gpt2` does not exist.");
      assertError(c.post("/v1/chat/completions",
          "{\"model\":\"sim-model\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"),
          404, "NotFoundError", "The model `sim-model` does not exist.");
      assertEquals(200, c.post("/v1/completions",
          "{\"model\":\"org/tiny-llm\",\"prompt\":\"x\",\"max_tokens\":1}").status());
    }
  }

  @Test
  void malformedRequestsAreBadRequestsAndAreNotCounted() {
    try (TestClient c = new TestClient(sim.port())) {
      assertError(c.post("/v1/completions", "{\"prompt\":"), 400, "BadRequestError",
          "Invalid JSON in request body: Unexpected end-of-input within/between Object entries");
      assertError(c.post("/v1/completions", "[1]"), 400, "BadRequestError",
          "Request body must be a JSON object");
      assertError(c.post("/v1/completions", "{\"max_tokens\":3}"), 400, "BadRequestError",
          "prompt is required");
      assertError(c.post("/v1/completions", "{\"prompt\":[\"a\",\"b\"]}"), 400, "BadRequestError",
          "the simulator takes one prompt per request, got 2");
      assertError(c.post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":0}"), 400,
          "BadRequestError", "max_tokens must be at least 1, got 0.");
      assertError(c.post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":\"5\"}"), 400,
          "BadRequestError", "max_tokens must be an integer, got \"5\"");
      assertError(c.post("/v1/completions", "{\"prompt\":\"a\",\"stream\":\"yes\"}"), 400,
          "BadRequestError", "stream must be a boolean, got \"yes\"");
      assertError(c.post("/v1/completions",
          "{\"prompt\":\"a\",\"stream_options\":{\"include_usage\":true}}"), 400,
          "BadRequestError", "Stream options can only be defined when `stream=True`.");
      assertError(c.post("/v1/chat/completions", "{\"max_tokens\":3}"), 400, "BadRequestError",
          "messages is required");
      assertError(c.post("/v1/chat/completions", "{\"messages\":[]}"), 400, "BadRequestError",
          "messages must be a non-empty list of {role, content} objects");
      assertError(c.post("/v1/chat/completions",
          "{\"messages\":[{\"role\":\"user\",\"content\":\"a\"}],\"max_completion_tokens\":-2}"), 400,
          "BadRequestError", "max_completion_tokens must be at least 1, got -2.");
      assertError(c.post("/v1/chat/completions", "{\"messages\":[\"hi\"]}"), 400,
          "BadRequestError", "each message must be an object with a string role, got \"hi\"");
      assertError(c.post("/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":{\"t\":\""
          + "x".repeat(100) + "\"}}]}"), 400, "BadRequestError",
          "message content must be a string or a list of parts, got {\"t\":\"" + "x".repeat(51) + "...");
      assertEquals(0, sim.requestsReceived());
      assertEquals(200, c.get("/health").status(), "the connection is still usable");
    }
  }

  @Test
  void unknownPathsAndWrongMethodsGetFastApisAnswers() {
    try (TestClient c = new TestClient(sim.port())) {
      Response missing = c.get("/v1/no-such-endpoint");
      assertEquals(404, missing.status());
      assertEquals("{\"detail\":\"Not Found\"}", missing.body());
      Response wrongMethod = c.get("/v1/completions");
      assertEquals(405, wrongMethod.status());
      assertEquals("{\"detail\":\"Method Not Allowed\"}", wrongMethod.body());
      assertEquals(405, c.post("/health", "{}").status());
    }
  }

  @Test
  void everyPathAnswersItsOwnMethodOnlyAndTheChunkLogOnlyWhenOn() {
    // written by hand from vLLM's routes: a row of the route table with the wrong method or
    // a path lost from it answers 405 or 404 where this expects otherwise
    List<String> posted = List.of("/v1/completions", "/v1/chat/completions", "/v1/responses",
        "/v1/audio/transcriptions", "/v1/audio/translations", "/v1/embeddings", "/embeddings",
        "/pooling", "/v1/rerank", "/rerank", "/tokenize", "/detokenize", "/start_profile",
        "/stop_profile");
    List<String> got = List.of("/v1/models", "/health", "/metrics");
    try (TestClient c = new TestClient(sim.port())) {
      for (String path : posted) {
        assertEquals(405, c.get(path).status(), "GET " + path);
        // an empty JSON body: the endpoint is there and reads it (400 when it wants more)
        int status = c.post(path, "{}").status();
        assertTrue(status == 200 || status == 400, "POST " + path + ": " + status);
      }
      for (String path : got) {
        assertEquals(200, c.get(path).status(), "GET " + path);
        assertEquals(405, c.post(path, "{}").status(), "POST " + path);
      }
      assertEquals(404, c.get("/debug/chunk-log").status(), "the chunk log is off");
      assertEquals(404, c.post("/debug/chunk-log", "{}").status(), "the chunk log is off");
      assertEquals(List.of("/start_profile", "/stop_profile"), sim.profilerCalls());
    }
  }

  @Test
  void healthModelsAndMetrics() {
    try (TestClient c = new TestClient(sim.port())) {
      Response health = c.get("/health");
      assertEquals(200, health.status());
      assertEquals("", health.body());

      JsonNode models = c.get("/v1/models").json();
      assertEquals("list", models.get("object").asText());
      assertEquals(1, models.get("data").size());
      assertEquals("org/tiny-llm", models.at("/data/0/id").asText());
      assertEquals("model", models.at("/data/0/object").asText());

      for (int i = 0; i < 3; i++) {
        c.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":2,\"stream\":true}");
      }
      Response metrics = c.get("/metrics?format=text");
      assertEquals(200, metrics.status());
      assertTrue(metrics.header("content-type").startsWith("text/plain; version=0.0.4"));
      String text = metrics.body();
      assertTrue(text.contains("\ngatling_llm_sim_requests_total 3\n"), text);
      assertTrue(text.contains("\ngatling_llm_sim_running 0\n"), text);
      assertTrue(text.contains("\ngatling_llm_sim_waiting 0\n"), text);
      assertTrue(text.contains("\ngatling_llm_sim_max_in_flight 1\n"), text);
      assertTrue(text.contains("\ngatling_llm_sim_faults_total{kind=\"error\"} 0\n"), text);
      assertTrue(text.contains("\ngatling_llm_sim_timer_lateness_seconds_count 6\n"), text);
      assertTrue(text.contains("\nvllm:num_requests_running{model_name=\"org/tiny-llm\"} 0\n"), text);
    }
  }

  @Test
  void oversizedBodiesAreRefused() {
    try (TestClient c = new TestClient(sim.port())) {
      String prompt = "x".repeat(17 * 1024 * 1024);
      Response r = c.exchange("POST", "/v1/completions", "{\"prompt\":\"" + prompt + "\"}", Map.of());
      assertEquals(413, r.status());
    }
  }
}
