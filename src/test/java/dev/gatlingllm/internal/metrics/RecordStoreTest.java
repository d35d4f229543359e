package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordStoreTest {

  @TempDir
  Path dir;

  private static RequestRecord rec(String name, String text) {
    return RequestRecord.builder(name).startNanos(0).ttftNanos(10).latencyNanos(20).endNanos(30)
        .chunkMicros(new int[] {1, 2, 3}).promptTokens(4).outputTokens(3).httpStatus(200)
        .success(true).generatedText(text).build();
  }

  private static String textOf(int thread, int i) {
    // mixes multi-byte characters so byte and char lengths differ
    return "t" + thread + "-" + i + " héllo 世界 😀 ".repeat(i % 7);
  }

  @Test
  void concurrentWritersLoseNothingAndEveryTextReadsBack() throws Exception {
    int threads = 4;
    int perThread = 2_000;
    try (RecordStore store = new RecordStore(5_000, dir)) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          go.await();
          for (int i = 0; i < perThread; i++) {
            store.add(rec(thread + "/" + i, textOf(thread, i)));
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
      pool.shutdown();

      RecordStore.Snapshot snap = store.snapshot();
      assertEquals(threads * perThread, snap.size());
      Map<String, Integer> seen = new HashMap<>();
      int spilled = 0;
      for (int i = 0; i < snap.size(); i++) {
        String name = snap.record(i).name();
        String[] parts = name.split("/");
        assertEquals(textOf(Integer.parseInt(parts[0]), Integer.parseInt(parts[1])), snap.text(i),
            name);
        if (snap.record(i).generatedText() == null) {
          spilled++;
        }
        seen.merge(name, 1, Integer::sum);
      }
      assertEquals(threads * perThread, seen.size());
      assertTrue(spilled > threads * perThread * 0.9, "spilled " + spilled);
      assertTrue(store.spilledTextBytes() > 0);
    }
  }

  @Test
  void snapshotIsAFixedView() {
    try (RecordStore store = new RecordStore(0, dir)) {
      store.add(rec("a", "first"));
      RecordStore.Snapshot snap = store.snapshot();
      store.add(rec("b", "second"));
      assertEquals(1, snap.size());
      assertEquals("first", snap.text(0));
      assertThrows(IndexOutOfBoundsException.class, () -> snap.record(1));
      assertEquals("second", store.snapshot().text(1));
    }
  }

  @Test
  void textsStayOnTheHeapUntilTheBudgetIsSpent() {
    try (RecordStore store = new RecordStore(10, dir)) {
      store.add(rec("a", "12345"));
      store.add(rec("b", "12345"));
      store.add(rec("c", "1"));      // would exceed 10 chars: spills
      store.add(rec("d", null));     // nothing kept, nothing spilled
      store.add(rec("e", ""));       // spills too: once spilling, always spilling
      RecordStore.Snapshot snap = store.snapshot();
      assertEquals("12345", snap.record(1).generatedText());
      assertNull(snap.record(2).generatedText());
      assertEquals("1", snap.text(2));
      assertNull(snap.text(3));
      assertEquals("", snap.text(4));
      assertEquals(1, store.spilledTextBytes());
    }
  }

  @Test
  void textsLargerThanTheWriteBufferRoundTrip() {
    String big = "x".repeat(TextSpill.BUFFER_BYTES + 123) + "é";
    try (RecordStore store = new RecordStore(0, dir)) {
      store.add(rec("small", "abc"));
      store.add(rec("big", big));
      store.add(rec("after", "def"));
      RecordStore.Snapshot snap = store.snapshot();
      assertEquals("abc", snap.text(0));
      assertEquals(big, snap.text(1));
      assertEquals("def", snap.text(2));
    }
  }

  @Test
  void closeDeletesTheSpillFileAndRefusesNewRecords() throws IOException {
    RecordStore store = new RecordStore(0, dir);
    store.add(rec("a", "spilled"));
    store.snapshot();
    assertEquals(1, listFiles().size());
    store.close();
    assertEquals(0, listFiles().size());
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> store.add(rec("b", "x")));
    assertTrue(e.getMessage().contains("closed"));
    store.close(); // idempotent
  }

  @Test
  void nothingSpilledMeansNoFile() throws IOException {
    try (RecordStore store = new RecordStore(100, dir)) {
      store.add(rec("a", "kept on heap"));
      store.add(rec("b", null));
      // a snapshot flushes whatever waits to be spilled: here, nothing
      assertEquals("kept on heap", store.snapshot().text(0));
      assertEquals(0, store.spilledTextBytes());
      assertEquals(List.of(), listFiles());
    }
  }

  @Test
  void spilledTextsGoAsUtf8InArrivalOrderToOneFileInTheSpillDirectory() throws IOException {
    try (RecordStore store = new RecordStore(5, dir)) {
      store.add(rec("heap", "héllo"));   // 5 chars: fits the budget
      store.add(rec("one", "wörld"));    // spills
      store.add(rec("two", " 😀"));      // spills after it
      store.snapshot();
      List<Path> files = listFiles();
      assertEquals(1, files.size(), files.toString());
      String name = files.get(0).getFileName().toString();
      assertTrue(name.startsWith("gatling-llm-texts-") && name.endsWith(".bin"), name);
      byte[] expected = "wörld 😀".getBytes(StandardCharsets.UTF_8);
      assertArrayEquals(expected, Files.readAllBytes(files.get(0)));
      assertEquals(expected.length, store.spilledTextBytes());
    }
  }

  @Test
  void rejectsANegativeBudget() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RecordStore(-1, dir));
    assertTrue(e.getMessage().contains("-1"));
  }

  private List<Path> listFiles() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }
}
