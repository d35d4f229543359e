package dev.gatlingllm.internal.action;

import static dev.gatlingllm.LlmDsl.messages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.StrictServer;
import io.gatling.core.action.Action;
import java.time.Duration;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Test;

/**
 * {@code messages(name)} over the wire against the strict simulator ({@code served-llm}, three
 * reasoning tokens): the thinking deltas count for TTFT and ITL and as reasoning chunks, the
 * first text delta sets TTFC, the counts are the stream's usage; a model the server does not
 * serve fails the request with the Messages API's 404 message.
 */
@Timeout(60)
class MessagesStreamTest {

  private static final int REASONING = 3;
  private static final int MAX_TOKENS = 6;

  private static ActionHarness harness(Simulator sim) {
    return new ActionHarness(new LlmProtocolBuilder().baseUrl(sim.baseUrl())
        .noServerMetrics().model(StrictServer.MODEL).noWarmUp()
        .results(ResultOptions.builder().saveResult(false).printSummary(false)).protocol());
  }

  @Test
  void thinkingIsReasoningAndTheFirstTextDeltaSetsTtfc() throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(5)).reasoningTokens(REASONING).build());
         ActionHarness h = harness(sim)) {
      // "one two three four" and the system prompt's "be brief": 6 prompt tokens
      Action action = messages("think").prompt("one two three four").systemPrompt("be brief")
          .maxTokens(MAX_TOKENS).asScala().build(h.ctx, h.next);
      h.execute(action, h.session());
      h.awaitPassedOn();
      RequestRecord r = h.run.requests().store().snapshot().record(0);
      assertTrue(r.success(), r.error());
      assertEquals(MAX_TOKENS, r.outputTokens());
      assertEquals(6, r.usagePromptTokens());
      assertEquals(REASONING, r.reasoningChunks());
      // one chunk per token: every delta is timed, thinking or text
      int[] chunks = r.chunkMicros();
      assertEquals(MAX_TOKENS, chunks.length, java.util.Arrays.toString(chunks));
      assertEquals(chunks[0], r.ttftNanos() / 1000);
      // TTFC is exactly the arrival of the first text delta, after the thinking ones
      assertEquals(chunks[REASONING], r.ttfcNanos() / 1000, java.util.Arrays.toString(chunks));
      StringBuilder answer = new StringBuilder();
      for (int i = REASONING; i < MAX_TOKENS; i++) {
        answer.append(SimTokens.token(i));
      }
      assertEquals(answer.toString(), h.run.requests().store().snapshot().text(0));
    }
  }

  @Test
  void aModelTheServerDoesNotServeFailsWithItsMessage() throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(1))
        .itl(Duration.ZERO).build());
         ActionHarness h = harness(sim)) {
      Action action = messages("other").prompt("x").maxTokens(2).model("claude-sonnet")
          .asScala().build(h.ctx, h.next);
      h.execute(action, h.session());
      h.awaitPassedOn();
      RequestRecord r = h.run.requests().store().snapshot().record(0);
      assertFalse(r.success());
      assertEquals(404, r.httpStatus());
      assertEquals("HTTP 404: The model `claude-sonnet` does not exist.", r.error());
    }
  }
}
