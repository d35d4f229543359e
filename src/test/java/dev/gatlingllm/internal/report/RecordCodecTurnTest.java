package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.internal.metrics.RequestRecord;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

class RecordCodecTurnTest {

  static byte[] encode(RequestRecord r) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RecordCodec.encode(r, out);
    return out.toByteArray();
  }

  @Test
  void theTurnIndexTravelsWithTheRecord() {
    RequestRecord turn = RequestRecord.builder("chat").startNanos(5).ttftNanos(3)
        .latencyNanos(9).chunkMicros(new int[] {1, 2}).success(true).requestId("r-1")
        .turn(300).build();
    byte[] bytes = encode(turn);
    RequestRecord read = RecordCodec.decode(bytes, 0, bytes.length);
    assertEquals(300, read.turn());
    assertEquals("r-1", read.requestId());
    assertArrayEquals(new int[] {1, 2}, read.chunkMicros());
    assertEquals(turn, read.toBuilder().chunkMicros(turn.chunkMicros()).build());
  }

  /**
   * A record outside a conversation is written as before the turn existed (so a log written
   * then reads the same, turn 0): the turn costs two bytes (index 300) only where there is one.
   */
  @Test
  void recordsWithoutTurnKeepTheirFormerBytes() {
    RequestRecord.Builder b = RequestRecord.builder("chat").startNanos(5).success(true)
        .requestId("r-1");
    byte[] plain = encode(b.build());
    byte[] turn = encode(b.turn(300).build());
    assertEquals(plain.length + 2, turn.length);
    assertEquals(0, RecordCodec.decode(plain, 0, plain.length).turn());
    assertEquals(300, RecordCodec.decode(turn, 0, turn.length).turn());
  }
}
