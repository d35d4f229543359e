package dev.gatlingllm.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.internal.arrival.InjectionPlan;
import dev.gatlingllm.internal.arrival.SlotPacer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smallest and largest values each arrival setting accepts, and trace files at the edges
 * of what the readers handle: short rows, a byte-order mark, more rows than the first buffer.
 */
class ArrivalBoundariesTest {

  @TempDir
  Path dir;

  @Test
  void aConcurrencyCapOfOneIsAllowed() {
    assertEquals(1, ArrivalProfile.builder().maxConcurrency(1).build().maxConcurrency()
        .getAsInt());
  }

  @Test
  void aReplayMayUseExactlyAllOfItsArrivals() {
    ArrivalTrace trace = ArrivalTrace.ofSeconds(0, 1, 2);
    assertEquals(3, ArrivalProfile.builder().replay(trace).numPrompts(3).build().numPrompts());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ArrivalProfile.builder().replay(trace).numPrompts(4).build()).getMessage()
        .startsWith("numPrompts 4 exceeds the 3 arrivals of "));
  }

  @Test
  void aPlanWhoseSpanNeedsExactlyMaxBucketsKeepsItsBucketWidth() {
    // Last arrival at 4.5 s: one-second cells 0..4, five in all; five are allowed.
    ArrivalSchedule schedule = ArrivalProfile.builder()
        .replay(ArrivalTrace.ofSeconds(0, 2, 4.5)).build().schedule();
    assertEquals(Duration.ofSeconds(1), InjectionPlan.of(schedule).withMaxBuckets(5).bucket());
    // One fewer and the cells double.
    assertEquals(Duration.ofSeconds(2), InjectionPlan.of(schedule).withMaxBuckets(4).bucket());
    // A single cell holds everything.
    assertEquals(Duration.ofSeconds(5), InjectionPlan.of(schedule).withMaxBuckets(1).bucket());
  }

  @Test
  void planSettingsAcceptTheirMinimums() {
    ArrivalSchedule schedule = ArrivalProfile.builder().numPrompts(3).requestRate(10).build()
        .schedule();
    assertEquals(Duration.ofSeconds(1),
        InjectionPlan.of(schedule).withBucket(Duration.ofSeconds(1)).bucket());
    assertEquals(Duration.ZERO, InjectionPlan.of(schedule).withLead(Duration.ZERO).lead());
    assertThrows(IllegalArgumentException.class,
        () -> InjectionPlan.of(schedule).withBucket(Duration.ofMillis(999)));
    assertThrows(IllegalArgumentException.class,
        () -> InjectionPlan.of(schedule).withMaxBuckets(0));
  }

  @Test
  void pacerSettingsAcceptTheirMaximumsAndDescribeThemselves() {
    assertEquals("SlotPacer[wakeEarly=10000us, maxSpinShare=1.0]",
        SlotPacer.create(Duration.ofMillis(10), 1.0).toString());
    assertEquals("SlotPacer[wakeEarly=100us, maxSpinShare=0.1]", SlotPacer.create().toString());
  }

  @Test
  void aCsvRowWithoutTheColumnIsNamed() throws IOException {
    Path csv = dir.resolve("short.csv");
    Files.writeString(csv, "id,when\n1,0.5\n2\n", StandardCharsets.UTF_8);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ArrivalTrace.fromCsv(csv, "when"));
    assertEquals("arrival trace " + csv + " line 3 has no value in column 'when'", e.getMessage());
  }

  @Test
  void aByteOrderMarkBeforeTheFirstJsonLineIsSkipped() throws IOException {
    Path jsonl = dir.resolve("bom.jsonl");
    Files.writeString(jsonl, "\uFEFF{\"t\": 1.5}\n{\"t\": 2.0}\n", StandardCharsets.UTF_8);
    ArrivalTrace trace = ArrivalTrace.fromJsonl(jsonl, "t");
    assertEquals(2, trace.size());
    assertEquals(500_000_000L, trace.offsetNanos(1));
  }

  @Test
  void tracesLongerThanTheFirstBufferKeepEveryRow() throws IOException {
    StringBuilder text = new StringBuilder("t\n");
    for (int i = 0; i < 5_000; i++) {
      text.append(i).append(".25\n");
    }
    Path csv = dir.resolve("long.csv");
    Files.writeString(csv, text, StandardCharsets.UTF_8);
    ArrivalTrace trace = ArrivalTrace.fromCsv(csv, "t");
    assertEquals(5_000, trace.size());
    assertEquals(4_999_000_000_000L, trace.offsetNanos(4_999));
  }
}
