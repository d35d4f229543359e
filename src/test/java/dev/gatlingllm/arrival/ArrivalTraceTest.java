package dev.gatlingllm.arrival;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replay reproduces the recorded gaps exactly, optionally time-scaled. */
class ArrivalTraceTest {

  @Test
  void replayReproducesRecordedGaps() {
    ArrivalTrace trace = ArrivalTrace.ofSeconds(100.0, 100.5, 100.75, 103.0, 103.0);
    ArrivalSchedule schedule = ArrivalProfile.builder().replay(trace).build().schedule();
    assertArrayEquals(new long[] {0, 500_000_000, 750_000_000, 3_000_000_000L, 3_000_000_000L},
        schedule.offsetsNanos());
    assertTrue(Double.isNaN(schedule.rate(0)));
  }

  @Test
  void timeScaleMultipliesEveryGap() {
    ArrivalTrace trace = ArrivalTrace.ofSeconds(0, 0.5, 0.75, 3);
    assertArrayEquals(new long[] {0, 250_000_000, 375_000_000, 1_500_000_000},
        ArrivalProfile.builder().replay(trace).replayTimeScale(0.5).build().schedule()
            .offsetsNanos());
    assertArrayEquals(new long[] {0, 1_500_000_000, 2_250_000_000L, 9_000_000_000L},
        ArrivalProfile.builder().replay(trace).replayTimeScale(3).build().schedule()
            .offsetsNanos());
  }

  @Test
  void burstGptCsvReadsTheTimestampColumn() {
    ArrivalTrace trace = ArrivalTrace.fromBurstGptCsv(Fixtures.path("burstgpt_sample.csv"));
    assertEquals(7, trace.size());
    ArrivalSchedule schedule = ArrivalProfile.builder().replay(trace).build().schedule();
    long s = 1_000_000_000L;
    assertArrayEquals(new long[] {0, 40 * s, 113 * s, 113 * s, 115_250_000_000L,
        116_500_000_000L, 181_125_000_000L}, schedule.offsetsNanos());
  }

  @Test
  void numPromptsReplaysTheFirstArrivalsOnly() {
    ArrivalTrace trace = ArrivalTrace.fromBurstGptCsv(Fixtures.path("burstgpt_sample.csv"));
    ArrivalSchedule schedule =
        ArrivalProfile.builder().replay(trace).numPrompts(3).build().schedule();
    assertArrayEquals(new long[] {0, 40_000_000_000L, 113_000_000_000L}, schedule.offsetsNanos());
  }

  @Test
  void jsonlReadsNumbersAndNumericStringsToTheNanosecond() {
    ArrivalTrace trace = ArrivalTrace.fromJsonl(Fixtures.path("trace.jsonl"), "timestamp");
    // Epoch-sized timestamps keep their nanoseconds: they are parsed as decimals, not doubles.
    assertArrayEquals(new long[] {0, 250_000_000, 1_500_000_000, 1_500_000_001},
        ArrivalProfile.builder().replay(trace).build().schedule().offsetsNanos());
  }

  @Test
  void jsonlReadsIsoDateTimes() {
    ArrivalTrace trace = ArrivalTrace.fromJsonl(Fixtures.path("trace_iso.jsonl"), "arrived");
    assertArrayEquals(new long[] {0, 250_000_000, 3_500_000_000L},
        ArrivalProfile.builder().replay(trace).build().schedule().offsetsNanos());
  }

  @Test
  void csvWithAnyColumnName(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("t.csv");
    Files.writeString(csv, "\uFEFFid,\"arrival s\"\na,0.1\nb,\"0.35\"\n");
    ArrivalTrace trace = ArrivalTrace.fromCsv(csv, "arrival s");
    assertArrayEquals(new long[] {0, 250_000_000},
        ArrivalProfile.builder().replay(trace).build().schedule().offsetsNanos());
  }

  @Test
  void resultParametersDescribeTheReplay() {
    ArrivalTrace trace = ArrivalTrace.ofSeconds(0, 1, 2, 4);
    Map<String, Object> params =
        ArrivalProfile.builder().replay(trace).replayTimeScale(0.5).build().resultParameters();
    assertEquals(2.0, params.get("request_rate"), "4 arrivals over 2 s");
    assertTrue(params.containsKey("burstiness"));
    assertEquals(null, params.get("burstiness"));
    assertEquals(Map.of("source", "of 4 timestamps", "time_scale", 0.5),
        params.get("arrival_replay"));
  }

  @Test
  void backwardsTimestampsAreRejectedWithTheirPosition() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ArrivalTrace.fromCsv(Fixtures.path("trace_backwards.csv"), "t"));
    assertTrue(e.getMessage().contains("goes backwards at entry 2: 1.5 s after 2 s"),
        e.getMessage());
  }

  @Test
  void missingColumnNamesTheColumnsThatExist() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ArrivalTrace.fromCsv(Fixtures.path("burstgpt_sample.csv"), "time"));
    assertTrue(e.getMessage().contains("no column 'time'"), e.getMessage());
    assertTrue(e.getMessage().contains("[Timestamp, Model,"), e.getMessage());
  }

  @Test
  void badValuesNameTheLine(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("bad.csv");
    Files.writeString(csv, "Timestamp\n1\nsoon\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ArrivalTrace.fromBurstGptCsv(csv));
    assertTrue(e.getMessage().contains("line 3 timestamp 'soon' is neither seconds nor an ISO-8601"),
        e.getMessage());

    Path jsonl = dir.resolve("bad.jsonl");
    Files.writeString(jsonl, "{\"timestamp\": 1}\n{\"ts\": 2}\n");
    e = assertThrows(IllegalArgumentException.class,
        () -> ArrivalTrace.fromJsonl(jsonl, "timestamp"));
    assertTrue(e.getMessage().contains("line 2 has no field 'timestamp'"), e.getMessage());

    Files.writeString(jsonl, "{\"timestamp\": 1}\n{oops\n");
    e = assertThrows(IllegalArgumentException.class,
        () -> ArrivalTrace.fromJsonl(jsonl, "timestamp"));
    assertTrue(e.getMessage().contains("line 2 is not valid JSON"), e.getMessage());
  }

  @Test
  void emptyTracesAndNonFiniteTimestampsAreRejected(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("empty.csv");
    Files.writeString(csv, "Timestamp\n\n");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ArrivalTrace.fromBurstGptCsv(csv))
        .getMessage().contains("holds no timestamps"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ArrivalTrace.ofSeconds(0, Double.NaN)).getMessage().contains("must be finite"));
  }

  @Test
  void csvSplittingHonoursQuotes() {
    assertEquals(List.of("a", "b,c", "say \"hi\"", ""), ArrivalTrace.splitCsv("a,\"b,c\",\"say \"\"hi\"\"\","));
  }
}
