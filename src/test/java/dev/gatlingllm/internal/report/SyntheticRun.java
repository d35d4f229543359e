package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RequestRecord;
import java.nio.file.Path;
import java.util.Random;

/**
 * A seeded, made-up run of any size, for report tests and the report benchmark: Poisson-like
 * starts, TTFT growing with load, ITLs around a mean with occasional stalls, a share of
 * failures with two reasons.
 */
public final class SyntheticRun {

  private SyntheticRun() {}

  /**
   * @param requests    number of requests
   * @param tokens      output tokens (one chunk each) of every successful request
   * @param rate        requests per second
   * @param failedShare share of failed requests, 0 to 1
   * @param origin      nanoTime of the benchmark start
   */
  public static RecordStore store(int requests, int tokens, double rate, double failedShare,
      long origin, long seed) {
    Random random = new Random(seed);
    RecordStore store = new RecordStore();
    double t = 0;
    for (int i = 0; i < requests; i++) {
      t += -Math.log(1 - random.nextDouble()) / rate;
      long start = origin + (long) (t * 1e9);
      if (random.nextDouble() < failedShare) {
        boolean http = random.nextBoolean();
        store.add(RequestRecord.builder("gen").startNanos(start).endNanos(start + 3_000_000L)
            .promptTokens(200 + random.nextInt(300)).httpStatus(http ? 500 : 200)
            .error(http ? "HTTP 500: Internal Server Error"
                : "stream ended after " + random.nextInt(9) + " chunks")
            .requestId("r" + i).build());
        continue;
      }
      int[] chunks = new int[tokens];
      int ttftMicros = 40_000 + random.nextInt(60_000);
      int at = ttftMicros;
      for (int k = 0; k < tokens; k++) {
        if (k > 0) {
          at += 12_000 + random.nextInt(8_000) + (random.nextDouble() < 0.01 ? 60_000 : 0);
        }
        chunks[k] = at;
      }
      long latency = chunks[tokens - 1] * 1000L;
      store.add(RequestRecord.builder("gen").startNanos(start).ttftNanos(ttftMicros * 1000L)
          .latencyNanos(latency).endNanos(start + latency + 200_000).chunkMicros(chunks)
          .promptTokens(200 + random.nextInt(300)).outputTokens(tokens).httpStatus(200)
          .success(true).requestId("r" + i).build());
    }
    return store;
  }

  /** Where a test or benchmark may write a report. */
  public static Path file(Path dir) {
    return dir.resolve(LlmReport.FILE_NAME);
  }
}
