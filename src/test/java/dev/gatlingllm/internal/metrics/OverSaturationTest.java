package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The trend maths and the over-saturation test on hand-built runs, worked out by hand. */
class OverSaturationTest {

  private static final double EPS = 1e-9;

  @Test
  void leastSquaresSlopeAndItsT() {
    // x 0..3, y 1, 3, 2, 5: Sxx 5, Sxy 5.5, slope 1.1; residuals -0.1, 0.8, -1.3, 0.6,
    // RSS 2.7, SE sqrt(2.7 / 2 / 5) = sqrt(0.27), t = 1.1 / 0.519615 = 2.116951
    Trend t = Trend.of(new double[] {0, 1, 2, 3}, new double[] {1, 3, 2, 5}, 4);
    assertEquals(1.1, t.slope(), EPS);
    assertEquals(1.1 / Math.sqrt(0.27), t.t(), EPS);
    assertTrue(Double.isNaN(Trend.of(new double[] {0, 1}, new double[] {0, 1}, 2).t()));
    assertEquals(Double.POSITIVE_INFINITY,
        Trend.of(new double[] {0, 1, 2}, new double[] {1, 2, 3}, 3).t());
  }

  @Test
  void slidingSumsGiveTheSameLineAndNoTrendForAFlatSeries() {
    Trend.Sums sums = new Trend.Sums();
    sums.add(9, 9);
    for (int i = 0; i < 4; i++) {
      sums.add(i, new double[] {1, 3, 2, 5}[i]);
    }
    sums.remove(9, 9);
    assertEquals(1.1, sums.trend().slope(), 1e-9);
    assertEquals(1.1 / Math.sqrt(0.27), sums.trend().t(), 1e-9);
    Trend.Sums flat = new Trend.Sums();
    for (int i = 0; i < 5; i++) {
      flat.add(1000.1 + 0.1 * i, 2);
    }
    assertEquals(0.0, flat.trend().slope());
    assertEquals(0.0, flat.trend().t());
  }

  @Test
  void studentQuantilesAreTheTableValues() {
    // one-sided critical values from any t table
    assertEquals(6.313752, Trend.quantile(0.95, 1), 1e-6);
    assertEquals(2.353363, Trend.quantile(0.95, 3), 1e-6);
    assertEquals(1.812461, Trend.quantile(0.95, 10), 1e-6);
    assertEquals(4.302653, Trend.quantile(0.975, 2), 1e-6);
    assertEquals(3.385185, Trend.quantile(0.999, 30), 1e-6);
  }

  private static RequestRecord request(double start, double end, double ttft) {
    long s = Math.round(start * 1e9);
    long e = Math.round(end * 1e9);
    return RequestRecord.builder("r").scheduledNanos(s).startNanos(s)
        .ttftNanos(Math.round(ttft * 1e9)).latencyNanos(e - s).endNanos(e)
        .chunkMicros(
            new int[] {(int) Math.round(ttft * 1e6), (int) Math.round((end - start) * 1e6)})
        .promptTokens(8).usagePromptTokens(-1).outputTokens(2).httpStatus(200).success(true)
        .build();
  }

  private static final OverSaturation.Options FIVE =
      new OverSaturation.Options(5, 0.95, 0.2, 0.25, 1);

