package dev.gatlingllm.internal.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.arrival.ArrivalTrace;
import dev.gatlingllm.internal.client.CannedHttpServer;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.protocol.LlmProtocol;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The pacing action inside a minimal Gatling context: each user takes the next slot and goes
 * on at its time with that time in the session; users beyond the schedule go on unpaced, with
 * one warning for the run.
 */
class ArrivalActionInAGatlingContextTest {

  private static LlmProtocol paced(ArrivalProfile profile) {
    // Nothing is sent: the base URL only has to parse.
    return new LlmProtocolBuilder().baseUrl("http://127.0.0.1:9").model("m").arrivals(profile)
        .protocol();
  }

  @Test
  void eachUserGoesOnAtItsSlotWithTheSlotTimeInItsSession() throws Exception {
    // Slots at 0, 150 and 300 ms after the first claim.
    ArrivalProfile profile = ArrivalProfile.builder()
        .replay(ArrivalTrace.ofSeconds(0, 0.15, 0.3)).build();
    try (ActionHarness h = new ActionHarness(paced(profile))) {
      Action await = LlmActions.awaitArrival().asScala().build(h.ctx, h.next);
      assertEquals("awaitArrival", await.name());
      for (int i = 0; i < 3; i++) {
        h.execute(await, h.session());
      }
      long[] due = new long[3];
      for (int i = 0; i < 3; i++) {
        Session s = h.awaitPassedOn();
        due[i] = (Long) s.attributes().get(LlmRequestAction.SCHEDULED_NANOS_ATTRIBUTE).get();
        // let go a moment early, to build its request; the send itself waits for the slot
        assertTrue(System.nanoTime() >= due[i] - LlmRequestAction.PREPARE_LEAD_NANOS,
            "never released before its slot less the build lead");
      }
      long start = h.run.pacing().arrivalClock().orElseThrow().startNanos();
      assertEquals(start, due[0]);
      assertEquals(start + 150_000_000L, due[1]);
      assertEquals(start + 300_000_000L, due[2]);
    }
  }

  @Test
  void usersBeyondTheScheduleGoOnUnpacedWithOneWarning() throws Exception {
    ArrivalProfile profile = ArrivalProfile.builder().replay(ArrivalTrace.ofSeconds(0)).build();
    Logger logger = (Logger) LoggerFactory.getLogger(ArrivalGate.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try (ActionHarness h = new ActionHarness(paced(profile))) {
      Action await = LlmActions.awaitArrival().asScala().build(h.ctx, h.next);
      h.execute(await, h.session());
      assertTrue(h.awaitPassedOn().attributes()
          .contains(LlmRequestAction.SCHEDULED_NANOS_ATTRIBUTE));
      for (int i = 0; i < 3; i++) {
        h.execute(await, h.session());
        Session extra = h.awaitPassedOn();
        assertFalse(extra.attributes().contains(LlmRequestAction.SCHEDULED_NANOS_ATTRIBUTE));
        assertFalse(extra.isFailed());
      }
      assertEquals(1, appender.list.stream().filter(e -> e.getLevel() == Level.WARN
          && e.getFormattedMessage().equals(
              "more users than the 1 arrival slots: the extra ones go on unpaced")).count(),
          appender.list.toString());
    } finally {
      logger.detachAppender(appender);
    }
  }

  @Test
  void awaitingWithoutAnArrivalProfileIsABuildError() {
    LlmProtocol unpaced = new LlmProtocolBuilder().baseUrl("http://127.0.0.1:9").model("m")
        .protocol();
    try (ActionHarness h = new ActionHarness(unpaced)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> LlmActions.awaitArrival().asScala().build(h.ctx, h.next));
      assertEquals("awaitArrival() needs an arrival profile: give the protocol one, "
          + "llm().arrivals(profile), or remove awaitArrival()", e.getMessage());
    }
  }

  @Test
  void aUserThatDidNotAwaitTakesItsSlotAtItsFirstRequestAndOnlyThere() throws Exception {
    // Slots at 0 and 200 ms after the first claim.
    ArrivalProfile profile = ArrivalProfile.builder()
        .replay(ArrivalTrace.ofSeconds(0, 0.2)).build();
    String sse = "data: {\"choices\":[{\"index\":0,\"text\":\"Hi\"}]}\n\n"
        + "data: [DONE]\n\n";
    try (CannedHttpServer server = CannedHttpServer.streaming(sse);
         ActionHarness h = new ActionHarness(new LlmProtocolBuilder().baseUrl(server.baseUrl())
             .model("m").noWarmUp().noServerMetrics().arrivals(profile).protocol())) {
      Action request = LlmRequestBuilder.completions("gen").prompt("p").maxTokens(4)
          .asScala().build(h.ctx, h.next);
      h.execute(request, h.session());
      h.execute(request, h.session());
      Session first = h.awaitPassedOn();
      Session second = h.awaitPassedOn();
      // The journey's next request is not held again: the user has arrived.
      h.execute(request, first);
      h.awaitPassedOn();
      long start = h.run.pacing().arrivalClock().orElseThrow().startNanos();
      List<Long> slots = new ArrayList<>();
      int unpaced = 0;
      for (int i = 0; i < 3; i++) {
        RequestRecord r = h.run.requests().store().snapshot().record(i);
        assertTrue(r.startNanos() >= r.scheduledNanos(), "sent at its slot, never before");
        if (r.scheduledNanos() == r.startNanos()) {
          unpaced++;   // a request without a slot records its send time as scheduled
        } else {
          slots.add(r.scheduledNanos());
        }
      }
      assertEquals(List.of(start, start + 200_000_000L), slots.stream().sorted().toList(),
          "each user's first request took the next slot");
      assertEquals(1, unpaced, "the journey's next request took none");
      assertEquals(2, h.run.pacing().arrivalClock().orElseThrow().claimed(), "no third slot");
      assertFalse(second.isFailed());
    }
  }
}
