package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.action.KoMessages;
import dev.gatlingllm.internal.action.RequestSpec;
import dev.gatlingllm.internal.action.SessionValue;
import io.gatling.commons.stats.OK$;
import io.gatling.core.session.Session;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import scala.collection.immutable.Map$;
import scala.collection.immutable.Nil$;
import scala.runtime.BoxedUnit;

/**
 * Every request setting at the edge of what it accepts (vLLM's sampling ranges), the message
 * that names a bad value, session values that cannot be resolved, and KO messages at their
 * length limit.
 */
class RequestBuilderLimitsTest {

  private static LlmRequestBuilder completions() {
    return LlmRequestBuilder.completions("c").prompt("p");
  }

  private static String rejected(Executable call) {
    return assertThrows(IllegalArgumentException.class, call).getMessage();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Session session(Object... keyValues) {
    scala.collection.immutable.Map attributes = Map$.MODULE$.empty();
    for (int i = 0; i < keyValues.length; i += 2) {
      attributes = (scala.collection.immutable.Map) attributes.updated(keyValues[i],
          keyValues[i + 1]);
    }
    return new Session("scn", 1L, attributes, OK$.MODULE$,
        (scala.collection.immutable.List) Nil$.MODULE$, s -> BoxedUnit.UNIT, null);
  }

  @Test
  void eachLimitItselfIsAccepted() {
    RequestSpec spec = completions().maxTokens(1).promptTokens(0).temperature(0).topP(1)
        .topK(-1).minP(1).frequencyPenalty(-2).presencePenalty(2).repetitionPenalty(0.01).spec();
    assertEquals(1, spec.maxTokens().resolve(session()));
    assertEquals(0, spec.promptTokens().resolve(session()));
    assertEquals(0.0, spec.temperature());
    assertEquals(1.0, spec.topP());
    assertEquals(-1, spec.topK());
    assertEquals(1.0, spec.minP());
    assertEquals(-2.0, spec.frequencyPenalty());
    assertEquals(2.0, spec.presencePenalty());
    assertEquals(0.01, spec.repetitionPenalty());
    RequestSpec other = completions().minP(0).frequencyPenalty(2).presencePenalty(-2).spec();
    assertEquals(0.0, other.minP());
    assertEquals(2.0, other.frequencyPenalty());
    assertEquals(-2.0, other.presencePenalty());
  }

  @Test
  void justPastEachLimitIsRejectedByName() {
    assertEquals("promptTokens must be >= 0, got -1", rejected(() -> completions().promptTokens(-1)));
    assertEquals("temperature must be between 0.0 and 1.7976931348623157E308, got -0.1",
        rejected(() -> completions().temperature(-0.1)));
    assertEquals("temperature must be between 0.0 and 1.7976931348623157E308, got NaN",
        rejected(() -> completions().temperature(Double.NaN)));
    assertEquals("topP must be in (0, 1], got 0.0", rejected(() -> completions().topP(0)));
    assertEquals("topK must be >= -1, got -2", rejected(() -> completions().topK(-2)));
    assertEquals("minP must be between 0.0 and 1.0, got 1.01", rejected(() -> completions().minP(1.01)));
    assertEquals("minP must be between 0.0 and 1.0, got -0.01",
        rejected(() -> completions().minP(-0.01)));
    assertEquals("frequencyPenalty must be between -2.0 and 2.0, got 2.5",
        rejected(() -> completions().frequencyPenalty(2.5)));
    assertEquals("presencePenalty must be between -2.0 and 2.0, got -2.5",
        rejected(() -> completions().presencePenalty(-2.5)));
    assertEquals("repetitionPenalty must be > 0, got 0.0",
        rejected(() -> completions().repetitionPenalty(0)));
  }

  @Test
  void bodyFieldsEndpointAndAttributesAreChecked() {
    assertEquals("extraBody field name must not be empty", rejected(() -> completions().extraBody(" ", 1)));
    assertEquals("extraBody field name must not be empty", rejected(() -> completions().extraBody(null, 1)));
    assertEquals("extraBody cannot set 'stream_options': use stream(boolean) instead",
        rejected(() -> completions().extraBody("stream_options", Map.of())));
    assertEquals("extraBody value of 'seed'", assertThrows(NullPointerException.class,
        () -> completions().extraBody("seed", null)).getMessage());
    assertEquals("endpoint must start with '/', got v1/x", rejected(() -> completions().endpoint("v1/x")));
    assertEquals("endpoint must start with '/', got null", rejected(() -> completions().endpoint(null)));
    assertEquals("saveTextAs attribute must not be empty", rejected(() -> completions().saveTextAs("")));
    assertEquals("saveTextAs attribute must not be empty", rejected(() -> completions().saveTextAs(null)));
    assertEquals("messages(...) is only for chat and Responses requests",
        rejected(() -> completions().messages(s -> List.of())));
    assertEquals("request 'c': prompt(...) is required (or messages(...))",
        rejected(() -> LlmRequestBuilder.chat("c").spec()));
  }

  @Test
  void everySettingSurvivesLaterCallsAndEarlierBuildersStayAsTheyWere() {
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("seed", 1);
    extra.put("logprobs", 2);
    LlmRequestBuilder base = LlmRequestBuilder.chat("c").prompt("p");
    LlmRequestBuilder full = base.systemPrompt("s").maxTokens(9).promptTokens(3).ignoreEos(true)
        .temperature(0.5).topP(0.5).topK(5).minP(0.1).frequencyPenalty(0.1).presencePenalty(0.2)
        .repetitionPenalty(1.2).extraBody(extra).stream(false).endpoint("/proxy/chat")
        .saveTextAs("answer").requestId("id-#{n}");
    RequestSpec spec = full.saveTextAs("answer").spec();
    assertEquals("/proxy/chat", spec.path());
    assertEquals("s", spec.systemPrompt());
    assertEquals(9, spec.maxTokens().resolve(session()));
    assertEquals(3, spec.promptTokens().resolve(session()));
    assertEquals(true, spec.ignoreEos());
    assertEquals(0.5, spec.temperature());
    assertEquals(0.5, spec.topP());
    assertEquals(5, spec.topK());
    assertEquals(0.1, spec.minP());
    assertEquals(0.1, spec.frequencyPenalty());
    assertEquals(0.2, spec.presencePenalty());
    assertEquals(1.2, spec.repetitionPenalty());
    assertEquals(extra, spec.extraBody());
    assertFalse(spec.stream());
    assertEquals("answer", spec.saveTextAs());
    assertEquals("id-4", spec.requestId().resolve(session("n", 4)));
    // the builder it started from is unchanged
    RequestSpec before = base.spec();
    assertEquals("/v1/chat/completions", before.path());
    assertNull(before.systemPrompt());
    assertTrue(before.stream());
    assertTrue(before.extraBody().isEmpty());
  }

  @Test
  void datasetAttributesFeedPromptLengthsAndBudget() {
    RequestSpec spec = completions().fromDataset().spec();
    Session s = session("prompt", "Tell me", "prompt_len", 2, "output_len", 64);
    assertEquals("Tell me", spec.prompt().resolve(s));
    assertEquals(2, spec.promptTokens().resolve(s));
    assertEquals(64, spec.maxTokens().resolve(s));
  }

  @Test
  void sessionValuesThatCannotBeResolvedSayWhich() {
    SessionValue.ResolutionException missing = assertThrows(SessionValue.ResolutionException.class,
        () -> completions().fromDataset().spec().prompt().resolve(session()));
    assertTrue(missing.getMessage().startsWith("prompt: "), missing.getMessage());
    assertTrue(missing.getMessage().contains("prompt"), missing.getMessage());
    SessionValue.ResolutionException nul = assertThrows(SessionValue.ResolutionException.class,
        () -> completions().maxTokens(s -> null).spec().maxTokens().resolve(session()));
    assertEquals("maxTokens: function returned null", nul.getMessage());
    assertEquals("prompt must not be null",
        rejected(() -> LlmRequestBuilder.completions("c").prompt((String) null)));
    assertEquals("promptTokens must not be null", rejected(() -> completions()
        .promptTokens((java.util.function.Function<io.gatling.javaapi.core.Session, Integer>) null)));
    assertEquals(7, completions().promptTokens(s -> 7).spec().promptTokens().resolve(session()));
    assertEquals(5, completions().promptTokens("#{n}").spec().promptTokens()
        .resolve(session("n", 5)));
    assertEquals("from fn", LlmRequestBuilder.completions("c").prompt(s -> "from fn").spec()
        .prompt().resolve(session()));
  }

  @Test
  void koMessagesAreClippedAt120Characters() {
    String exactly = "x".repeat(120);
    assertEquals(exactly, KoMessages.lowCardinality(exactly));
    assertEquals("y".repeat(120) + "…", KoMessages.lowCardinality("y".repeat(121)));
    assertEquals("failed", KoMessages.lowCardinality(null));
    // a status that is not followed by ": " keeps nothing back from the digit rule
    assertEquals("HTTP #", KoMessages.lowCardinality("HTTP 502"));
    assertEquals("connection closed mid-stream",
        KoMessages.lowCardinality("connection closed mid-stream"));
  }
}
