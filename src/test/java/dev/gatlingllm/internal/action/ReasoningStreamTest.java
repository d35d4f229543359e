package dev.gatlingllm.internal.action;

import static dev.gatlingllm.LlmDsl.chat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.testing.Disturbance;
import io.gatling.core.action.Action;
import java.time.Duration;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A reasoning model over the wire: its reasoning chunks count for TTFT and ITL (as vLLM
 * counts every chunk with choices), and TTFC is when the answer began, which the simulator's
 * schedule fixes: {@code reasoningTokens} ITLs after the first chunk.
 */
@Timeout(60)
class ReasoningStreamTest {

  private static final int REASONING = 4;
  private static final int MAX_TOKENS = 7;
  private static final long ITL_MS = 25;

  @ParameterizedTest
  @ValueSource(strings = {"reasoning_content", "reasoning"})
  void reasoningChunksSetTtftAndTheAnswerSetsTtfc(String field) throws Exception {
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(ITL_MS)).reasoningTokens(REASONING).reasoningField(field).build());
         ActionHarness h = new ActionHarness(new LlmProtocolBuilder().baseUrl(sim.baseUrl()).noServerMetrics()
             .model("sim-model").noWarmUp()
             .results(ResultOptions.builder().saveResult(false).printSummary(false))
             .protocol())) {
      Action action = chat("think").prompt("why").maxTokens(MAX_TOKENS).asScala()
          .build(h.ctx, h.next);
      // the first request of a JVM reads its first chunk late (class loading); time the second
      h.execute(action, h.session());
      h.awaitPassedOn();
      Disturbance disturbance = Disturbance.start();
      h.execute(action, h.session());
      h.awaitPassedOn();
      double waitedMs = disturbance.waitedMs();
      RequestRecord r = h.run.requests().store().snapshot().record(1);
      assertTrue(r.success(), r.error());
      assertEquals(REASONING, r.reasoningChunks());
      // the role chunk and the first reasoning chunk go out together; then one per token
      assertEquals(MAX_TOKENS, r.itlCount(), "every chunk with choices is timed");
      // TTFC is exactly the arrival of the first answer chunk: after the role chunk and the
      // REASONING reasoning chunks.
      int[] chunks = r.chunkMicros();
      assertEquals(chunks[1 + REASONING], r.ttfcNanos() / 1000, java.util.Arrays.toString(chunks));
      // ... which the server sent REASONING ITLs after the first one. Its schedule is absolute,
      // so a late first chunk shortens the gap: a wide lower bound. On a busy machine either
      // chunk can be late by as long as the server's and the client's threads waited for a
      // CPU meanwhile, which is measured: both bounds widen by that, and by nothing more.
      double answerAfterMs = (r.ttfcNanos() - r.ttftNanos()) / 1e6;
      double expected = REASONING * ITL_MS;
      assertTrue(answerAfterMs >= expected - ITL_MS - waitedMs
              && answerAfterMs <= expected + 40 + waitedMs,
          "TTFC - TTFT = " + answerAfterMs + " ms, the server waited " + expected + " ms; "
              + "threads waited " + waitedMs + " ms for a CPU; "
              + java.util.Arrays.toString(chunks));
      // the answer text leaves the thinking out, as vLLM's generated_text does
      StringBuilder answer = new StringBuilder();
      for (int i = REASONING; i < MAX_TOKENS; i++) {
        answer.append(SimTokens.token(i));
      }
      assertEquals(answer.toString(), h.run.requests().store().snapshot().text(1));
    }
  }
}
