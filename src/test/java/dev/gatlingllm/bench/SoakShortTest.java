package dev.gatlingllm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short form of {@link SoakBenchmark} for CI: 200 streams of 2 s, re-issued for 20 s (ten
 * generations of requests on the same connections), sampled every 4 s. Heap after GC may move
 * by 16 MiB, descriptors and connections by a few, threads by 2; no request may fail.
 */
@Timeout(120)
class SoakShortTest {

  @Test
  void twoHundredStreamsForTwentySecondsLeaveNothingBehind() throws Exception {
    int streams = 200;
    SoakBenchmark.Outcome outcome = SoakBenchmark.run(streams, Duration.ofSeconds(20),
        Duration.ofSeconds(4), 40, 50, 2, false);
    assertTrue(outcome.samples().size() >= 5, "sampled every 4 s: " + outcome.samples());
    assertNull(SoakBenchmark.verdict(outcome, streams, 16L << 20), outcome.samples().toString());
    SoakBenchmark.Sample last = outcome.samples().get(outcome.samples().size() - 1);
    assertTrue(last.completed() >= 4L * streams, "streams were re-issued: " + last);
    assertEquals(streams, last.established(), "one kept-alive connection per stream: " + last);
  }
}
