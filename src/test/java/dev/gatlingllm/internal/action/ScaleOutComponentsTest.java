package dev.gatlingllm.internal.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.internal.scale.InjectorFacts;
import dev.gatlingllm.internal.scale.InjectorShare;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A run's components on one injector of a scaled-out benchmark: its share, and only that. */
class ScaleOutComponentsTest {

  private static final ArrivalProfile PROFILE =
      ArrivalProfile.builder().numPrompts(10).requestRate(10).seed(5).build();

  @AfterEach
  void clear() {
    System.clearProperty("llm.injector");
    System.clearProperty("llm.clockOffset");
  }

  private static LlmProtocolBuilder protocol() {
    return new LlmProtocolBuilder().baseUrl("http://127.0.0.1:9").model("m").noWarmUp()
        .noServerMetrics().arrivals(PROFILE).maxConcurrency(5).requestIdPrefix("bench-")
        .results(ResultOptions.builder().saveResult(false).printSummary(false));
  }

  private static ActionHarness injector(String kOfN) {
    System.setProperty("llm.injector", kOfN);
    System.setProperty("llm.clockOffset", "local");
    return new ActionHarness(protocol().protocol());
  }

  @Test
  void injectorOneOfThreeSendsRequestsOneFourSevenAtTheirTimesWithTwoOfFivePermits()
      throws Exception {
    ArrivalSchedule full = ArrivalSchedule.compute(PROFILE);
    try (ActionHarness h = injector("1/3")) {
      assertEquals(new InjectorShare(1, 3), h.run.setup().share());
      ArrivalSchedule mine = h.run.pacing().arrivalClock().orElseThrow().schedule();
      assertEquals(3, mine.size());
      for (int j = 0; j < 3; j++) {
        assertEquals(full.offsetNanos(1 + 3 * j), mine.offsetNanos(j));
      }
      List<String> ids = new ArrayList<>();
      for (int j = 0; j < 3; j++) {
        ids.add(h.run.requests().headers(null).get("x-request-id"));
      }
      assertEquals(List.of("bench-1", "bench-4", "bench-7"), ids);
      // a paced request is named by its arrival slot, whatever the send order
      assertEquals("bench-7", h.run.requests().headers(null, 7).get("x-request-id"));
      assertEquals("mine", h.run.requests().headers("mine", 7).get("x-request-id"));
      // 5 permits over 3 injectors: 2, 2, 1
      AtomicInteger granted = new AtomicInteger();
      h.loop.submit(() -> {
        for (int i = 0; i < 3; i++) {
          h.run.pacing().limiter().acquire(h.loop, granted::incrementAndGet);
        }
      }).sync();
      assertEquals(2, granted.get());
      assertFalse(h.run.pacing().limiter().hasFreePermit());
      // the result says what the benchmark was, and which part of it this was
      assertEquals(5, h.run.runInfo().maxConcurrency());
      assertEquals(10, h.run.runInfo().numPrompts());
      InjectorFacts facts = InjectorFacts.fromJson(
          (Map<?, ?>) h.run.runInfo().extras().get("injector"));
      assertEquals(new InjectorShare(1, 3), facts.share());
      assertEquals("local", facts.clock().source());
      assertEquals(64, facts.settingsHash().length());
    }
  }

  @Test
  void theSettingsHashIsTheBenchmarksNotTheInjectors() {
    String one;
    String two;
    String otherCount;
    try (ActionHarness h = injector("0/3")) {
      one = hash(h);
    }
    try (ActionHarness h = injector("2/3")) {
      two = hash(h);
    }
    try (ActionHarness h = injector("0/2")) {
      otherCount = hash(h);
    }
    assertEquals(one, two);
    assertNotEquals(one, otherCount);
  }

  @Test
  void withoutScaleOutNothingChanges() {
    try (ActionHarness h = new ActionHarness(protocol().protocol())) {
      assertEquals(InjectorShare.WHOLE, h.run.setup().share());
      assertEquals(10, h.run.pacing().arrivalClock().orElseThrow().size());
      assertFalse(h.run.runInfo().extras().containsKey("injector"));
      assertEquals("bench-0", h.run.requests().headers(null).get("x-request-id"));
    }
  }

  @Test
  void scaleOutNeedsAnArrivalProfileAndEnoughPermits() {
    System.setProperty("llm.injector", "0/3");
    System.setProperty("llm.clockOffset", "local");
    IllegalArgumentException noProfile = assertThrows(IllegalArgumentException.class,
        () -> new ActionHarness(new LlmProtocolBuilder().baseUrl("http://127.0.0.1:9").model("m")
            .noWarmUp().noServerMetrics().protocol()));
    assertTrue(noProfile.getMessage().contains("llm().arrivals(profile)"),
        noProfile.getMessage());
    IllegalArgumentException permits = assertThrows(IllegalArgumentException.class,
        () -> new ActionHarness(protocol().maxConcurrency(2).protocol()));
    assertTrue(permits.getMessage().contains("max concurrency 2 cannot be split over 3"),
        permits.getMessage());
  }

  private static String hash(ActionHarness h) {
    return InjectorFacts.fromJson((Map<?, ?>) h.run.runInfo().extras().get("injector"))
        .settingsHash();
  }
}
