package dev.gatlingllm.bench;

import dev.gatlingllm.internal.metrics.MetricsCalculator;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RequestRecord;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Measures what the {@link RecordStore} keeps on the heap per request and per token, for a
 * run of at least 10 million streamed tokens, in three text modes: texts not kept, texts
 * spilled to disk (budget 0) and texts all on the heap. Not a test: run it with
 *
 * <pre>
 * ./mvnw -B -q test-compile exec:java \
 *   -Dexec.mainClass=dev.gatlingllm.bench.RecordStoreMemoryBench \
 *   -Dexec.args="80000 128 4 2"
 * </pre>
 *
 * Arguments: requests, tokens (content chunks) per request, characters per token, writer
 * threads. Heap figures are the retained heap after full GCs, before minus after.
 */
public final class RecordStoreMemoryBench {

  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private RecordStoreMemoryBench() {}

  public static void main(String[] args) throws Exception {
    int requests = args.length > 0 ? Integer.parseInt(args[0]) : 80_000;
    int tokens = args.length > 1 ? Integer.parseInt(args[1]) : 128;
    int charsPerToken = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    long totalTokens = (long) requests * tokens;
    System.out.printf(Locale.ROOT, "RecordStore memory: %,d requests x %d tokens = %,d tokens, "
        + "%d chars/token, %d writer threads, JVM %s, max heap %,d MiB%n", requests, tokens,
        totalTokens, charsPerToken, threads, System.getProperty("java.vm.version"),
        Runtime.getRuntime().maxMemory() >> 20);
    Path spillDir = Files.createTempDirectory("record-store-bench");
    // warm-up: class loading, JIT and thread pools must not count as retained heap
    measure("warm-up", requests / 10, tokens, charsPerToken, threads, spillDir, false);
    long full = 0;
    for (String mode : List.of("texts not kept", "texts spilled (budget 0)", "texts on heap")) {
      long retained = measure(mode, requests, tokens, charsPerToken, threads, spillDir, true);
      full = full == 0 ? retained : full;
    }
    // a second token count separates the per-request from the per-token cost
    int fewer = Math.max(1, tokens / 8);
    long small = measure("texts not kept", requests, fewer, charsPerToken, threads, spillDir,
        true);
    double perToken = (full - small) / (double) requests / (tokens - fewer);
    double perRequest = full / (double) requests - perToken * tokens;
    System.out.printf(Locale.ROOT, "fit (texts not kept, %d vs %d tokens): %.1f B per request "
        + "+ %.2f B per token%n", tokens, fewer, perRequest, perToken);
    Files.deleteIfExists(spillDir);
  }

  private static long measure(String mode, int requests, int tokens, int charsPerToken,
      int threads, Path spillDir, boolean print) throws Exception {
    long maxHeapChars = mode.startsWith("texts spilled") ? 0 : Long.MAX_VALUE;
    boolean keepText = !mode.equals("texts not kept") && !mode.equals("warm-up");
    long before = usedAfterGc();
    RecordStore store = new RecordStore(maxHeapChars, spillDir);
    long t0 = System.nanoTime();
    fill(store, requests, tokens, charsPerToken, threads, keepText);
    long addNanos = System.nanoTime() - t0;
    RecordStore.Snapshot snapshot = store.snapshot();
    long after = usedAfterGc();
    long retained = after - before;
    long spilled = store.spilledTextBytes();

    // read everything back the way the reporter does: every record, every text
    long t1 = System.nanoTime();
    long chars = 0;
    for (int i = 0; i < snapshot.size(); i++) {
      String text = snapshot.text(i);
      chars += text == null ? 0 : text.length();
    }
    long readNanos = System.nanoTime() - t1;
    long t2 = System.nanoTime();
    MetricsCalculator.builder().percentiles(50, 90, 99, 99.9).build()
        .compute(snapshot, 60.0, 0);
    long computeNanos = System.nanoTime() - t2;

    long totalTokens = (long) requests * tokens;
    store.close();
    if (!print) {
      return retained;
    }
    System.out.printf(Locale.ROOT, "%-26s %3d tok/req: heap %,8.1f MiB = %7.1f B/request = %5.2f B/token; "
        + "spill file %,7.1f MiB; filled at %,6.0f ns/record (%d threads, building it included); "
        + "read back %,d chars "
        + "in %,d ms; metrics in %,d ms%n", mode, tokens, retained / 1048576.0,
        retained / (double) requests, retained / (double) totalTokens, spilled / 1048576.0,
        addNanos / (double) requests, threads, chars, readNanos / 1_000_000,
        computeNanos / 1_000_000);
    return retained;
  }

  private static void fill(RecordStore store, int requests, int tokens, int charsPerToken,
      int threads, boolean keepText) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(pool.submit(() -> {
        go.await();
        StringBuilder text = new StringBuilder(tokens * charsPerToken);
        for (int i = thread; i < requests; i += threads) {
          int[] chunks = new int[tokens];
          int at = 50_000 + (i % 1000);
          text.setLength(0);
          for (int k = 0; k < tokens; k++) {
            chunks[k] = at;
            at += 8_000 + (k * 31 + i) % 4_000;
            // a token of charsPerToken characters, starting with a space like BPE pieces
            text.append(' ');
            for (int c = 1; c < charsPerToken; c++) {
              text.append((char) ('a' + (i + k + c) % 26));
            }
          }
          long start = i * 1_000_000L;
          store.add(RequestRecord.builder("chat").startNanos(start).ttftNanos(chunks[0] * 1000L)
              .latencyNanos(chunks[tokens - 1] * 1000L)
              .endNanos(start + chunks[tokens - 1] * 1000L + 1000).chunkMicros(chunks)
              .promptTokens(256).usagePromptTokens(256).outputTokens(tokens).httpStatus(200)
              .success(true).generatedText(keepText ? text.toString() : null).build());
        }
        return null;
      }));
    }
    go.countDown();
    for (Future<?> f : done) {
      f.get(10, TimeUnit.MINUTES);
    }
    pool.shutdown();
  }

  private static long usedAfterGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(100);
      used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
