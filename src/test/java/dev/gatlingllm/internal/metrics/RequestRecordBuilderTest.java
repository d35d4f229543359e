package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A record names what it sets; what it leaves out reads as "not measured". */
class RequestRecordBuilderTest {

  @Test
  void whatIsNotSetWasNotMeasured() {
    RequestRecord r = RequestRecord.builder("gen").startNanos(5_000).error("refused").build();

    assertEquals("gen", r.name());
    assertEquals(5_000, r.scheduledNanos(), "nothing paced it: scheduled at its start");
    assertEquals(5_000, r.endNanos(), "over as it started");
    assertEquals(0, r.waitNanos());
    assertEquals(-1, r.ttftNanos());
    assertEquals(-1, r.latencyNanos());
    assertEquals(-1, r.ttfcNanos());
    assertArrayEquals(new int[0], r.chunkMicros());
    assertEquals(-1, r.promptTokens());
    assertEquals(-1, r.usagePromptTokens());
    assertEquals(-1, r.outputTokens());
    assertEquals(0, r.httpStatus());
    assertFalse(r.success());
    assertEquals("refused", r.error());
    assertNull(r.generatedText());
    assertNull(r.requestId());
    assertEquals(0, r.reasoningChunks());
    assertEquals(0, r.clientQueueNanos(), "no cap held it");
    assertEquals(-1, r.cachedTokens(), "no usage details");
    assertEquals(0.0, r.inputAudioSeconds(), "no audio");
    assertFalse(r.connectionReused());
    assertEquals(-1, r.dnsNanos());
    assertEquals(-1, r.connectNanos());
    assertEquals(-1, r.tlsNanos());
    assertEquals(-1, r.writtenNanos());
    assertEquals(-1, r.headNanos());
    assertFalse(r.cancelled());
  }

  @Test
  void aCopyKeepsEveryValueAndChangesOnlyWhatItSets() {
    int[] chunks = {100, 250, 400};
    RequestRecord r = new RequestRecord("chat", 10, 20, 100_000, 400_000, 500, chunks, 7, 8, 3,
        200, true, null, "a b c", "id-1", 250_000, 1, 4, 3_000, "long_decode", 12, 2.5, 12, 300_000,
        2, 1, RequestRecord.SCHEMA_VALID, false, 40, 50, 60, 70, 80, true, 1);

    assertEquals(r, r.toBuilder().build());
    RequestRecord moved = r.toBuilder().scheduledNanos(1_010).startNanos(1_020).endNanos(1_500)
        .build();
    assertEquals(new RequestRecord("chat", 1_010, 1_020, 100_000, 400_000, 1_500, chunks, 7, 8,
        3, 200, true, null, "a b c", "id-1", 250_000, 1, 4, 3_000, "long_decode", 12, 2.5, 12,
        300_000, 2, 1, RequestRecord.SCHEMA_VALID, false, 40, 50, 60, 70, 80, true, 1), moved);
  }

  @Test
  void aRecordHasAName() {
    assertThrows(NullPointerException.class, () -> RequestRecord.builder(null).build());
  }
}
