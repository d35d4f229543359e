package dev.gatlingllm.internal.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.internal.client.CannedHttpServer;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.protocol.LlmProtocol;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import io.gatling.commons.stats.KO$;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.session.TryMaxBlock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The request action's rows against responses that take time (a pause inside the stream, a
 * late error), the goodput row's output length when the server sends no usage, permits given
 * back, a user leaving a failed tryMax block, and a crash after the response.
 */
class RequestActionTimingAndLimitsTest {

  private static final String FIRST = "data: {\"choices\":[{\"index\":0,\"text\":\"Hel\"}]}\n\n";

  private static String rest(int completionTokens) {
    return "data: {\"choices\":[{\"index\":0,\"text\":\"lo\"}]}\n\n"
        + "data: {\"choices\":[{\"index\":0,\"text\":\"!\"}]}\n\n"
        + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":"
        + completionTokens + "}}\n\ndata: [DONE]\n\n";
  }

  private static LlmProtocolBuilder base(String baseUrl, String goodput) {
    ResultOptions.Builder results = ResultOptions.builder().saveResult(false).printSummary(false);
    if (goodput != null) {
      results = results.goodput(goodput);
    }
    return new LlmProtocolBuilder().baseUrl(baseUrl).model("m").noWarmUp().noServerMetrics()
        .results(results);
  }

  private static Action gen(ActionHarness h) {
    return LlmRequestBuilder.completions("gen").prompt("p").asScala().build(h.ctx, h.next);
  }

  private static RequestRecord onlyRecord(ActionHarness h) {
    assertEquals(1, h.run.requests().store().snapshot().size());
    return h.run.requests().store().snapshot().record(0);
  }

  @Test
  void rowsLastAsLongAsTheRequestInWholeMilliseconds() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streamingWithPause(FIRST, 100, rest(10));
         ActionHarness h = new ActionHarness(base(server.baseUrl(), null).protocol())) {
      h.execute(gen(h), h.session());
      h.awaitPassedOn();
      RequestRecord r = onlyRecord(h);
      assertTrue(r.latencyNanos() >= 100_000_000L, "the pause is inside the latency");
      ActionHarness.Row row = h.rows("gen").get(0);
      ActionHarness.Row ttft = h.rows("gen TTFT").get(0);
      assertEquals(Math.round(r.latencyNanos() / 1e6), row.endMillis() - row.startMillis());
      assertEquals(Math.round(r.ttftNanos() / 1e6), ttft.endMillis() - ttft.startMillis());
      assertTrue(ttft.endMillis() < row.endMillis(), "first token came before the pause");
    }
  }

  @Test
  void aFailedRowLastsUntilTheFailure() throws Exception {
    String body = "{\"message\":\"overloaded\"}";
    String response = "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
        + "content-length: " + body.length() + "\r\n\r\n" + body;
    try (CannedHttpServer server = CannedHttpServer.delayed(response, 100);
         ActionHarness h = new ActionHarness(base(server.baseUrl(), null).protocol())) {
      h.execute(gen(h), h.session());
      assertTrue(h.awaitPassedOn().isFailed());
      RequestRecord r = onlyRecord(h);
      ActionHarness.Row row = h.rows("gen").get(0);
      assertEquals(Math.round((r.endNanos() - r.startNanos()) / 1e6),
          row.endMillis() - row.startMillis());
      assertTrue(row.endMillis() - row.startMillis() >= 99, "the 100 ms wait is in the row");
    }
  }

  @Test
  void goodputUsesTheServersTokenCountWhenItSendsOne() throws Exception {
    // 10 tokens over ~200 ms after the first: TPOT ~22 ms, within 60 ms (up to a 540 ms
    // pause on a loaded machine). Counting the 3 chunks instead gives ~100 ms: missed.
    try (CannedHttpServer server = CannedHttpServer.streamingWithPause(FIRST, 200, rest(10));
         ActionHarness h = new ActionHarness(base(server.baseUrl(), "tpot:60").protocol())) {
      h.execute(gen(h), h.session());
      h.awaitPassedOn();
      assertEquals("OK", h.rows("gen goodput").get(0).status());
    }
  }

  @Test
  void goodputCountsContentChunksWhenUsageSaysZero() throws Exception {
    // usage 0 means "not counted": the 3 content chunks stand in, TPOT ~100 ms > 60 ms.
    try (CannedHttpServer server = CannedHttpServer.streamingWithPause(FIRST, 200, rest(0));
         ActionHarness h = new ActionHarness(base(server.baseUrl(), "tpot:60").protocol())) {
      h.execute(gen(h), h.session());
      h.awaitPassedOn();
      ActionHarness.Row goodput = h.rows("gen goodput").get(0);
      assertEquals("KO", goodput.status());
      assertEquals("SLO missed", goodput.message());
    }
  }

  @Test
  void eachFinishedRequestGivesItsPermitBack() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(FIRST + rest(3));
         ActionHarness h = new ActionHarness(base(server.baseUrl(), null).maxConcurrency(1)
             .protocol())) {
      Action a = gen(h);
      for (int i = 0; i < 3; i++) {
        h.execute(a, h.session());
        assertFalse(h.awaitPassedOn().isFailed(), "request " + i + " got the single permit");
      }
      assertEquals(3, server.received().size());
    }
  }

  @Test
  void aUserLeavingAFailedTryMaxBlockSkipsTheRequest() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(FIRST + rest(3));
         ActionHarness h = new ActionHarness(base(server.baseUrl(), null).protocol())) {
      Session inFailedTry = h.session().enterTryMax("try", h.next).markAsFailed();
      assertTrue(inFailedTry.blockStack().head() instanceof TryMaxBlock);
      h.execute(gen(h), inFailedTry);
      Session out = h.awaitPassedOn();
      assertNotNull(out);
      assertEquals(0, server.received().size(), "nothing was sent");
      assertEquals(List.of(), h.rows, "nothing was logged");
    }
  }

  @Test
  void aCrashAfterTheResponseStillPassesTheUserOnFailed() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streaming(FIRST + rest(3));
         ActionHarness h = new ActionHarness(base(server.baseUrl(), null).maxConcurrency(1)
             .protocol())) {
      Action a = gen(h);
      h.run.requests().store().close(); // storing the record now throws
      h.execute(a, h.session());
      assertTrue(h.awaitPassedOn().isFailed());
      ActionHarness.Row crash = h.rows("gen").get(0);
      assertTrue(crash.crash());
      assertEquals("crashed: IllegalStateException", crash.message());
      // the permit was given back before the crash: the next user is not stuck
      h.execute(a, h.session());
      assertTrue(h.awaitPassedOn().isFailed());
    }
  }

  @Test
  void aChatOnlyRunIsReportedAsTheChatEndpoint() {
    try (ActionHarness h = new ActionHarness(base("http://127.0.0.1:9", null).protocol())) {
      LlmRequestBuilder.chat("c").prompt("p").asScala().build(h.ctx, h.next);
      assertEquals("openai-chat", h.run.runInfo().endpointType());
    }
  }

  @Test
  void theScalaBuilderCanStartAChain() {
    assertNotNull(LlmRequestBuilder.completions("c").prompt("p").asScala().toChainBuilder());
  }
}
