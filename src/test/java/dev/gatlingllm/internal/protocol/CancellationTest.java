package dev.gatlingllm.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.client.CancelAfter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which requests are cancelled: the share exactly, to within one, and the same for a seed. */
class CancellationTest {

  private static final CancelAfter FIVE = CancelAfter.chunks(5);

  private static List<Long> chosen(Cancellation c, int n) {
    List<Long> out = new ArrayList<>();
    for (long k = 0; k < n; k++) {
      if (c.chosen(k)) {
        out.add(k);
      }
    }
    return out;
  }

  @Test
  void everyPrefixHoldsTheShareToWithinOne() {
    for (double fraction : new double[] {0.5, 0.3, 0.1, 0.07, 0.9, 1.0 / 3}) {
      Cancellation c = new Cancellation(fraction, FIVE, 42);
      int count = 0;
      for (int n = 1; n <= 1_000; n++) {
        count += c.chosen(n - 1) ? 1 : 0;
        // floor(n f) or floor(n f) + 1, so never a whole request off
        assertTrue(Math.abs(count - n * fraction) < 1,
            fraction + ": " + count + " of the first " + n);
      }
    }
  }

  /** 1000 × 0.3 = 300 exactly, and the last run of indices ends at 999: no partial run. */
  @Test
  void aWholeNumberOfRunsGivesTheExactCount() {
    assertEquals(300, chosen(new Cancellation(0.3, FIVE, 7), 1_000).size());
    assertEquals(50, chosen(new Cancellation(0.5, FIVE, 7), 100).size());
  }

  @Test
  void theSameSeedPicksTheSameRequestsAndAnotherSeedOthers() {
    List<Long> a = chosen(new Cancellation(0.25, FIVE, 1), 400);
    assertEquals(a, chosen(new Cancellation(0.25, FIVE, 1), 400));
    assertNotEquals(a, chosen(new Cancellation(0.25, FIVE, 2), 400));
  }

  /** One per run of four indices: at most 6 apart (last of a run, first of the one after next). */
  @Test
  void thePicksAreSpreadOnePerRun() {
    List<Long> picks = chosen(new Cancellation(0.25, FIVE, 3), 400);
    assertEquals(100, picks.size());
    for (int j = 0; j < picks.size(); j++) {
      assertEquals(j, picks.get(j) / 4, "pick " + j + " is in run " + j + ": " + picks.get(j));
    }
  }

  @Test
  void noneAndAll() {
    assertFalse(Cancellation.NONE.cancels());
    assertSame(CancelAfter.NEVER, Cancellation.NONE.forRequest(3));
    Cancellation all = new Cancellation(1, FIVE, 0);
    assertEquals(100, chosen(all, 100).size());
    assertSame(FIVE, all.forRequest(99));
    assertEquals(0, chosen(new Cancellation(0, CancelAfter.NEVER, 0), 100).size());
  }

  @Test
  void aShareNeedsAPointAndIsAShare() {
    assertThrows(IllegalArgumentException.class,
        () -> new Cancellation(0.5, CancelAfter.NEVER, 0));
    assertThrows(IllegalArgumentException.class, () -> new Cancellation(1.5, FIVE, 0));
    assertThrows(IllegalArgumentException.class, () -> CancelAfter.chunks(0));
    assertThrows(IllegalArgumentException.class, () -> CancelAfter.millis(-1));
  }
}
