package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class RunDurationTest {

  private static RequestRecord rec(long scheduled, long start, long end) {
    return RequestRecord.builder("r").scheduledNanos(scheduled).startNanos(start).ttftNanos(1)
        .latencyNanos(1).endNanos(end).chunkMicros(new int[] {0}).promptTokens(1).outputTokens(1)
        .httpStatus(200).success(true).generatedText("x").build();
  }

  @Test
  void fromStartRunsToTheLastEnd() {
    RecordSource rs = RecordSource.of(List.of(rec(100, 150, 2_000_000_100L),
        rec(50, 60, 1_000_000_000L)));
    assertEquals(2.0, RunDuration.fromStart(100, rs));
  }

  @Test
  void fromRecordsStartsAtTheFirstScheduledArrival() {
    RecordSource rs = RecordSource.of(List.of(rec(1_000_000_000L, 1_100_000_000L, 3_000_000_000L),
        rec(500_000_000L, 900_000_000L, 2_000_000_000L)));
    assertEquals(2.5, RunDuration.fromRecords(rs));
    assertEquals(500_000_000L, RunDuration.firstScheduledNanos(rs));
  }

  @Test
  void emptyRunsLastZero() {
    RecordSource none = RecordSource.of(List.of());
    assertEquals(0.0, RunDuration.fromRecords(none));
    assertEquals(0.0, RunDuration.fromStart(5, none));
    assertThrows(IllegalArgumentException.class, () -> RunDuration.firstScheduledNanos(none));
  }

  @Test
  void inStartOrderSortsByStartKeepingTies() {
    RecordSource rs = RecordSource.of(List.of(rec(0, 30, 40), rec(0, 10, 40), rec(0, 30, 41),
        rec(0, 20, 40))).inStartOrder();
    assertEquals(10, rs.record(0).startNanos());
    assertEquals(20, rs.record(1).startNanos());
    assertEquals(40, rs.record(2).endNanos());
    assertEquals(41, rs.record(3).endNanos());
  }
}
