package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.internal.metrics.RequestRecord;
import org.junit.jupiter.api.Test;

/**
 * Reasoning tokens, tool calls and the schema check travel in the record log; a record without
 * them costs what it cost before, and an older log reads with their defaults.
 */
class RecordCodecAnswerKindsTest {

  @Test
  void theAnswerFiguresTravelWithTheRecord() {
    RequestRecord r = RequestRecord.builder("tools").startNanos(5).success(true)
        .reasoningTokens(37).toolCallNanos(12_000_000).toolCalls(3).toolCallsParsed(2)
        .schemaCheck(RequestRecord.SCHEMA_INVALID).build();
    byte[] bytes = RecordCodecTurnTest.encode(r);
    RequestRecord read = RecordCodec.decode(bytes, 0, bytes.length);
    assertEquals(37, read.reasoningTokens());
    assertEquals(12_000_000, read.toolCallNanos());
    assertEquals(3, read.toolCalls());
    assertEquals(2, read.toolCallsParsed());
    assertEquals(RequestRecord.SCHEMA_INVALID, read.schemaCheck());
    assertEquals(r, read.toBuilder().chunkMicros(r.chunkMicros()).build());
  }

  /**
   * The flags become two bytes (128 + 8 = 136: 0x88 0x01) and the five values follow: 37
   * (zigzag 74, one byte), −1 (zigzag 1), 0, 0, −1 (zigzag 1): 1 + 5 bytes more.
   */
  @Test
  void onlyARecordWithThemPaysForThem() {
    RequestRecord.Builder b = RequestRecord.builder("gen").startNanos(5).success(true);
    byte[] plain = RecordCodecTurnTest.encode(b.build());
    byte[] reasoning = RecordCodecTurnTest.encode(b.reasoningTokens(37).build());
    assertEquals(plain.length + 6, reasoning.length);
  }

  /** The hand-written bytes of an older record (see RecordCodecClientQueueTest). */
  @Test
  void aRecordOfAnOlderLogReadsWithTheDefaults() {
    byte[] old = {1, 'g', 10, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 8};
    RequestRecord r = RecordCodec.decode(old, 0, old.length);
    assertEquals(-1, r.reasoningTokens());
    assertEquals(-1, r.toolCallNanos());
    assertEquals(0, r.toolCalls());
    assertEquals(RequestRecord.SCHEMA_NOT_ASKED, r.schemaCheck());
  }
}
