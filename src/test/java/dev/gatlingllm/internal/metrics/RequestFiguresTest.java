package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** One request's figures in the units each consumer wants, at their edges. */
class RequestFiguresTest {

  private static RequestRecord record(long scheduled, long start, long ttft, long latency,
      long end, int[] chunks, int prompt, int usagePrompt) {
    return RequestRecord.builder("r").scheduledNanos(scheduled).startNanos(start).ttftNanos(ttft)
        .latencyNanos(latency).endNanos(end).chunkMicros(chunks).promptTokens(prompt)
        .usagePromptTokens(usagePrompt).httpStatus(200).success(true).build();
  }

  @Test
  void millisecondViewsOfTheNanosecondFields() {
    RequestRecord r = record(1_000, 4_000, 12_345_678, 98_765_432, 100_000_000,
        new int[] {12_345, 20_000, 98_765}, 3, -1);
    assertEquals(12.345678, r.ttftMillis(), 1e-12);
    assertEquals(98.765432, r.latencyMillis(), 1e-12);
    assertEquals(7.655, r.itlMillis(0), 1e-12);
    assertEquals(78.765, r.itlMillis(1), 1e-12);
    assertEquals(3_000, r.waitNanos(), "queued 3 µs between its slot and its send");
  }

  @Test
  void embeddingLatencyOfZeroIsKeptNotReplacedByTheExchangeTime() {
    // A measured latency of 0 is a value; only "none measured" (-1) falls back to end - start.
    RequestRecord zero = record(0, 1_000, 0, 0, 5_000_000, new int[0], 3, 3);
    assertEquals(0.0, RequestTimes.embeddingLatencySeconds(zero));
    RequestRecord none = record(0, 1_000, -1, -1, 5_001_000, new int[0], 3, 3);
    assertEquals(0.005, RequestTimes.embeddingLatencySeconds(none), 1e-15);
  }

  @Test
  void aDatasetPromptLengthOfZeroWinsOverUsage() {
    RequestRecord r = record(0, 0, 1, 1, 1, new int[] {0}, 0, 9);
    assertEquals(0, RequestTimes.promptLen(r, TaskType.GENERATION));
    // for embeddings the server's count comes first, also when it is 0
    RequestRecord e = record(0, 0, 1, 1, 1, new int[] {0}, 9, 0);
    assertEquals(0, RequestTimes.promptLen(e, TaskType.EMBEDDING));
    // neither known: 0, never -1
    RequestRecord unknown = record(0, 0, 1, 1, 1, new int[] {0}, -1, -1);
    assertEquals(0, RequestTimes.promptLen(unknown, TaskType.GENERATION));
    assertEquals(9, RequestTimes.promptLen(record(0, 0, 1, 1, 1, new int[] {0}, -1, 9),
        TaskType.GENERATION));
  }

  @Test
  void tpotNeedsTwoTokens() {
    assertEquals(0.0, RequestTimes.tpotSeconds(0.1, 0.5, 1));
    assertEquals(0.4, RequestTimes.tpotSeconds(0.1, 0.5, 2), 1e-15);
    assertEquals(0.1, RequestTimes.tpotSeconds(0.1, 0.5, 5), 1e-15);
  }
}
