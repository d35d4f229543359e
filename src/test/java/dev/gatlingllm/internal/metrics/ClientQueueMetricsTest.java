package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * vLLM 0.29's {@code client_queue_time} and {@code e2el_including_client_queue}: the wait for a
 * {@code --max-concurrency} permit of each successful request, and its E2EL plus that wait.
 * Expected values are worked out by hand in the comments.
 */
class ClientQueueMetricsTest {

  private static final long MS = 1_000_000;
  private static final double[] P99 = {99};

  private static RequestRecord done(long latencyMs, long queueMs) {
    return RequestRecord.builder("gen").startNanos(1_000 * MS).ttftNanos(10 * MS)
        .latencyNanos(latencyMs * MS).chunkMicros(new int[] {10_000, (int) (latencyMs * 1_000)})
        .outputTokens(2).httpStatus(200).success(true).clientQueueNanos(queueMs * MS).build();
  }

  private static Latencies figures(List<RequestRecord> records) {
    return LatencySamples.of(RecordSource.of(records),
        IntStream.range(0, records.size()).toArray(), i -> 2).figures(P99);
  }

  @Test
  void queueTimesAndE2elWithTheQueueOfTheSuccessfulRequests() {
    Latencies l = figures(List.of(done(100, 0), done(200, 50), done(300, 250),
        // failed: its long wait counts in no distribution, as its E2EL does not
        RequestRecord.builder("gen").startNanos(0).error("HTTP 500").httpStatus(500)
            .clientQueueNanos(999 * MS).build()));

    // queue times 0, 50, 250 ms: mean 100, median 50,
    // std sqrt((100² + 50² + 150²) / 3) = sqrt(11666.67) = 108.0123,
    // p99: rank 0.99 · 2 = 1.98, so 50 + 0.98 · (250 − 50) = 246
    Distribution q = l.distribution(Metric.CLIENT_QUEUE_TIME);
    assertEquals(100.0, q.mean(), 1e-9);
    assertEquals(50.0, q.median(), 1e-9);
    assertEquals(108.0123, q.std(), 1e-4);
    assertEquals(246.0, q.percentiles().get(0).valueMs(), 1e-9);

    // E2EL + queue: 100, 250, 550 ms: mean 300, median 250,
    // std sqrt((200² + 50² + 250²) / 3) = sqrt(35000) = 187.0829,
    // p99: 250 + 0.98 · (550 − 250) = 544
    Distribution e = l.distribution(Metric.E2EL_INCLUDING_CLIENT_QUEUE);
    assertEquals(300.0, e.mean(), 1e-9);
    assertEquals(250.0, e.median(), 1e-9);
    assertEquals(187.0829, e.std(), 1e-4);
    assertEquals(544.0, e.percentiles().get(0).valueMs(), 1e-9);

    // the E2EL itself keeps the queue out: 100, 200, 300
    assertEquals(200.0, l.e2el().mean(), 1e-9);
  }

  @Test
  void aPoolingRequestsWaitIsMeasuredToo() {
    // embeddings: E2EL 40 and 60 ms, queue waits 10 and 90 ms (a failed request left out)
    BenchmarkMetrics m = MetricsCalculator.builder().taskType(TaskType.EMBEDDING).build()
        .compute(List.of(
            RequestRecord.builder("emb").startNanos(0).latencyNanos(40 * MS).endNanos(40 * MS)
                .httpStatus(200).success(true).clientQueueNanos(10 * MS).build(),
            RequestRecord.builder("emb").startNanos(0).latencyNanos(60 * MS).endNanos(60 * MS)
                .httpStatus(200).success(true).clientQueueNanos(90 * MS).build(),
            RequestRecord.builder("emb").startNanos(0).error("HTTP 500").httpStatus(500)
                .clientQueueNanos(500 * MS).build()), 1.0);
    // queue: mean 50, p99 10 + 0.99 · 80 = 89.2; E2EL + queue: 50 and 150, mean 100,
    // p99 50 + 0.99 · 100 = 149
    assertEquals(50.0, m.distribution(Metric.CLIENT_QUEUE_TIME).mean(), 1e-9);
    assertEquals(89.2, m.distribution(Metric.CLIENT_QUEUE_TIME).percentiles().get(0).valueMs(), 1e-9);
    assertEquals(100.0, m.distribution(Metric.E2EL_INCLUDING_CLIENT_QUEUE).mean(), 1e-9);
    assertEquals(149.0,
        m.distribution(Metric.E2EL_INCLUDING_CLIENT_QUEUE).percentiles().get(0).valueMs(), 1e-9);
    assertEquals(50.0, m.e2el().mean(), 1e-9);
  }

  @Test
  void withoutACapTheQueueIsZeroAndTheTwoE2elsAgree() {
    Latencies l = figures(List.of(done(120, 0), done(80, 0)));
    Distribution q = l.clientQueue();
    assertEquals(0.0, q.mean());
    assertEquals(0.0, q.std());
    assertEquals(0.0, q.percentiles().get(0).valueMs());
    assertEquals(l.e2el().mean(), l.e2elIncludingClientQueue().mean(), 1e-12);
    assertEquals(l.e2el().percentiles().get(0).valueMs(),
        l.e2elIncludingClientQueue().percentiles().get(0).valueMs(), 1e-12);
  }

  @Test
  void bothAreNamesOfPercentileMetrics() {
    assertEquals(List.of(Metric.E2EL, Metric.CLIENT_QUEUE_TIME,
            Metric.E2EL_INCLUDING_CLIENT_QUEUE),
        Metric.parseList("e2el,client_queue_time,e2el_including_client_queue"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Metric.parseList("ttft,client_queue"));
    assertTrue(e.getMessage().contains("\"client_queue_time\""), e.getMessage());
  }
}
