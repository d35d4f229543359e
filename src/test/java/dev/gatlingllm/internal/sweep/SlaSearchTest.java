package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** vLLM's doubling then bisection, traced by hand for each case. */
class SlaSearchTest {

  private static List<Integer> values(SlaSearch.Result r) {
    return r.steps().stream().map(SlaSearch.Step::value).toList();
  }

  @Test
  void firstValueFailsThenBisectsDownFromZero() {
    // holds for values <= 2: 20 fails; bisect (0, 20): 10 F, 5 F, 2 P, 3 F -> 2
    SlaSearch.Result r = SlaSearch.search(20, 65536, v -> v <= 2);
    assertEquals(2, r.value());
    assertEquals(List.of(20, 10, 5, 2, 3), values(r));
    assertEquals(0, r.lowerBound());
    assertEquals(20, r.upperBound());
    assertFalse(r.capped());
  }

  @Test
  void doublesWhileItHoldsThenBisects() {
    // holds for values <= 20: 3 P, 6 P, 12 P, 24 F; bisect (12, 24): 18 P, 21 F, 19 P, 20 P
    SlaSearch.Result r = SlaSearch.search(3, 65536, v -> v <= 20);
    assertEquals(20, r.value());
    assertEquals(List.of(3, 6, 12, 24, 18, 21, 19, 20), values(r));
    assertEquals(12, r.lowerBound());
    assertEquals(24, r.upperBound());
  }

  @Test
  void neighboursNeedNoBisection() {
    SlaSearch.Result r = SlaSearch.search(4, 65536, v -> v <= 4);
    assertEquals(List.of(4, 8, 6, 5), values(r));
    assertEquals(4, r.value());
  }

  @Test
  void nothingHoldsGivesZero() {
    SlaSearch.Result r = SlaSearch.search(1, 65536, v -> false);
    assertEquals(0, r.value());
    assertEquals(List.of(1), values(r));
  }

  @Test
  void holdingUpToUnlimitedStopsThere() {
    SlaSearch.Result r = SlaSearch.search(5000, 65536, v -> true);
    assertEquals(List.of(5000, 10000, 20000, 40000, 65536), values(r));
    assertEquals(65536, r.value());
    assertTrue(r.capped());
  }

  @Test
  void startBelowOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> SlaSearch.search(0, 10, v -> true));
  }
}
