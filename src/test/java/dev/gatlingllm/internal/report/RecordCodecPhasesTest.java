package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import org.junit.jupiter.api.Test;

/**
 * The connection phases, the reuse of the connection and a cancel travel in the record log
 * behind the second set of flags; a record without them costs nothing more.
 */
class RecordCodecPhasesTest {

  @Test
  void theFirstRequestOfAConnectionKeepsItsPhases() {
    RequestRecord r = RequestRecord.builder("gen").startNanos(5).success(true)
        .requestClass("short").dnsNanos(1_000).connectNanos(120_000).tlsNanos(-1)
        .writtenNanos(180_000).headNanos(2_000_000).build();
    byte[] bytes = RecordCodecTurnTest.encode(r);
    RequestRecord read = RecordCodec.decode(bytes, 0, bytes.length);
    assertEquals(r, read.toBuilder().chunkMicros(r.chunkMicros()).build());
    assertEquals(120_000, read.connectNanos());
    assertEquals(-1, read.tlsNanos());
    assertFalse(read.connectionReused());
  }

  @Test
  void aReusedCancelledRequestSaysSo() {
    RequestRecord r = RequestRecord.builder("gen").startNanos(5).connectionReused(true)
        .writtenNanos(30_000).headNanos(900_000).cancelled(true).build();
    byte[] bytes = RecordCodecTurnTest.encode(r);
    RequestRecord read = RecordCodec.decode(bytes, 0, bytes.length);
    assertTrue(read.connectionReused());
    assertTrue(read.cancelled());
    assertEquals(-1, read.connectNanos());
    assertEquals(900_000, read.headNanos());
  }

  /** No phase, no reuse, no cancel: the flags byte has no room taken, no byte is added. */
  @Test
  void aRecordWithoutThemIsAsLongAsBefore() {
    byte[] old = {1, 'g', 10, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 8};
    RequestRecord r = RecordCodec.decode(old, 0, old.length);
    assertEquals(-1, r.writtenNanos());
    assertFalse(r.cancelled());
    assertEquals(old.length, RecordCodecTurnTest.encode(r).length);
  }
}
