package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record store's size as records arrive, and the life of its spill file: texts exactly
 * the size of the write buffer, a writer thread that never keeps the JVM alive, and texts
 * that cannot be read once the store is closed (as its javadoc promises).
 */
class SpilledTextLifecycleTest {

  @TempDir
  Path dir;

  private static RequestRecord rec(String text) {
    return RequestRecord.builder("r").startNanos(0).ttftNanos(10).latencyNanos(20).endNanos(30)
        .chunkMicros(new int[] {1}).promptTokens(4).outputTokens(1).httpStatus(200).success(true)
        .generatedText(text).build();
  }

  @Test
  void sizeCountsEveryRecordPastTheFirstArrayGrowth() {
    try (RecordStore store = new RecordStore(1_000, dir)) {
      assertEquals(0, store.size());
      for (int i = 0; i < 3_000; i++) {
        store.add(rec(i % 2 == 0 ? null : "t" + i));
      }
      assertEquals(3_000, store.size());
      RecordSource snap = store.snapshot();
      assertEquals(3_000, snap.size());
      assertEquals("t2999", snap.text(2_999));
      assertEquals(null, snap.text(2_998));
    }
  }

  @Test
  void textsOfExactlyTheBufferSizeRoundTripBetweenSmallerOnes() {
    char[] full = new char[TextSpill.BUFFER_BYTES];
    Arrays.fill(full, 'b');
    String buffer = new String(full);
    try (RecordStore store = new RecordStore(0, dir)) {
      store.add(rec("first"));
      store.add(rec(buffer));
      store.add(rec(buffer.substring(5)));
      store.add(rec("last"));
      RecordSource snap = store.snapshot();
      assertEquals("first", snap.text(0));
      assertEquals(buffer, snap.text(1));
      assertEquals(buffer.substring(5), snap.text(2));
      assertEquals("last", snap.text(3));
      assertEquals(2L * TextSpill.BUFFER_BYTES + 4, store.spilledTextBytes());
    }
  }

  @Test
  void theSpillWriterThreadNeverKeepsTheJvmAlive() {
    try (RecordStore store = new RecordStore(0, dir)) {
      store.add(rec("spilled"));
      store.snapshot();
      Thread writer = Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.getName().equals("gatling-llm-text-spill")).findFirst()
          .orElseThrow(() -> new AssertionError("no spill writer thread"));
      assertTrue(writer.isDaemon());
    }
  }

  @Test
  void aSnapshotCannotReadSpilledTextsAfterTheStoreIsClosed() {
    RecordStore store = new RecordStore(0, dir);
    store.add(rec("spilled"));
    RecordSource snap = store.snapshot();
    assertEquals("spilled", snap.text(0));
    store.close();
    assertThrows(UncheckedIOException.class, () -> snap.text(0));
  }
}
