package dev.gatlingllm.internal.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Measuring a clock offset from one-second Date headers, to better than a second. */
class DateHeaderClockTest {

  private static final long S = 1_000_000_000L;
  private static final long MS = 1_000_000L;

  /**
   * A simulated injector and server: the server's clock is {@code offset} ahead; a request
   * takes {@code oneWay} to reach it and as long to come back; sleeping moves time on.
   */
  private static final class World implements DateHeaderClock.LocalClock, DateHeaderClock.Probe {
    long now;
    final long offset;
    final long oneWay;
    int probes;

    World(long start, long offset, long oneWay) {
      this.now = start;
      this.offset = offset;
      this.oneWay = oneWay;
    }

    @Override
    public long epochNanos() {
      return now;
    }

    @Override
    public void sleepUntil(long epochNanos) {
      now = Math.max(now, epochNanos);
    }

    @Override
    public DateHeaderClock.Sample send() {
      probes++;
      long sent = now;
      long serverSecond = Math.floorDiv(now + oneWay + offset, S);
      now += 2 * oneWay;
      return new DateHeaderClock.Sample(sent, now, serverSecond);
    }
  }

  @Test
  void oneProbeBoundsTheOffsetToAboutASecond() throws IOException {
    // sent at 10.3 s, back at 10.31 s, server said second 12: offset in [1.69 s, 2.7 s)
    DateHeaderClock.Probe probe = () -> new DateHeaderClock.Sample(10_300 * MS, 10_310 * MS, 12);
    World clock = new World(10_300 * MS, 0, 0);
    ClockOffset one = DateHeaderClock.estimate(probe, clock, 1, Duration.ofSeconds(5));
    assertEquals(2_195 * MS, one.offsetNanos());
    assertEquals(505 * MS, one.uncertaintyNanos());
    assertEquals(1, one.probes());
    assertEquals("date-header", one.source());
  }

  @Test
  void bisectionNarrowsItToTheRoundTrip() throws IOException {
    for (long offset : new long[] {0, 1, 2_345_678_901L, -7_654_321_987L, 999_999_999L,
        -500 * MS, 37 * S + 250 * MS}) {
      for (long oneWay : new long[] {50_000, 400_000, 3 * MS}) {
        World w = new World(1_700_000_000L * S + 123_456_789L, offset, oneWay);
        ClockOffset c = DateHeaderClock.estimate(w, w, 12, Duration.ofSeconds(15));
        String what = "offset " + offset + ", one way " + oneWay + ": " + c;
        assertTrue(Math.abs(c.offsetNanos() - offset) <= c.uncertaintyNanos(), what);
        assertTrue(c.uncertaintyNanos() <= Math.max(MS, 2 * oneWay) + 2 * oneWay, what);
        assertEquals(w.probes, c.probes());
        assertTrue(c.probes() <= 12, what);
      }
    }
  }

  @Test
  void stopsAtItsProbeCountOrTimeBudget() throws IOException {
    World w = new World(1_700_000_000L * S, 333 * MS, 100_000);
    ClockOffset c = DateHeaderClock.estimate(w, w, 4, Duration.ofSeconds(30));
    assertEquals(4, c.probes());
    // four probes halve about a second three times
    assertTrue(c.uncertaintyNanos() > 50 * MS && c.uncertaintyNanos() < 70 * MS, c.toString());
    World slow = new World(1_700_000_000L * S, 333 * MS, 100_000);
    ClockOffset quick = DateHeaderClock.estimate(slow, slow, 12, Duration.ofMillis(1_500));
    assertTrue(quick.probes() < 12 && slow.now - 1_700_000_000L * S <= 1_600 * MS,
        quick.toString());
    assertThrows(IllegalArgumentException.class,
        () -> DateHeaderClock.estimate(w, w, 0, Duration.ofSeconds(1)));
  }

  @Test
  void contradictoryDateHeadersAreRefused() {
    long[] seconds = {100, 50};
    int[] i = {0};
    World clock = new World(100 * S, 0, 0);
    DateHeaderClock.Probe jumping = () -> {
      long t = clock.now;
      clock.now += MS;
      return new DateHeaderClock.Sample(t, t + MS, seconds[Math.min(i[0]++, 1)]);
    };
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> DateHeaderClock.estimate(jumping, clock, 5, Duration.ofSeconds(5)));
    assertTrue(e.getMessage().contains("contradict"), e.getMessage());
  }

  @Test
  void readsHttpDates() throws IOException {
    assertEquals(1795415133L, DateHeaderClock.parseDate("Mon, 23 Nov 2026 06:25:33 GMT"));
    assertThrows(IOException.class, () -> DateHeaderClock.parseDate("yesterday"));
  }

  @Test
  void measuresTheSimulatorWhichSharesThisMachinesClock() throws IOException {
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().build())) {
      ClockOffset c = DateHeaderClock.measure(URI.create(sim.baseUrl()), false, 4,
          Duration.ofSeconds(30));
      // one clock: the true offset is 0, inside the measured interval (up to the clock
      // readings' own microsecond steps)
      assertTrue(Math.abs(c.offsetNanos()) <= c.uncertaintyNanos() + MS, c.toString());
      // four probes narrow it to about an eighth of a second (a stalled machine may spend
      // the budget on fewer)
      assertTrue(c.probes() < 4 || c.uncertaintyNanos() < 200 * MS, c.toString());
      assertTrue(c.probes() >= 1 && c.uncertaintyNanos() <= 1_100 * MS, c.toString());
    }
  }
}
