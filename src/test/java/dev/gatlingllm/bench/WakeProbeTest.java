package dev.gatlingllm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The host probe the client-truth benchmark prints beside its table. */
class WakeProbeTest {

  @Test
  void summaryLeavesOutTheFirstTenthAndInterpolatesLikeNumpy() {
    double[] micros = new double[20];
    micros[0] = 999; // the child's first reads, still interpreted: left out
    micros[1] = 999;
    for (int i = 2; i < 20; i++) {
      micros[i] = 20 - i; // 18 … 1, out of order on purpose
    }
    // kept: 1 … 18; p50 rank 8.5 -> 9.5; p90 rank 15.3 -> 16.3; p99 rank 16.83 -> 17.83
    assertEquals("wake-up of the client's core (loopback message to a blocked read, 18 of 20 "
        + "messages 1 ms apart): p50 10, p90 16, p99 18, max 18 µs", WakeProbe.summary(micros));
  }

  @Test
  void measuresThroughARealChildProcess() {
    String line = WakeProbe.measure(false, System.getProperty("java.class.path"), 60);
    Matcher m = Pattern.compile("54 of 60 messages 1 ms apart\\): p50 (\\d+), p90 (\\d+), "
        + "p99 (\\d+), max (\\d+) µs").matcher(line);
    assertTrue(m.find(), line);
    long p50 = Long.parseLong(m.group(1));
    long max = Long.parseLong(m.group(4));
    assertTrue(p50 <= max, line);
    assertTrue(max < 10_000_000, line); // a delay, not a difference of unrelated clocks
  }
}
