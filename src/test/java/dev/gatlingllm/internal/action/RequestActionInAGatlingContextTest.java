package dev.gatlingllm.internal.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.internal.client.CannedHttpServer;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.protocol.LlmProtocol;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The request action inside a minimal Gatling context ({@link ActionHarness}) against a
 * loopback server that answers with canned bytes: what it logs to Gatling's stats, what it
 * stores, what it sends, and how it passes the user on, for success, failure and requests
 * that cannot even be built.
 */
class RequestActionInAGatlingContextTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Three content chunks of one token each, then usage. */
  private static final String SSE = "data: {\"choices\":[{\"index\":0,\"text\":\"Hel\"}]}\n\n"
      + "data: {\"choices\":[{\"index\":0,\"text\":\"lo\"}]}\n\n"
      + "data: {\"choices\":[{\"index\":0,\"text\":\"!\"}]}\n\n"
      + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":3}}\n\n"
      + "data: [DONE]\n\n";

  private static LlmProtocol protocol(String baseUrl, String goodput) {
    ResultOptions.Builder results = ResultOptions.builder().saveResult(false).printSummary(false);
    if (goodput != null) {
      results = results.goodput(goodput);
    }
    return new LlmProtocolBuilder().baseUrl(baseUrl).model("org/served-model").noWarmUp()
        .noServerMetrics()
        .requestIdPrefix("req-").results(results).protocol();
  }

  private static Action action(ActionHarness h, LlmRequestBuilder builder) {
    return builder.asScala().build(h.ctx, h.next);
  }

  @Test
  void aCompletedRequestLogsItsLatencyAndTtftRowsAndPassesTheUserOn() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         ActionHarness h = new ActionHarness(protocol(server.baseUrl(), null))) {
      Action a = action(h, LlmRequestBuilder.completions("gen").prompt("#{q}").maxTokens(8)
          .promptTokens(11).saveTextAs("answer"));
      h.execute(a, h.session("q", "Say hello", LlmRequestAction.SCHEDULED_NANOS_ATTRIBUTE, 42L));
      Session next = h.awaitPassedOn();

      assertFalse(next.isFailed());
      assertEquals("Hello!", next.attributes().get("answer").get());
      assertTrue(next.attributes().get(LlmRequestAction.SCHEDULED_NANOS_ATTRIBUTE).isEmpty(),
          "the scheduled time belongs to this request only");
      ActionHarness.Row row = h.rows("gen").get(0);
      assertEquals("OK", row.status());
      assertEquals("200", row.code());
      assertNull(row.message());
      assertTrue(row.endMillis() >= row.startMillis());
      ActionHarness.Row ttft = h.rows("gen TTFT").get(0);
      assertEquals("OK", ttft.status());
      assertEquals(row.startMillis(), ttft.startMillis());
      assertTrue(ttft.endMillis() <= row.endMillis());
      assertEquals(List.of(), h.rows("gen goodput"), "no SLOs, no goodput row");

      RecordSource records = h.run.requests().store().snapshot();
      assertEquals(1, records.size());
      RequestRecord r = records.record(0);
      assertEquals(42L, r.scheduledNanos(), "the pacer's time is kept beside the send time");
      assertEquals(11, r.promptTokens());
      assertEquals(3, r.outputTokens());
      assertTrue(h.run.benchmarkStartNanos() >= 0, "the send was marked");

      CannedHttpServer.Received got = server.received().get(0);
      assertEquals("/v1/completions", got.uri());
      assertEquals("req-0", got.headers().get("x-request-id"));
      JsonNode body = JSON.readTree(got.body());
      assertEquals("org/served-model", body.get("model").asText());
      assertEquals("Say hello", body.get("prompt").asText());
      assertEquals(8, body.get("max_tokens").asInt());
    }
  }

  @Test
  void aChatPromptBecomesASystemAndAUserMessage() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         ActionHarness h = new ActionHarness(protocol(server.baseUrl(), null))) {
      h.execute(action(h, LlmRequestBuilder.chat("c").systemPrompt("Be terse.").prompt("Hi")),
          h.session());
      h.awaitPassedOn();
      JsonNode body = JSON.readTree(server.received().get(0).body());
      assertEquals(JSON.readTree("[{\"role\":\"system\",\"content\":\"Be terse.\"},"
          + "{\"role\":\"user\",\"content\":\"Hi\"}]"), body.get("messages"));
      assertEquals("/v1/chat/completions", server.received().get(0).uri());
    }
  }

  @Test
  void aChatWithMessagesSendsThemAsGivenAndANamedRequestId() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         ActionHarness h = new ActionHarness(protocol(server.baseUrl(), null))) {
      h.execute(action(h, LlmRequestBuilder.chat("c").requestId("conv-#{id}")
          .messages(s -> List.of(Map.of("role", "user", "content", "again")))), h.session("id", 7));
      h.awaitPassedOn();
      CannedHttpServer.Received got = server.received().get(0);
      assertEquals("conv-7", got.headers().get("x-request-id"));
      assertEquals("again", JSON.readTree(got.body()).get("messages").get(0).get("content")
          .asText());
    }
  }

  @Test
  void aFailedRequestIsKoWithALowCardinalityMessageAndFailsTheUser() throws Exception {
    String body = "{\"object\":\"error\",\"message\":\"context is 2048 tokens, got 4000\"}";
    String response = "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
        + "content-length: " + body.length() + "\r\n\r\n" + body;
    try (CannedHttpServer server = CannedHttpServer.raw(response, false);
         ActionHarness h = new ActionHarness(protocol(server.baseUrl(), "ttft:1000"))) {
      h.execute(action(h, LlmRequestBuilder.completions("gen").prompt("p").saveTextAs("t")),
          h.session());
      Session next = h.awaitPassedOn();
      assertTrue(next.isFailed());
      assertEquals("", next.attributes().get("t").get(), "no text came back");
      ActionHarness.Row row = h.rows("gen").get(0);
      assertEquals("KO", row.status());
      assertEquals("400", row.code());
      assertEquals("HTTP 400: context is # tokens, got #", row.message());
      assertEquals(List.of(), h.rows("gen TTFT"), "no first token, no TTFT row");
      ActionHarness.Row goodput = h.rows("gen goodput").get(0);
      assertEquals("KO", goodput.status());
      assertEquals("request failed", goodput.message());
      assertEquals(1, h.run.requests().store().snapshot().size(), "failures are recorded too");
    }
  }

  @Test
  void aRequestWithinItsSlosIsAGoodGoodputRow() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         ActionHarness h = new ActionHarness(protocol(server.baseUrl(), "ttft:60000 e2el:60000"))) {
      h.execute(action(h, LlmRequestBuilder.completions("gen").prompt("p")), h.session());
      h.awaitPassedOn();
      ActionHarness.Row goodput = h.rows("gen goodput").get(0);
      assertEquals("OK", goodput.status());
      assertNull(goodput.message());
      assertEquals(h.rows("gen").get(0).endMillis(), goodput.endMillis());
    }
  }

  @Test
  void aRequestOutsideItsSlosIsAMissedGoodputRow() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         ActionHarness h = new ActionHarness(protocol(server.baseUrl(), "e2el:0"))) {
      h.execute(action(h, LlmRequestBuilder.completions("gen").prompt("p")), h.session());
      h.awaitPassedOn();
      ActionHarness.Row goodput = h.rows("gen goodput").get(0);
      assertEquals("KO", goodput.status());
      assertEquals("SLO missed", goodput.message());
      assertEquals("OK", h.rows("gen").get(0).status(), "the request itself succeeded");
    }
  }

  @Test
  void anUnresolvableSessionValueFailsBeforeSendingAndPassesTheUserOn() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         ActionHarness h = new ActionHarness(protocol(server.baseUrl(), null))) {
      h.execute(action(h, LlmRequestBuilder.completions("gen").prompt("#{missing}")),
          h.session());
      Session next = h.awaitPassedOn();
      assertTrue(next.isFailed());
      // A failed request, not a bare crash line: assertions and the result JSON count it.
      ActionHarness.Row row = h.rows("gen").get(0);
      assertFalse(row.crash());
      assertEquals("KO", row.status());
      assertTrue(row.message().startsWith("prompt: "), row.message());
      assertTrue(row.message().contains("missing"), row.message());
      assertEquals(0, server.received().size(), "nothing was sent");
      RequestRecord record = h.run.requests().store().snapshot().record(0);
      assertFalse(record.success());
      assertTrue(record.error().contains("missing"), record.error());
      assertEquals(-1, record.ttftNanos(), "no token ever came");
    }
  }

  @Test
  void aMaxTokensBelowOneFromTheSessionFailsBeforeSending() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         ActionHarness h = new ActionHarness(protocol(server.baseUrl(), null))) {
      h.execute(action(h, LlmRequestBuilder.completions("gen").prompt("p").maxTokens("#{n}")),
          h.session("n", 0));
      assertTrue(h.awaitPassedOn().isFailed());
      // Gatling's errors table gets the digits folded; the record keeps the whole message.
      assertEquals("maxTokens must be >= #, got #", h.rows("gen").get(0).message());
      assertEquals("KO", h.rows("gen").get(0).status());
      assertEquals("maxTokens must be >= 1, got 0",
          h.run.requests().store().snapshot().record(0).error());
      h.execute(action(h, LlmRequestBuilder.completions("ok").prompt("p").maxTokens("#{n}")),
          h.session("n", 1));
      assertFalse(h.awaitPassedOn().isFailed(), "1 is a valid maximum");
    }
  }

  @Test
  void aCrashInsideTheRequestFailsTheUserWithTheExceptionKind() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         ActionHarness h = new ActionHarness(protocol(server.baseUrl(), null))) {
      h.execute(action(h, LlmRequestBuilder.completions("gen").prompt(s -> {
        throw new IllegalStateException("bug in the user's function");
      })), h.session());
      assertTrue(h.awaitPassedOn().isFailed());
      ActionHarness.Row row = h.rows("gen").get(0);
      assertEquals("KO", row.status());
      assertEquals("crashed: IllegalStateException", row.message());
      assertEquals("crashed: IllegalStateException",
          h.run.requests().store().snapshot().record(0).error());
    }
  }

  @Test
  void requestIdsCountUpAcrossTheRun() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(SSE);
         ActionHarness h = new ActionHarness(protocol(server.baseUrl(), null))) {
      Action a = action(h, LlmRequestBuilder.completions("gen").prompt("p"));
      for (int i = 0; i < 3; i++) {
        h.execute(a, h.session());
        h.awaitPassedOn();
      }
      assertEquals(List.of("req-0", "req-1", "req-2"), server.received().stream()
          .map(r -> r.headers().get("x-request-id")).toList());
      assertEquals("gen", a.name());
    }
  }
}
