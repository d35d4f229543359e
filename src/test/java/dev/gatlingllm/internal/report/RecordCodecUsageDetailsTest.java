package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.internal.metrics.RequestRecord;
import org.junit.jupiter.api.Test;

/**
 * The cached prompt tokens and the audio clip's length travel in the record log behind the
 * second set of flags, and a record without them costs what it did.
 */
class RecordCodecUsageDetailsTest {

  @Test
  void cachedTokensAndAudioTravelWithTheRecord() {
    RequestRecord r = RequestRecord.builder("gen").startNanos(5).success(true).requestClass("c")
        .cachedTokens(96).inputAudioSeconds(12.345678).build();
    byte[] bytes = RecordCodecTurnTest.encode(r);
    RequestRecord read = RecordCodec.decode(bytes, 0, bytes.length);
    assertEquals(96, read.cachedTokens());
    assertEquals(12.345678, read.inputAudioSeconds(), 1e-9);
    assertEquals("c", read.requestClass());
    // none cached is not "not reported"
    RequestRecord none = RequestRecord.builder("gen").startNanos(5).cachedTokens(0).build();
    byte[] noneBytes = RecordCodecTurnTest.encode(none);
    assertEquals(0, RecordCodec.decode(noneBytes, 0, noneBytes.length).cachedTokens());
  }

  /**
   * Without them not a byte more; with 96 cached tokens: the flags varint (1), then 96 (one
   * 7-bit group), 2 bytes more.
   */
  @Test
  void onlyARecordWithDetailsPaysForThem() {
    RequestRecord.Builder b = RequestRecord.builder("gen").startNanos(5).success(true);
    byte[] plain = RecordCodecTurnTest.encode(b.build());
    assertEquals(-1, RecordCodec.decode(plain, 0, plain.length).cachedTokens());
    byte[] cached = RecordCodecTurnTest.encode(b.cachedTokens(96).build());
    assertEquals(plain.length + 2, cached.length);
  }

  /** A record of an older log (flags byte 8, SUCCESS only) reads with neither. */
  @Test
  void aRecordOfAnOlderLogReadsWithout() {
    byte[] old = {1, 'g', 10, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 8};
    RequestRecord r = RecordCodec.decode(old, 0, old.length);
    assertEquals(-1, r.cachedTokens());
    assertEquals(0.0, r.inputAudioSeconds());
  }
}
