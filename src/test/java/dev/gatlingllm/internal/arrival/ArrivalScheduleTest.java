package dev.gatlingllm.internal.arrival;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.arrival.Fixtures;
import dev.gatlingllm.arrival.RampUpStrategy;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArrivalScheduleTest {

  @Test
  void constantRateIsRescaledSoTheLastArrivalIsAtNOverRate() {
    ArrivalSchedule schedule =
        ArrivalSchedule.compute(ArrivalProfile.builder()
            .numPrompts(1234).requestRate(7.5).seed(11).build());
    assertEquals(Math.round(1234 / 7.5 * 1e9), schedule.lastOffsetNanos());
  }

  @Test
  void rescalingMultipliesTheCumulativeSumsOfTheRawGaps() {
    int n = 500;
    double rate = 20;
    double burstiness = 0.7;
    GammaSampler sampler = new GammaSampler(5);
    double[] cumulative = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += sampler.next(burstiness, 1 / (rate * burstiness));
      cumulative[i] = sum;
    }
    double factor = (n / rate) / sum;
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(n).requestRate(rate)
        .burstiness(burstiness).seed(5).build());
    for (int i = 0; i < n; i++) {
      assertEquals(cumulative[i] * factor * 1e9, schedule.offsetNanos(i), 1.0, "arrival " + i);
    }
    // The first request also waits one (scaled) gap, as in vLLM: it is not at 0.
    assertTrue(schedule.offsetNanos(0) > 0);
  }

  @Test
  void offsetsNeverDecrease() {
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(5000).requestRate(100)
        .burstiness(0.1).seed(1).build());
    for (int i = 1; i < schedule.size(); i++) {
      assertTrue(schedule.offsetNanos(i) >= schedule.offsetNanos(i - 1), "arrival " + i);
    }
  }

  @Test
  void unboundedRateSendsEverythingAtOnce() {
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(300).build());
    assertEquals(300, schedule.size());
    assertArrayEquals(new long[300], schedule.offsetsNanos());
    assertEquals(Double.POSITIVE_INFINITY, schedule.rate(299));
    assertTrue(schedule.rpsChangeEvents().isEmpty());
  }

  @Test
  void sameSeedSameScheduleOtherSeedDiffers() {
    ArrivalProfile.Builder base =
        ArrivalProfile.builder().numPrompts(1000).requestRate(12).burstiness(0.5);
    ArrivalSchedule a = ArrivalSchedule.compute(base.seed(42).build());
    ArrivalSchedule b = ArrivalSchedule.compute(base.seed(42).build());
    ArrivalSchedule c = ArrivalSchedule.compute(base.seed(43).build());
    assertArrayEquals(a.offsetsNanos(), b.offsetsNanos());
    assertEquals(a, b);
    assertNotEquals(a, c);
    int differing = 0;
    for (int i = 0; i < 999; i++) {
      differing += a.offsetNanos(i) != c.offsetNanos(i) ? 1 : 0;
    }
    assertEquals(999, differing, "every arrival but the rescaled last one should move");
  }

  @Test
  void defaultSeedIsZeroLikeVllm() {
    ArrivalSchedule implicit = ArrivalSchedule.compute(ArrivalProfile.builder()
        .requestRate(3).build());
    ArrivalSchedule explicit = ArrivalSchedule.compute(ArrivalProfile.builder()
        .requestRate(3).seed(0).build());
    assertEquals(ArrivalProfile.DEFAULT_NUM_PROMPTS, implicit.size());
    assertEquals(explicit, implicit);
  }

  @Test
  void rampRatesAtFirstMiddleAndLastRequestMatchVllmsFormula() {
    for (JsonNode c : Fixtures.json().get("ramps")) {
      ArrivalSchedule schedule = rampSchedule(c);
      String label = c.get("strategy").asText() + " " + c.get("start") + "->" + c.get("end");
      int n = c.get("n").asInt();
      assertEquals(c.get("first").asDouble(), schedule.rate(0), 0.0, label);
      assertEquals(c.get("middle").asDouble(), schedule.rate(c.get("middle_index").asInt()), 0.0,
          label);
      assertEquals(c.get("last").asDouble(), schedule.rate(n - 1), 0.0, label);
    }
  }

  @Test
  void rampsAreNotRescaled() {
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder().numPrompts(2000)
        .rampUp(RampUpStrategy.LINEAR, 10, 10).seed(8).build());
    // A flat "ramp" at 10 req/s: the span is the raw sum of the gaps, not exactly N / 10.
    assertNotEquals(Math.round(2000 / 10.0 * 1e9), schedule.lastOffsetNanos());
    assertEquals(200.0, schedule.lastOffsetNanos() / 1e9, 200.0 * 0.1);
  }

  @Test
  void rpsChangeEventsMatchVllmsLoop() {
    for (JsonNode c : Fixtures.json().get("ramps")) {
      ArrivalSchedule schedule = rampSchedule(c);
      List<RpsChangeEvent> expected = new ArrayList<>();
      for (JsonNode e : c.get("events")) {
        long offset = e.get("request").isNull() ? 0 : schedule.offsetNanos(e.get("request").asInt());
        expected.add(new RpsChangeEvent(e.get("rps").asInt(), offset));
      }
      assertEquals(expected, schedule.rpsChangeEvents(),
          c.get("strategy").asText() + " " + c.get("start") + "->" + c.get("end"));
    }
  }

  @Test
  void linearRampFromZeroSendsTheFirstRequestAtTheStart() {
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder().numPrompts(40)
        .rampUp(RampUpStrategy.LINEAR, 0, 7).build());
    assertEquals(0.0, schedule.rate(0));
    assertEquals(0L, schedule.offsetNanos(0));
    assertTrue(schedule.offsetNanos(1) > 0);
  }

  @Test
  void rpsChangeEventsRenderLikePythonsIsoformat() {
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder().numPrompts(3)
        .rampUp(RampUpStrategy.LINEAR, 1, 3).seed(1).build());
    Instant start = Instant.parse("2025-01-31T14:05:09Z");
    List<Map<String, Object>> json = schedule.rpsChangeEventsJson(start, ZoneOffset.ofHours(2));
    assertEquals(3, json.size());
    assertEquals(Map.of("rps", 1, "timestamp", "2025-01-31T16:05:09"), json.get(0));
    // Rates 1, 2, 3: request 1 reaches 2 req/s and request 2 reaches 3. Their timestamps are
    // 16:05:09 local plus the request's offset, cut (not rounded) to microseconds.
    assertEquals(2, json.get(1).get("rps"));
    assertEquals(localTimeAfter(9, schedule.offsetNanos(1)), json.get(1).get("timestamp"));
    assertEquals(3, json.get(2).get("rps"));
    assertEquals(localTimeAfter(9, schedule.offsetNanos(2)), json.get(2).get("timestamp"));
    assertEquals("2025-01-31T16:05:09.123456",
        ArrivalSchedule.pythonIso(Instant.parse("2025-01-31T14:05:09.123456789Z"),
            ZoneOffset.ofHours(2)));
    assertEquals("2025-01-31T14:05:09.000001",
        ArrivalSchedule.pythonIso(Instant.parse("2025-01-31T14:05:09.000001Z"), ZoneOffset.UTC));
  }

  /** "2025-01-31T16:05:SS.ffffff" for {@code seconds} past 16:05 plus {@code offsetNanos}. */
  private static String localTimeAfter(int seconds, long offsetNanos) {
    long micros = offsetNanos / 1_000;
    long second = seconds + micros / 1_000_000;
    long fraction = micros % 1_000_000;
    assertTrue(second < 60 && fraction != 0, "the case stays in the minute, with a fraction");
    return String.format(Locale.ROOT, "2025-01-31T16:05:%02d.%06d", second, fraction);
  }

  private static ArrivalSchedule rampSchedule(JsonNode c) {
    return ArrivalSchedule.compute(ArrivalProfile.builder().numPrompts(c.get("n").asInt())
        .rampUp(RampUpStrategy.fromCliName(c.get("strategy").asText()), c.get("start").asInt(),
            c.get("end").asInt())
        .seed(17).build());
  }

  /**
   * An injector's share (scale-out): request {@code k + j N} of the whole schedule becomes
   * request {@code j} of injector {@code k}'s, offset and rate alike, and the shares together
   * hold every request once.
   */
  @Test
  void aShareTakesEveryNthRequestWithItsOffsetAndRate() {
    ArrivalSchedule whole = ArrivalSchedule.compute(ArrivalProfile.builder().numPrompts(7)
        .rampUp(RampUpStrategy.LINEAR, 2, 20).seed(3).build());
    int[][] expected = {{0, 3, 6}, {1, 4}, {2, 5}};
    int seen = 0;
    for (int k = 0; k < 3; k++) {
      ArrivalSchedule share = whole.share(k, 3);
      assertEquals(expected[k].length, share.size(), "share " + k);
      for (int j = 0; j < share.size(); j++) {
        assertEquals(whole.offsetNanos(expected[k][j]), share.offsetNanos(j));
        assertEquals(whole.rate(expected[k][j]), share.rate(j));
        seen++;
      }
      assertEquals(whole.rpsChangeEvents(), share.rpsChangeEvents(), "the ramp's events stay");
    }
    assertEquals(7, seen);
    assertSame(whole, whole.share(0, 1), "one injector sends everything");

    ArrivalSchedule constant = ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(2).requestRate(4).seed(1)
        .build());
    assertEquals(0, constant.share(4, 5).size(), "more injectors than requests: nothing");
    assertEquals(0, constant.share(2, 3).size(), "the injector right after the last request");
    assertEquals(4.0, constant.share(1, 2).rate(0), "a constant rate stays");
    assertEquals(constant.offsetNanos(1), constant.share(1, 2).offsetNanos(0));
  }

  @Test
  void aShareOutsideTheInjectorsIsRefused() {
    ArrivalSchedule whole = ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(3).seed(1).build());
    for (int[] bad : new int[][] {{3, 3}, {-1, 3}, {0, 0}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> whole.share(bad[0], bad[1]));
      assertEquals("share " + bad[0] + "/" + bad[1] + ": the index must be in 0.."
          + (bad[1] - 1), e.getMessage());
    }
  }
}
