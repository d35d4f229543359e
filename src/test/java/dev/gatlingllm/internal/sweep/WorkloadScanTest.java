package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** vLLM's serve_workload loads: linspace(serial, batch, iters)[1:-1], rounded, de-duplicated. */
class WorkloadScanTest {

  @Test
  void theItersCountBothEndsAndTheLoadsBetweenAreRounded() {
    // linspace(1, 24, 6) = 1, 5.6, 10.2, 14.8, 19.4, 24: the four between, rounded
    assertEquals(List.of(6, 10, 15, 19), WorkloadScan.points(1, 24, 6));
    // two iterations are the two ends alone
    assertEquals(List.of(), WorkloadScan.points(1, 24, 2));
  }

  @Test
  void halvesRoundToEvenAsPythonsRoundAndRepeatsAreDropped() {
    // linspace(1, 5, 9) between the ends: 1.5 2.0 2.5 3.0 3.5 4.0 4.5 -> 2 2 2 3 4 4 4
    assertEquals(List.of(2, 3, 4), WorkloadScan.points(1, 5, 9));
  }

  @Test
  void aLoadEqualToAnEndIsKeptAsVllmKeepsIt() {
    // linspace(1, 3, 10) between the ends: 1.22 1.44 1.67 1.89 2.11 2.33 2.56 2.78
    assertEquals(List.of(1, 2, 3), WorkloadScan.points(1, 3, 10));
  }

  @Test
  void aBatchEndBelowTheSerialOneStillGivesSortedLoads() {
    // linspace(5, 2, 4) = 5, 4, 3, 2
    assertEquals(List.of(3, 4), WorkloadScan.points(5, 2, 4));
    // linspace(1, 0, 4) between the ends: 0.67 -> 1, 0.33 -> 0 (no run at load 0)
    assertEquals(List.of(1), WorkloadScan.points(1, 0, 4));
  }

  @Test
  void fewerThanTwoItersIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> WorkloadScan.points(1, 5, 1));
    assertEquals("--workload-iters counts the serial and the batch runs, so it must be at "
        + "least 2, got 1", e.getMessage());
  }
}
