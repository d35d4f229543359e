package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import org.junit.jupiter.api.Test;

/** The client queue time travels in the record log, and logs written before it still read. */
class RecordCodecClientQueueTest {

  @Test
  void theQueueTimeTravelsWithTheRecord() {
    RequestRecord queued = RequestRecord.builder("gen").startNanos(5).success(true)
        .requestId("r-1").turn(2).clientQueueNanos(2_500_000).build();
    byte[] bytes = RecordCodecTurnTest.encode(queued);
    RequestRecord read = RecordCodec.decode(bytes, 0, bytes.length);
    assertEquals(2_500_000, read.clientQueueNanos());
    assertEquals(2, read.turn());
    assertEquals(queued, read.toBuilder().chunkMicros(queued.chunkMicros()).build());
  }

  /** 2,500,000 zigzagged is 5,000,000: four 7-bit groups (2^21 ≤ 5e6 < 2^28). */
  @Test
  void onlyAQueuedRecordPaysForIt() {
    RequestRecord.Builder b = RequestRecord.builder("gen").startNanos(5).success(true);
    byte[] plain = RecordCodecTurnTest.encode(b.build());
    byte[] queued = RecordCodecTurnTest.encode(b.clientQueueNanos(2_500_000).build());
    assertEquals(plain.length + 4, queued.length);
  }

  /**
   * The bytes of a successful record as logs held them before the queue time, written out by
   * hand: name "g" (length 1, 'g'), start 5 (zigzag 10), start − scheduled 0, TTFT −1 (zigzag
   * 1), latency −1, end − start 0, TTFC −1, no chunk, prompt, usage-prompt and output tokens
   * −1, status 0, no reasoning chunk, flags SUCCESS (8).
   */
  @Test
  void aRecordOfAnOlderLogReadsWithNoQueue() {
    byte[] old = {1, 'g', 10, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 8};
    RequestRecord r = RecordCodec.decode(old, 0, old.length);
    assertEquals("g", r.name());
    assertEquals(5, r.startNanos());
    assertTrue(r.success());
    assertEquals(0, r.clientQueueNanos());
  }
}
