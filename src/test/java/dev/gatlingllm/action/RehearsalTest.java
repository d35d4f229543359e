package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.action.ActionHarness;
import dev.gatlingllm.internal.action.ConversationTemplate;
import dev.gatlingllm.internal.action.GenerationTemplate;
import dev.gatlingllm.internal.action.Rehearsal;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.testing.StrictServer;
import io.gatling.commons.util.DefaultClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The warm-up's rehearsal sends real requests through copies of the run's actions and leaves
 * nothing of the run's behind: its records, statistics, limiter and arrival clock are its own.
 */
@Timeout(60)
class RehearsalTest {

  private static LlmProtocolBuilder protocol(Simulator sim) {
    return new LlmProtocolBuilder().baseUrl(sim.baseUrl()).model("sim-model").noWarmUp()
        .noServerMetrics().maxConcurrency(3)
        .arrivals(ArrivalProfile.builder().numPrompts(10).requestRate(50).maxConcurrency(3)
            .build());
  }

  private static Simulator simulator() {
    return Simulator.start(SimulatorConfig.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1)).recordRequests(true).build());
  }

  @Test
  void datasetShapedRequestsGoThroughTheActionsAndLeaveTheRunUntouched() {
    try (Simulator sim = simulator();
         ActionHarness h = new ActionHarness(protocol(sim).protocol())) {
      GenerationTemplate template = new GenerationTemplate(
          LlmRequestBuilder.completions("gen").fromDataset().spec());
      int failed = Rehearsal.run(template, h.run, new DefaultClock(), 8);
      assertEquals(0, failed);
      List<RecordedRequest> got = StrictServer.runRequests(sim);
      assertEquals(IntStream.range(0, 8).mapToObj(i -> "warmup-action-" + i).sorted().toList(),
          got.stream().map(r -> r.header("x-request-id")).sorted().toList());
      String body = new String(got.get(0).body(), StandardCharsets.UTF_8);
      assertTrue(body.contains("Rehearsal before the run"), body);
      assertTrue(body.contains("\"max_tokens\":64"), "the warm-up's max_tokens: " + body);
      // Nothing of the run's: no record, no statistics row, no send, all permits, no slot.
      assertEquals(0, h.run.requests().store().snapshot().size());
      assertEquals(List.of(), h.rows);
      assertEquals(-1, h.run.benchmarkStartNanos());
      assertTrue(h.run.pacing().limiter().hasFreePermit());
      assertEquals(0, h.run.pacing().arrivalClock().orElseThrow().claimed());
    }
  }

  @Test
  void aConversationsTurnIsRehearsedAsAOneTurnConversation() {
    // It read a conversation state no rehearsal session had: every request failed to build
    // and the warm-up said so on every multi-turn run.
    try (Simulator sim = simulator();
         ActionHarness h = new ActionHarness(protocol(sim).protocol())) {
      ConversationTemplate template =
          new ConversationTemplate(LlmRequestBuilder.chat("conv").conversationSpec());
      assertEquals(0, Rehearsal.run(template, h.run, new DefaultClock(), 4));
      List<RecordedRequest> got = StrictServer.runRequests(sim);
      assertEquals(List.of("rehearsal-0", "rehearsal-1", "rehearsal-2", "rehearsal-3"),
          got.stream().map(r -> r.header("x-session-id")).sorted().toList());
      String body = new String(got.get(0).body(), StandardCharsets.UTF_8);
      assertTrue(body.contains("\"role\":\"user\"") && body.contains("Rehearsal before the run"),
          body);
      assertTrue(got.stream().allMatch(r -> r.path().equals("/v1/chat/completions")));
      assertEquals(0, h.run.requests().store().snapshot().size());
      assertEquals(List.of(), h.rows);
    }
  }

  @Test
  void aTemplateReadingAttributesOfItsOwnFailsQuietly() {
    try (Simulator sim = simulator();
         ActionHarness h = new ActionHarness(protocol(sim).protocol())) {
      GenerationTemplate template = new GenerationTemplate(
          LlmRequestBuilder.completions("gen").prompt("#{question}").spec());
      assertEquals(5, Rehearsal.run(template, h.run, new DefaultClock(), 5),
          "every request fails to build, and each user still ends");
      assertEquals(0, sim.requestsReceived());
      assertEquals(0, h.run.requests().store().snapshot().size());
      assertEquals(List.of(), h.rows);
      // A function of the user's that throws on the missing attribute: the same quiet end.
      GenerationTemplate function = new GenerationTemplate(LlmRequestBuilder.completions("gen")
          .prompt("p").maxTokens(s -> s.getInt("my_len")).spec());
      assertEquals(4, Rehearsal.run(function, h.run, new DefaultClock(), 4));
      assertEquals(0, sim.requestsReceived());
      assertEquals(List.of(), h.rows);
    }
  }
}
