package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.internal.metrics.RequestRecord;
import org.junit.jupiter.api.Test;

/**
 * The base URL a request went to travels in the record log behind a flag of its own (bit 13 of
 * the flags varint), written only when it is not the first URL, so a one-server run's log is
 * byte for byte what it was.
 */
class RecordCodecTargetTest {

  @Test
  void theTargetTravelsWithTheRecord() {
    RequestRecord sent = RequestRecord.builder("gen").startNanos(5).success(true)
        .requestId("r-1").turn(2).clientQueueNanos(7).requestClass("long_decode").target(3)
        .build();
    byte[] bytes = RecordCodecTurnTest.encode(sent);
    RequestRecord read = RecordCodec.decode(bytes, 0, bytes.length);
    assertEquals(3, read.target());
    assertEquals("long_decode", read.requestClass());
    assertEquals(2, read.turn());
  }

  /**
   * Target 1 sets flag bit 13, which takes the flags varint from one byte to two (8 | 1 << 13 =
   * 8,200: 0x88, 0x40), then is one byte itself; target 300 is two 7-bit groups (128 ≤ 300 <
   * 16,384): 300 = 0b10_0101100 → 0xAC, 0x02, last.
   */
  @Test
  void aTargetIsOneTrailingIntegerAndTheFirstCostsNothing() {
    RequestRecord.Builder b = RequestRecord.builder("gen").startNanos(5).success(true);
    byte[] first = RecordCodecTurnTest.encode(b.build());
    byte[] second = RecordCodecTurnTest.encode(b.target(1).build());
    byte[] far = RecordCodecTurnTest.encode(b.target(300).build());
    // the one-server bytes, written out by hand as RecordCodecClientQueueTest's older log
    assertArrayEquals(new byte[] {1, 'g', 10, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 8},
        RecordCodecTurnTest.encode(RequestRecord.builder("g").startNanos(5).success(true)
            .build()));
    assertEquals(first.length + 2, second.length);
    assertEquals(1, second[second.length - 1]);
    assertEquals((byte) 0x88, second[second.length - 3]);
    assertEquals(0x40, second[second.length - 2]);
    assertEquals((byte) 0xAC, far[far.length - 2]);
    assertEquals(2, far[far.length - 1]);
    assertEquals(300, RecordCodec.decode(far, 0, far.length).target());
  }

  @Test
  void aRecordOfAnOlderLogWentToTheFirstUrl() {
    byte[] old = {1, 'g', 10, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 8};
    assertEquals(0, RecordCodec.decode(old, 0, old.length).target());
  }
}
