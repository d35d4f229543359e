package dev.gatlingllm.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadScanTest {

  @Test
  void concurrencyPointsAreEvenlySpacedWholeNumbersStrictlyBetween() {
    // 1 + 23k/5 = 5.6, 10.2, 14.8, 19.4
    assertEquals(List.of(6, 10, 15, 19),
        WorkloadScan.points(SlaVariable.MAX_CONCURRENCY, 1, 24, 4));
    // 1 + 2k/4 = 1.5, 2.0, 2.5 -> 2 (1.5 and 2.5 round to 2 and 3; 3 is not below 3)
    assertEquals(List.of(2), WorkloadScan.points(SlaVariable.MAX_CONCURRENCY, 1, 3, 3));
  }

  @Test
  void ratePointsKeepTwoDecimals() {
    assertEquals(List.of(12.0, 14.0, 16.0, 18.0),
        WorkloadScan.points(SlaVariable.REQUEST_RATE, 10, 20, 4));
    // 9.87 + 10.13k/3 = 13.2466.., 16.6233..
    assertEquals(List.of(13.25, 16.62), WorkloadScan.points(SlaVariable.REQUEST_RATE, 9.87,
        20, 2));
  }

  @Test
  void noRangeNoPoints() {
    assertEquals(List.of(), WorkloadScan.points(SlaVariable.REQUEST_RATE, 20, 20, 5));
    assertThrows(IllegalArgumentException.class,
        () -> WorkloadScan.points(SlaVariable.REQUEST_RATE, 1, 2, 0));
  }
}
