package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Knees worked on scaled axes by hand. */
class KneeTest {

  @Test
  void theKneeIsWhereLatencyStartsToClimbFasterThanThroughput() {
    // throughput 10, 19, 27, 30 req/s; p99 E2EL 100, 110, 130, 400 ms. Scaled by the ranges
    // (20 and 300): (0, 0), (0.45, 0.033), (0.85, 0.1), (1, 1); chord from (0, 0) to (1, 1):
    // distance below it (x - y) / sqrt(2): 0.295, 0.530 -> the third point
    assertEquals(2, Knee.of(List.of(10.0, 19.0, 27.0, 30.0), List.of(100.0, 110.0, 130.0,
        400.0)));
  }

  @Test
  void aThroughputThatFallsPastSaturationStillHasItsKnee() {
    // in load order: (10, 100), (20, 120), (18, 500); scaled x (0, 1, 0.8), y (0, 0.05, 1);
    // chord (0, 0) -> (0.8, 1), length 1.2806; the middle point: (1 * 1 - 0.8 * 0.05) / 1.2806
    // = 0.75 below it
    assertEquals(1, Knee.of(List.of(10.0, 20.0, 18.0), List.of(100.0, 120.0, 500.0)));
  }

  @Test
  void aStraightLineTwoPointsOrAFlatLatencyHaveNoKnee() {
    assertEquals(-1, Knee.of(List.of(1.0, 2.0, 3.0), List.of(10.0, 20.0, 30.0)));
    // (0.55 - 0.45) / sqrt(2) = 0.07 below the chord, under the 0.1 a knee needs
    assertEquals(-1, Knee.of(List.of(0.0, 55.0, 100.0), List.of(0.0, 45.0, 100.0)));
    assertEquals(-1, Knee.of(List.of(1.0, 2.0), List.of(10.0, 50.0)));
    assertEquals(-1, Knee.of(List.of(1.0, 2.0, 3.0), List.of(10.0, 10.0, 10.0)));
    // latency falling as throughput rises lies above no chord point on the throughput side
    assertEquals(-1, Knee.of(List.of(1.0, 2.0, 3.0), List.of(30.0, 29.0, 10.0)));
  }
}
