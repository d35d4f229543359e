package dev.gatlingllm.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The probes' own rules; their run against the simulator is ProbeRequestsIntegrationTest's. */
class ProbeRequestsTest {

  private static ProbeRequests probes(double rate) {
    return new ProbeRequests(rate, k -> new ProbeRequests.Body("/v1/completions", new byte[0],
        "application/json", 1), "p-", 10);
  }

  @Test
  void aRateThatCannotBeSentIsRefused() {
    for (double rate : new double[] {0, -1, Double.POSITIVE_INFINITY, Double.NaN}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> probes(rate));
      assertEquals("the probe rate must be a finite number of probes a second above 0, got "
          + rate, e.getMessage());
    }
  }

  @Test
  void stoppedBeforeAnyTickTheyReportNothingAndStopOnce() {
    ProbeRequests p = probes(4);
    ProbeRequests.Outcome first = p.stop();
    assertEquals(new ProbeRequests.Outcome(4, 0, 0, List.of()), first);
    assertSame(first, p.stop(), "a second stop (the run released after its results) is free");
  }
}
