package dev.gatlingllm.internal.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sim.SimulatorConfig;
import java.util.HashSet;
import java.util.LongSummaryStatistics;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The simulator's jitter as a function: {@code --jitter f} multiplies every delay by its own
 * uniform factor in [1 - f, 1 + f], drawn from a stream fixed by the seed and the request's
 * number. No network and no clock: the delays are checked to the nanosecond.
 */
public class JitterTest {

  private static final long MS = 1_000_000L;
  private static final long TTFT = 60 * MS;

  private static SimulatorConfig config(double jitter, long seed) {
    return SimulatorConfig.builder().jitter(jitter).seed(seed).build();
  }

  private static long[] draws(SimulatorConfig config, long number, int count) {
    Jitter jitter = Jitter.of(config, number);
    long[] delays = new long[count];
    for (int i = 0; i < count; i++) {
      delays[i] = jitter.apply(TTFT);
    }
    return delays;
  }

  @Test
  void halfJitterKeepsEveryDelayWithinHalfToOneAndAHalfTimesAndFillsThatBand() {
    LongSummaryStatistics stats = new LongSummaryStatistics();
    for (int request = 0; request < 1000; request++) {
      // the first token and four gaps of each request
      for (long delay : draws(config(0.5, 42), request, 5)) {
        assertTrue(delay >= 30 * MS && delay <= 90 * MS, "request " + request + ": " + delay);
        stats.accept(delay);
      }
    }
    // 5000 uniform draws reach within a millisecond of both edges, and centre on 60 ms.
    assertTrue(stats.getMin() < 31 * MS, "lowest " + stats.getMin());
    assertTrue(stats.getMax() > 89 * MS, "highest " + stats.getMax());
    assertEquals(60.0, stats.getAverage() / MS, 1.0);
  }

  @Test
  void fullJitterSpansZeroToTwiceTheDelay() {
    LongSummaryStatistics stats = new LongSummaryStatistics();
    for (int request = 0; request < 1000; request++) {
      for (long delay : draws(config(1.0, 3), request, 5)) {
        stats.accept(delay);
      }
    }
    assertTrue(stats.getMin() >= 0 && stats.getMin() < 2 * MS, "lowest " + stats.getMin());
    assertTrue(stats.getMax() <= 120 * MS && stats.getMax() > 118 * MS, "highest " + stats.getMax());
  }

  @Test
  void everyDelayGetsItsOwnFactor() {
    Set<Long> withinOneRequest = new HashSet<>();
    for (long delay : draws(config(0.5, 42), 0, 100)) {
      withinOneRequest.add(delay);
    }
    assertEquals(100, withinOneRequest.size());

    Set<Long> firstTokenOfEachRequest = new HashSet<>();
    for (int request = 0; request < 100; request++) {
      firstTokenOfEachRequest.add(draws(config(0.5, 42), request, 1)[0]);
    }
    assertEquals(100, firstTokenOfEachRequest.size());
  }

  @Test
  void theSeedAndTheRequestNumberFixTheDraws() {
    long[] reference = draws(config(0.5, 42), 7, 50);
    assertArrayEquals(reference, draws(config(0.5, 42), 7, 50), "same seed, same request");
    long[] otherSeed = draws(config(0.5, 43), 7, 50);
    long[] otherRequest = draws(config(0.5, 42), 8, 50);
    for (int i = 0; i < 50; i++) {
      assertNotEquals(reference[i], otherSeed[i], "draw " + i + " with another seed");
      assertNotEquals(reference[i], otherRequest[i], "draw " + i + " of another request");
    }
  }

  @Test
  void withoutJitterEveryDelayIsExact() {
    Jitter none = Jitter.of(config(0, 42), 5);
    for (int i = 0; i < 10; i++) {
      assertEquals(TTFT, none.apply(TTFT));
    }
  }

  @Test
  void aZeroDelayStaysZeroAndUsesNoDraw() {
    Jitter a = Jitter.of(config(0.5, 42), 1);
    Jitter b = Jitter.of(config(0.5, 42), 1);
    assertEquals(0, a.apply(0));
    // with ITL 0 the gaps draw nothing: the next real delay gets the stream's first factor
    assertEquals(b.apply(TTFT), a.apply(TTFT));
  }
}
