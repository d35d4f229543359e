package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.sim.SimCommand;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each habit of llama.cpp's server the simulator can imitate, switched on alone, then all of
 * them through the dialect preset.
 */
@Timeout(30)
class SimulatorDialectTest {

  private static Simulator start(SimulatorConfig.Builder config) {
    return Simulator.start(config.ttft(Duration.ofMillis(1)).itl(Duration.ofMillis(1)).build());
  }

  private static TestClient.Response post(Simulator sim, String path, String body) {
    try (TestClient client = new TestClient(sim.port())) {
      return client.post(path, body);
    }
  }

  private static List<JsonNode> jsonEvents(TestClient.Response r) {
    return r.events().stream().filter(e -> !e.data().equals("[DONE]"))
        .map(TestClient.Event::json).toList();
  }

  @Test
  void usageInTheFinishChunkComesWithOneEmptyChoiceAndTimingsAndNoUsageChunk() {
    try (Simulator sim = start(SimulatorConfig.builder().usageInFinishChunk(true))) {
      TestClient.Response r = post(sim, "/v1/completions", "{\"model\":\"sim-model\","
          + "\"prompt\":\"a b c\",\"max_tokens\":5,\"stream\":true,"
          + "\"stream_options\":{\"include_usage\":true}}");
      List<JsonNode> events = jsonEvents(r);
      assertEquals(6, events.size(), "5 tokens, then the finish chunk");
      for (int i = 0; i < 5; i++) {
        assertTrue(events.get(i).path("choices").get(0).path("finish_reason").isNull(), "event " + i);
      }
      JsonNode last = events.get(5);
      assertEquals(1, last.path("choices").size());
      assertEquals("", last.path("choices").get(0).path("text").asText("not a string"));
      assertEquals("length", last.path("choices").get(0).path("finish_reason").asText());
      assertEquals(5, last.path("usage").path("completion_tokens").asInt());
      assertEquals(3, last.path("usage").path("prompt_tokens").asInt());
      assertEquals(5, last.path("timings").path("predicted_n").asInt());
      assertEquals("[DONE]", r.events().get(r.events().size() - 1).data());
    }
  }

  @Test
  void chatFinishChunkHasAnEmptyDeltaAndUsageEvenUnasked() {
    try (Simulator sim = start(SimulatorConfig.builder().usageInFinishChunk(true))) {
      List<JsonNode> events = jsonEvents(post(sim, "/v1/chat/completions", "{\"messages\":"
          + "[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2,\"stream\":true}"));
      JsonNode last = events.get(events.size() - 1);
      assertEquals(0, last.path("choices").get(0).path("delta").size());
      assertEquals(2, last.path("usage").path("completion_tokens").asInt());
      assertTrue(events.stream().noneMatch(e -> e.path("choices").isArray()
          && e.path("choices").isEmpty()), "no choices: [] chunk");
    }
  }

  @Test
  void aHeldBackTokenGoesOutMergedWithTheNextOne() {
    // rate 0.25 over token indexes 0..7 hits 3 and 7; 7 is the last and is never held
    try (Simulator sim = start(SimulatorConfig.builder().mergedTokenRate(0.25))) {
      TestClient.Response r = post(sim, "/v1/completions",
          "{\"prompt\":\"a\",\"max_tokens\":8,\"stream\":true}");
      List<String> texts = r.contentEvents().stream()
          .map(e -> e.json().path("choices").get(0).path("text").asText()).toList();
      assertEquals(List.of(" zero", " one", " two", " three four", " five", " six", " seven"),
          texts);
    }
  }

  @Test
  void roleChunkWithNullContent() {
    try (Simulator sim = start(SimulatorConfig.builder().nullRoleContent(true))) {
      List<JsonNode> events = jsonEvents(post(sim, "/v1/chat/completions", "{\"messages\":"
          + "[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2,\"stream\":true}"));
      JsonNode delta = events.get(0).path("choices").get(0).path("delta");
      assertEquals("assistant", delta.path("role").asText());
      assertTrue(delta.has("content") && delta.get("content").isNull(), delta.toString());
    }
  }

  @Test
  void missingRoleChunkByArrivalNumber() {
    // rate 0.5 hits arrival 1, not 0
    try (Simulator sim = start(SimulatorConfig.builder().missingRoleRate(0.5))) {
      String body = "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2,"
          + "\"stream\":true}";
      List<JsonNode> first = jsonEvents(post(sim, "/v1/chat/completions", body));
      List<JsonNode> second = jsonEvents(post(sim, "/v1/chat/completions", body));
      assertTrue(first.get(0).path("choices").get(0).path("delta").has("role"));
      assertEquals(2, second.size(), "two content chunks, no role chunk");
      assertFalse(second.get(0).path("choices").get(0).path("delta").has("role"));
    }
  }

