package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.dataset.SampleRequest;
import dev.gatlingllm.internal.protocol.ProbeRequests;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** {@code --probe-request-rate}: its value checked before anything is sent, and its bodies. */
class ProbingTest {

  private static BenchPlan plan(String line) {
    return BenchPlan.of(BenchArgs.parse(CommandLine.split(line)));
  }

  private static OptionalDouble rate(String line) {
    BenchPlan plan = plan(line);
    return Probing.rate(plan.args(), plan.backend());
  }

  private static String error(String line) {
    return assertThrows(IllegalArgumentException.class, () -> plan(line)).getMessage();
  }

  @Test
  void zeroOrAbsentSendsNoProbe() {
    assertTrue(rate("--model m").isEmpty());
    assertTrue(rate("--model m --probe-request-rate 0").isEmpty());
    assertEquals(2.5, rate("--model m --probe-request-rate 2.5").getAsDouble());
  }

  @Test
  void aRateThatCannotBeSentIsRefusedNamingTheFlag() {
    assertEquals("--probe-request-rate must be a finite number of probes a second, 0 or more "
        + "(0: no probe), got -1", error("--model m --probe-request-rate -1"));
    assertEquals("--probe-request-rate must be a finite number of probes a second, 0 or more "
        + "(0: no probe), got inf", error("--model m --probe-request-rate inf"));
    assertEquals("--probe-request-rate expects a number, got 'fast'",
        error("--model m --probe-request-rate fast"));
    assertEquals("--probe-request-rate with --backend openai-embeddings: probes time a first "
        + "token, which pooling answers do not stream; leave it out",
        error("--model m --backend openai-embeddings --probe-request-rate 1"));
  }

  @Test
  void aScaledOutRunIsRefusedProbesItCouldNotAddUp() {
    System.setProperty("llm.injector", "1/3");
    try {
      assertEquals("--probe-request-rate on a scaled-out run (injector 1/3): every injector "
          + "would send its own probes and the merged result could not add them up; probe "
          + "from a separate single run, or leave it out",
          error("--model m --probe-request-rate 2"));
    } finally {
      System.clearProperty("llm.injector");
    }
    assertEquals(2.0, rate("--model m --probe-request-rate 2").getAsDouble());
  }

  @Test
  void probeKTakesPromptKRoundTheDatasetAndAsksOneToken() throws Exception {
    BenchPlan plan = plan("--model m --backend openai --probe-request-rate 1");
    List<SampleRequest> prompts = List.of(new SampleRequest("first prompt", 2, 100, "r-0"),
        new SampleRequest("second prompt", 2, 100, "r-1"));
    IntFunction<ProbeRequests.Body> bodies = Probing.bodies(plan, prompts);
    ObjectMapper json = new ObjectMapper();
    String[] expected = {"first prompt", "second prompt", "first prompt"};
    for (int k = 0; k < 3; k++) {
      ProbeRequests.Body b = bodies.apply(k);
      JsonNode body = json.readTree(b.bytes());
      assertEquals(expected[k], body.get("prompt").asText());
      assertEquals(1, body.get("max_tokens").asInt(), body.toString());
      assertEquals("m", body.get("model").asText());
      assertEquals("/v1/completions", b.path());
      assertEquals(2, b.promptTokens());
    }
    assertArrayEquals(bodies.apply(0).bytes(), bodies.apply(2).bytes());
    assertFalse(new String(bodies.apply(1).bytes()).contains("first"));
  }

  /**
   * A probe is read as its API's answer: a Messages stream by the Messages reader (with the
   * OpenAI chunk reader every probe of such a run failed as "stream ended without content").
   */
  @Test
  void aMessagesProbeIsAMessagesRequestReadAsOne() throws Exception {
    BenchPlan plan = plan("--model m --backend anthropic-messages --probe-request-rate 1");
    ProbeRequests.Body b = Probing.bodies(plan,
        List.of(new SampleRequest("first prompt", 2, 100, "r-0"))).apply(0);
    JsonNode body = new ObjectMapper().readTree(b.bytes());
    assertEquals("/v1/messages", b.path());
    assertEquals(1, body.get("max_tokens").asInt(), body.toString());
    assertEquals("first prompt", body.get("messages").get(0).get("content").asText());
    assertSame(dev.gatlingllm.internal.action.BuilderAccess.api(
        dev.gatlingllm.action.Backends.resolve("anthropic-messages")).reader(),
        b.reader());
    assertNotSame(dev.gatlingllm.internal.client.ChunkReader.OPENAI, b.reader());
    assertSame(dev.gatlingllm.internal.client.ChunkReader.OPENAI, Probing.bodies(
        plan("--model m --backend openai --probe-request-rate 1"),
        List.of(new SampleRequest("p", 1, 100, "r-0"))).apply(0).reader());
  }
}
