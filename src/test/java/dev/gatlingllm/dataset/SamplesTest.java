package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SamplesTest {

  static Samples three() {
    return new Samples("test", List.of(
        new SampleRequest("a", 1, 10, "0"),
        new SampleRequest("b c", 2, 20, "1", Map.of("timestamp", 1.5)),
        new SampleRequest("d e f", 3, 30, "2")));
  }

  @Test
  void feederRecordsHaveExactlyTheDocumentedKeysAndTypes() {
    Map<String, Object> record = three().feeder().next();
    assertEquals(Set.of("prompt", "prompt_len", "output_len", "request_id"), record.keySet());
    assertEquals("a", record.get(SampleRequest.PROMPT));
    assertEquals(Integer.valueOf(1), record.get(SampleRequest.PROMPT_LEN));
    assertEquals(Integer.valueOf(10), record.get(SampleRequest.OUTPUT_LEN));
    assertEquals("0", record.get(SampleRequest.REQUEST_ID));
    Map<String, Object> withExtra = three().records().get(1);
    assertEquals(1.5, withExtra.get("timestamp"));
    assertEquals(5, withExtra.size());
  }

  @Test
  void theFeederGivesEachRecordOnceInOrderThenEnds() {
    Samples samples = three();
    Iterator<Map<String, Object>> feeder = samples.feeder();
    List<Object> prompts = new ArrayList<>();
    while (feeder.hasNext()) {
      prompts.add(feeder.next().get("prompt"));
    }
    assertEquals(List.of("a", "b c", "d e f"), prompts);
    assertThrows(NoSuchElementException.class, feeder::next);
    assertTrue(samples.feederSupplier().get().hasNext(), "each supplied feeder starts over");
    assertEquals(6L, samples.totalPromptTokens());
  }

  @Test
  void theCircularFeederStartsOver() {
    Iterator<Map<String, Object>> feeder = three().circularFeeder();
    List<Object> ids = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      ids.add(feeder.next().get("request_id"));
    }
    assertEquals(List.of("0", "1", "2", "0", "1", "2", "0"), ids);
  }

  @Test
  void oneFeederSharedByManyThreadsHandsOutEveryRecordOnce() throws Exception {
    int records = 5000;
    List<SampleRequest> many = new ArrayList<>();
    for (int i = 0; i < records; i++) {
      many.add(new SampleRequest("p" + i, 1, 1, String.valueOf(i)));
    }
    Iterator<Map<String, Object>> feeder = new Samples("many", many).feeder();
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<List<Object>>> takers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      takers.add(pool.submit(() -> {
        go.await();
        List<Object> taken = new ArrayList<>();
        while (true) {
          try {
            taken.add(feeder.next().get("request_id"));
          } catch (NoSuchElementException done) {
            return taken;
          }
        }
      }));
    }
    go.countDown();
    List<Object> handedOut = new ArrayList<>();
    for (Future<List<Object>> taker : takers) {
      handedOut.addAll(taker.get(30, TimeUnit.SECONDS));
    }
    pool.shutdown();
    // Every hand-out is counted: a record given twice makes the list longer than the set.
    assertEquals(records, handedOut.size(), "records handed out");
    assertEquals(records, new HashSet<>(handedOut).size(), "distinct records handed out");
    assertFalse(feeder.hasNext());
  }

  @Test
  void sampleRequestsValidateTheirValues() {
    assertThrows(IllegalArgumentException.class, () -> new SampleRequest("x", -1, 1, "0"));
    assertThrows(IllegalArgumentException.class, () -> new SampleRequest("x", 1, 0, "0"));
    IllegalArgumentException reserved = assertThrows(IllegalArgumentException.class,
        () -> new SampleRequest("x", 1, 1, "0", Map.of("prompt", "y")));
    assertTrue(reserved.getMessage().contains("'prompt'"), reserved.getMessage());
    assertThrows(NullPointerException.class, () -> new SampleRequest(null, 1, 1, "0"));
  }
}