  @Test
  void ignoredMaxCompletionTokensRunToTheContextLimitWhileMaxTokensHolds() {
    try (Simulator sim = start(SimulatorConfig.builder().ignoreMaxCompletionTokens(true)
        .contextTokens(20))) {
      String messages = "\"messages\":[{\"role\":\"user\",\"content\":\"a b c\"}]";
      JsonNode ignored = post(sim, "/v1/chat/completions",
          "{" + messages + ",\"max_completion_tokens\":4}").json();
      assertEquals(17, ignored.path("usage").path("completion_tokens").asInt(), "20 - 3");
      JsonNode honoured = post(sim, "/v1/chat/completions",
          "{" + messages + ",\"max_tokens\":4}").json();
      assertEquals(4, honoured.path("usage").path("completion_tokens").asInt());
    }
  }

  @Test
  void anyModelIsAcceptedAndEchoedOnlyWhenSwitchedOn() {
    String body = "{\"model\":\"lama-typo\",\"prompt\":\"a\",\"max_tokens\":1}";
    try (Simulator sim = start(SimulatorConfig.builder().anyModel(true))) {
      TestClient.Response r = post(sim, "/v1/completions", body);
      assertEquals(200, r.status());
      assertEquals("lama-typo", r.json().path("model").asText());
    }
    try (Simulator sim = start(SimulatorConfig.builder())) {
      assertEquals(404, post(sim, "/v1/completions", body).status());
    }
  }

  @Test
  void invalidJsonIs500OnlyWhenSwitchedOn() {
    try (Simulator sim = start(SimulatorConfig.builder().invalidJsonAs500(true))) {
      assertEquals(500, post(sim, "/v1/completions", "{\"prompt\":").status());
    }
    try (Simulator sim = start(SimulatorConfig.builder())) {
      assertEquals(400, post(sim, "/v1/completions", "{\"prompt\":").status());
    }
  }

  @Test
  void longPromptIsCutToTheContextAndUsageSaysTheCutLength() {
    try (Simulator sim = start(SimulatorConfig.builder().cutLongPrompts(true).contextTokens(4))) {
      JsonNode answer = post(sim, "/v1/completions",
          "{\"prompt\":\"one two three four five six\",\"max_tokens\":1}").json();
      assertEquals(4, answer.path("usage").path("prompt_tokens").asInt());
    }
  }

  @Test
  void thePresetTurnsEverySwitchOnAndVllmTurnsThemOff() {
    // compared whole: a switch the preset forgets, or a component it should leave alone
    // (the context, the model, the timing), differs from the hand-written expectation
    SimulatorConfig llama = SimulatorConfig.builder().contextTokens(64).itl(Duration.ofMillis(3))
        .dialect(SimulatorConfig.Dialect.LLAMACPP).build();
    assertEquals(ExpectedConfig.config("contextTokens", 64, "itl", Duration.ofMillis(3),
        "usageInFinishChunk", true, "mergedTokenRate", 0.01, "nullRoleContent", true,
        "missingRoleRate", 0.05, "ignoreMaxCompletionTokens", true, "cutLongPrompts", true,
        "anyModel", true, "invalidJsonAs500", true), llama);
    assertEquals(ExpectedConfig.config("contextTokens", 64, "itl", Duration.ofMillis(3)),
        llama.toBuilder().dialect(SimulatorConfig.Dialect.VLLM).build());
  }

  @Test
  void commandLineDialectAndContext() {
    SimulatorConfig c = SimCommand.parse("--dialect", "llamacpp", "--context-tokens",
        "64", "--merged-token-rate=0.1");
    SimulatorConfig flagsAfter = ExpectedConfig.config("contextTokens", 64,
        "usageInFinishChunk", true, "mergedTokenRate", 0.1, "nullRoleContent", true,
        "missingRoleRate", 0.05, "ignoreMaxCompletionTokens", true, "cutLongPrompts", true,
        "anyModel", true, "invalidJsonAs500", true);
    assertEquals(flagsAfter, c);
    // a flag before the dialect is set again by it: the order given counts
    assertEquals(flagsAfter.toBuilder().mergedTokenRate(0.01).build(), SimCommand.parse(
        "--merged-token-rate=0.1", "--dialect", "LLAMA.CPP", "--context-tokens", "64"));
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> SimCommand.parse("--dialect", "tgi"));
    assertEquals("--dialect must be one of vllm, llamacpp, got 'tgi'", bad.getMessage());
    IllegalArgumentException rate = assertThrows(IllegalArgumentException.class,
        () -> SimulatorConfig.builder().missingRoleRate(2).build());
    assertEquals("missingRoleRate must be a fraction in 0..1, got 2.0", rate.getMessage());
  }
}
