package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GoodputSloTest {

  @Test
  void parsesVllmSyntaxInOrder() {
    GoodputSlo slo = GoodputSlo.parse("ttft:500 tpot:50  e2el:1e3");
    assertEquals(List.of("ttft", "tpot", "e2el"), List.copyOf(slo.asMap().keySet()));
    assertEquals(1000.0, slo.asMap().get("e2el"));
    assertEquals(List.of("ttft:500.0", "tpot:50.0", "e2el:1000.0"), slo.asArguments());
    assertEquals(slo.asMap(), GoodputSlo.parse(List.of("ttft:500", "tpot:50", "e2el:1000")).asMap());
  }

  @Test
  void repeatedKeyKeepsTheLastValueAsPythonDictDoes() {
    assertEquals(Map.of("ttft", 20.0), GoodputSlo.parse("ttft:10 ttft:20").asMap());
  }

  @Test
  void acceptsAMap() {
    Map<String, Number> m = new LinkedHashMap<>();
    m.put("e2el", 2000);
    m.put("ttft", 250.5);
    GoodputSlo slo = GoodputSlo.of(m);
    assertEquals(List.of("e2el:2000.0", "ttft:250.5"), slo.asArguments());
  }

  @Test
  void blankMeansNone() {
    assertTrue(GoodputSlo.parse("  ").isEmpty());
    assertTrue(GoodputSlo.parse((String) null).isEmpty());
    assertTrue(GoodputSlo.of(Map.of()).isEmpty());
    assertFalse(GoodputSlo.none().isGood(0, 0, 0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"ttft=500", "ttft:", "ttft:abc", "ttft:5:6", "ttft:nan"})
  void badFormatGivesVllmsMessageAndTheBadPair(String pair) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GoodputSlo.parse("tpot:5 " + pair));
    assertTrue(e.getMessage().startsWith("Invalid format found for service level objectives. "
        + "Specify service level objectives for goodput as \"KEY:VALUE\" pairs"), e.getMessage());
    assertTrue(e.getMessage().endsWith("Got '" + pair + "'."), e.getMessage());
  }

  @Test
  void unknownKeyGivesVllmsMessage() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GoodputSlo.parse("ttft:5 itl:20"));
    assertEquals("Invalid metric name found, itl: 20.0. The service level objective name "
        + "should be one of ['ttft', 'tpot', 'e2el']. ", e.getMessage());
  }

  @Test
  void negativeValueGivesVllmsMessage() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GoodputSlo.of(Map.of("tpot", -1)));
    assertEquals("Invalid value found, tpot: -1.0. The service level objective value should "
        + "be non-negative.", e.getMessage());
  }

  @Test
  void boundsAreInclusiveAndTpotZeroPassesAZeroSlo() {
    GoodputSlo slo = GoodputSlo.parse("ttft:100 tpot:0 e2el:250");
    assertTrue(slo.isGood(0.1, 0.0, 0.25));
    assertFalse(slo.isGood(0.1000001, 0.0, 0.25));
    assertFalse(slo.isGood(0.1, 1e-9, 0.25));
    assertFalse(slo.isGood(0.1, 0.0, 0.2500001));
  }

  @Test
  void perRequestCheckAgreesWithTheAfterRunCount() {
    for (String name : List.of("mixed", "goodput-ttft", "goodput-tpot", "goodput-tpot-zero",
        "goodput-e2el", "random-200")) {
      GoodputSlo slo = MetricFixtures.goodput(name);
      MetricsCalculator calc = MetricFixtures.calculator(name);
      int good = 0;
      for (RequestRecord r : MetricFixtures.records(name)) {
        if (slo.isGood(r, r.success() ? calc.outputLen(r, r.generatedText()) : 0)) {
          good++;
        }
      }
      assertEquals(MetricFixtures.expected(name).get("good_completed").asInt(), good, name);
    }
  }

  @Test
  void failedRequestsAreNeverGood() {
    RequestRecord failed = RequestRecord.builder("f").startNanos(0).ttftNanos(1).latencyNanos(2)
        .endNanos(3).chunkMicros(new int[] {0}).promptTokens(1).outputTokens(1).httpStatus(500)
        .error("HTTP 500").generatedText("").build();
    assertFalse(GoodputSlo.parse("e2el:100000").isGood(failed, 1));
  }
}