  /**
   * Arrivals every 0.1 s, completions every 0.2 s (at 0.25 + 0.2k), TTFT 0.05 + 0.1k: the
   * server finishes half of what arrives. Window of the 2nd to 6th requests (starts 0.1..0.5):
   * in flight 2, 3, 3, 4, 4 (started minus ended by each start), slope 5 /s, residuals -0.2,
   * 0.3, -0.2, 0.3, -0.2, RSS 0.3, SE sqrt(0.3 / 3 / 0.1) = 1, t 5 (critical 2.353 for 3
   * degrees); backlog 5 x 0.4 = 2 >= 0.2 x 5; TTFT exactly linear (t infinite); one completion
   * in [0.1, 0.3) (0.25) and one in [0.3, 0.5) (0.45). The first window (0..0.4) saw no
   * completion in its first half; the 2nd passes the three tests but has no window before it
   * (a rise must last two windows), nor do the 3rd to 5th. The 6th (starts 0.5..0.9, in flight
   * 4, 5, 5, 6, 6: the same line 2 higher) passes, the first window (in flight 1, 2, 3, 3, 4,
   * slope 7 /s, t 7, backlog 2.8) rose before it, and 6 in flight is more than the 4 at any
   * start before 0.5: over-saturated since 0.9 s.
   */
  @Test
  void backlogThatGrowsWhileCompletionsStayFlatIsDetected() {
    List<RequestRecord> r = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      r.add(request(0.1 * k, 0.25 + 0.2 * k, 0.05 + 0.1 * k));
    }
    OverSaturation.Result res =
        OverSaturation.detect(RecordSource.of(r), TaskType.GENERATION, 0L, FIVE);
    assertTrue(res.detected());
    assertEquals(0.9, res.sinceSeconds(), EPS);
    assertEquals(6, res.windowsTested());
    OverSaturation.Evidence e = res.evidence();
    assertEquals(0.5, e.startSeconds(), EPS);
    assertTrue(e.previousWindowRose());
    assertEquals(6.0, e.inFlightAtEnd(), EPS);
    assertEquals(4.0, e.peakInFlightBefore(), EPS);
    assertEquals(5.0, e.inFlightSlope(), 1e-6);
    assertEquals(5.0, e.inFlightT(), 1e-6);
    assertEquals(2.0, e.backlog(), 1e-6);
    assertEquals(100.0 / 0.1, e.ttftSlopeMsPerS(), 1e-3);
    assertEquals(1, e.completionsFirstHalf());
    assertEquals(1, e.completionsSecondHalf());
  }

  /**
   * The same arrivals served in 0.15 s each: 2 in flight at every start but the first (1), so
   * no trend after the first window. That window (in flight 1, 2, 2, 2, 2 at 0..0.4) comes
   * closest and is the evidence: slope 2 /s, residuals -0.4, 0.4, 0.2, 0, -0.2, RSS 0.4, SE
   * sqrt(0.4 / 3 / 0.1), t = sqrt(3) (under 2.353), backlog 2 x 0.4 = 0.8; TTFT flat.
   */
  @Test
  void aServerThatKeepsUpIsNotMarked() {
    List<RequestRecord> r = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      r.add(request(0.1 * k, 0.1 * k + 0.15, 0.05));
    }
    OverSaturation.Result res =
        OverSaturation.detect(RecordSource.of(r), TaskType.GENERATION, 0L, FIVE);
    assertFalse(res.detected());
    assertNull(res.sinceSeconds());
    assertEquals(6, res.windowsTested());
    assertEquals(0.0, res.evidence().startSeconds(), 1e-9);
    assertEquals(0.8, res.evidence().backlog(), 1e-9);
    assertEquals(Math.sqrt(3), res.evidence().inFlightT(), 1e-9);
    assertEquals(0.0, res.evidence().ttftSlopeMsPerS(), 1e-9);
  }

  /** Flat completions are required: a backlog while completions double is a ramp-up. */
  @Test
  void completionsThatSpeedUpAreARampNotSaturation() {
    List<RequestRecord> r = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      r.add(request(0.1 * k, 0.25 + 0.2 * k, 0.05 + 0.1 * k));
    }
    // a tolerance of 0 still passes 1 then 1; requiring 2 completions in the first half fails
    assertTrue(OverSaturation.detect(RecordSource.of(r), TaskType.GENERATION, 0L,
        new OverSaturation.Options(5, 0.95, 0.2, 0, 1)).detected());
    assertFalse(OverSaturation.detect(RecordSource.of(r), TaskType.GENERATION, 0L,
        new OverSaturation.Options(5, 0.95, 0.2, 0.25, 2)).detected());
  }

  @Test
  void tooFewRequestsForAWindowAreNotTested() {
    List<RequestRecord> r = List.of(request(0, 1, 0.1), request(0.1, 1.1, 0.1));
    OverSaturation.Result res = OverSaturation.detect(RecordSource.of(r), TaskType.GENERATION,
        0L, OverSaturation.Options.DEFAULTS);
    assertEquals(0, res.windowsTested());
    assertNull(res.evidence());
    assertEquals(32, res.windowRequests());
    assertNull(OverSaturation.detect(RecordSource.of(r), TaskType.EMBEDDING, 0L,
        OverSaturation.Options.DEFAULTS));
  }

  @Test
  void automaticWindowGrowsWithTheRun() {
    assertEquals(32, OverSaturation.Options.DEFAULTS.window(80));
    assertEquals(100, OverSaturation.Options.DEFAULTS.window(1000));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new OverSaturation.Options(3, 0.95, 0.2, 0.25, 1)).getMessage().contains("got 3"));
  }

  /**
   * A server that keeps up with Poisson arrivals at 20/s, its TTFT and service time growing
   * with the requests in flight (2 ms of TTFT and 10 ms of service each, as a batching server
   * slows with its batch), over 100 requests: the lulls and returns of the in-flight count
   * passed the in-flight, TTFT and flat-completions tests in 23 of these 50 runs before a
   * rise had to last two windows to a level never seen.
   */
  @Test
  void loadDrivenSwingsOfAServerThatKeepsUpAreNotATrend() {
    int marked = 0;
    for (int seed = 0; seed < 50; seed++) {
      double[][] run = keepingUp(new Random(seed), 100, 0.35, 0.002);
      if (OverSaturation.detect(run[0], run[1], run[2], OverSaturation.Options.DEFAULTS)
          .detected()) {
        marked++;
      }
    }
    assertTrue(marked <= 2, marked + " of 50 runs that kept up were marked over-saturated");
  }

  /** Servers with 8 slots offered 1.5 and 3 times what they finish, from the start or later. */
  @Test
  void serversOfferedMoreThanTheyFinishAreStillMarked() {
    for (double ratio : new double[] {1.5, 3}) {
      for (int before : new int[] {0, 300}) {
        int marked = 0;
        for (int seed = 0; seed < 20; seed++) {
          double[][] run = fifo(new Random(seed), before, 300, ratio);
          OverSaturation.Result r =
              OverSaturation.detect(run[0], run[1], run[2], OverSaturation.Options.DEFAULTS);
          if (r.detected()) {
            marked++;
            assertTrue(r.evidence().previousWindowRose(), r.toString());
            assertTrue(r.evidence().inFlightAtEnd() > r.evidence().peakInFlightBefore());
          }
        }
        assertTrue(marked >= 18,
            "offered " + ratio + "x after " + before + " requests: " + marked + " of 20");
      }
    }
  }

  /** Poisson starts at 20/s; TTFT 50 ms ±30 %, service {@code svc} ±20 %, both grown by load. */
  private static double[][] keepingUp(Random rnd, int n, double svc, double perInFlight) {
    double[] s = new double[n];
    double[] e = new double[n];
    double[] f = new double[n];
    double t = 0;
    for (int i = 0; i < n; i++) {
      t += -Math.log(1 - rnd.nextDouble()) / 20;
      s[i] = t;
      int inFlight = 0;
      for (int j = 0; j < i; j++) {
        inFlight += e[j] > s[i] ? 1 : 0;
      }
      f[i] = 0.05 * (1 + 0.3 * (2 * rnd.nextDouble() - 1)) + perInFlight * inFlight;
      e[i] = s[i] + f[i] + svc * (1 + 0.2 * (2 * rnd.nextDouble() - 1))
          + 5 * perInFlight * inFlight;
    }
    return new double[][] {s, e, f};
  }

  /**
   * 8 slots serving 0.4 s ±20 % first come first served (20 requests/s); {@code before}
   * Poisson arrivals at 60 % of that, then {@code after} at {@code ratio} times it.
   */
  private static double[][] fifo(Random rnd, int before, int after, double ratio) {
    int n = before + after;
    double[] s = new double[n];
    double[] e = new double[n];
    double[] f = new double[n];
    double[] slotFree = new double[8];
    double t = 0;
    for (int i = 0; i < n; i++) {
      t += -Math.log(1 - rnd.nextDouble()) / ((i < before ? 0.6 : ratio) * 20);
      s[i] = t;
      int slot = 0;
      for (int j = 1; j < slotFree.length; j++) {
        slot = slotFree[j] < slotFree[slot] ? j : slot;
      }
      double begin = Math.max(t, slotFree[slot]);
      f[i] = begin - t + 0.05;
      e[i] = begin + 0.4 * (1 + 0.2 * (2 * rnd.nextDouble() - 1));
      slotFree[slot] = e[i];
    }
    return new double[][] {s, e, f};
  }
}
