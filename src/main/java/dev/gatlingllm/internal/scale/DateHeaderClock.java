package dev.gatlingllm.internal.scale;

import dev.gatlingllm.internal.http.AuxHttp;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures the local clock's offset against the target server's clock from its HTTP
 * {@code Date} header, to better than the header's one-second resolution.
 *
 * <p>One probe sent at local time {@code t1} and answered at {@code t2} with a {@code Date}
 * of second {@code S} says the server's clock read somewhere in {@code [S, S+1)} at a moment
 * in {@code [t1, t2]}, so the offset lies in {@code [S - t2, S + 1 - t1)}. The first probe
 * gives an interval about one second wide. Each next probe is timed so that, if the offset
 * were the middle of the interval, it would reach the server exactly on a second boundary:
 * whichever second the server answers with cuts the interval about in half. After {@code k}
 * probes the interval is about {@code 2^-(k-1)} s plus one round trip wide; the loop stops at
 * {@link #DEFAULT_PROBES} probes, at the round trip's resolution, or after
 * {@link #DEFAULT_BUDGET}. The result is the middle of the interval, and its half-width is the
 * uncertainty written into the records.
 *
 * <p>This is as exact as the server's {@code Date}: a server that caches the header for a
 * while (uvicorn, under vLLM, refreshes it every 100 ms) makes its clock look late by up to
 * that much; when the Date headers contradict each other the measurement is refused.
 */
final class DateHeaderClock {

  /** Probes at most: enough to narrow one second to a millisecond. */
  public static final int DEFAULT_PROBES = 12;
  /** Time the measurement may take at most. */
  public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(15);

  private static final long SECOND = 1_000_000_000L;
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);
  /** Only the headers matter; a small body is read to its end to keep the connection. */
  private static final int PROBE_MAX_BODY = 64 << 10;
  /** Probes are timed at least this far ahead, so the sleep can end on time. */
  private static final long AHEAD_NANOS = 20_000_000L;

  /** One answered probe: local send and receive times (epoch ns), the server's second. */
  public record Sample(long sentNanos, long receivedNanos, long serverSecond) {}

  /** Sends one probe. */
  @FunctionalInterface
  public interface Probe {
    Sample send() throws IOException;
  }

  /** The local wall clock, in epoch nanoseconds, and a way to wait for it. */
  public interface LocalClock {
    long epochNanos();

    void sleepUntil(long epochNanos);
  }

  private DateHeaderClock() {}

  /**
   * Measures against {@code baseUrl}'s server, with {@code GET /} (any status: only the
   * {@code Date} header is read).
   *
   * @throws IOException when the server does not answer or sends no valid {@code Date}
   */
  public static ClockOffset measure(URI baseUrl, boolean insecureTls, int maxProbes,
      Duration budget) throws IOException {
    // a redirect would add a second round trip to the probe: the first answer is the one
    AuxHttp request = AuxHttp.get(baseUrl.resolve("/")).connectTimeout(PROBE_TIMEOUT)
        .timeout(PROBE_TIMEOUT).maxBody(PROBE_MAX_BODY).followRedirects(false)
        .insecureTls(insecureTls);
    LocalClock clock = systemClock();
    Probe probe = () -> {
      long sent = clock.epochNanos();
      AuxHttp.Response response = request.send();
      long received = clock.epochNanos();
      String date = response.header("Date").orElseThrow(() -> new IOException(
          response.url() + " answered without a Date header"));
      return new Sample(sent, received, parseDate(date));
    };
    // a first request opens the connection and loads the client: its round trip would
    // otherwise stand for the probes' resolution
    probe.send();
    return estimate(probe, clock, maxProbes, budget);
  }

  /** Epoch second of an HTTP date ({@code Mon, 23 Nov 2026 06:25:33 GMT}). */
  static long parseDate(String date) throws IOException {
    try {
      return ZonedDateTime.parse(date.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
    } catch (DateTimeParseException e) {
      throw new IOException("the server's Date header '" + date + "' is not an HTTP date", e);
    }
  }

  /**
   * The bisection described above, over any probe and clock (tests use simulated ones).
   *
   * @throws IOException           when a probe fails
   * @throws IllegalStateException when the answers contradict each other
   */
  public static ClockOffset estimate(Probe probe, LocalClock clock, int maxProbes,
      Duration budget) throws IOException {
    if (maxProbes < 1) {
      throw new IllegalArgumentException("the clock measurement needs at least 1 probe, got "
          + maxProbes);
    }
    long deadline = clock.epochNanos() + budget.toNanos();
    long lo = Long.MIN_VALUE;
    long hi = Long.MAX_VALUE;
    long minRtt = Long.MAX_VALUE;
    int probes = 0;
    while (probes < maxProbes) {
      if (probes > 0) {
        if (hi - lo <= Math.max(1_000_000L, 2 * minRtt)) {
          break;
        }
        long mid = lo + (hi - lo) / 2;
        long halfRtt = minRtt / 2;
        // the earliest second boundary the probe can still be timed for
        long earliest = clock.epochNanos() + AHEAD_NANOS;
        long boundary = -Math.floorDiv(-(earliest + halfRtt + mid), SECOND) * SECOND;
        long sendAt = boundary - mid - halfRtt;
        if (sendAt > deadline) {
          break;
        }
        clock.sleepUntil(sendAt);
      }
      Sample s = probe.send();
      probes++;
      minRtt = Math.min(minRtt, s.receivedNanos() - s.sentNanos());
      lo = Math.max(lo, s.serverSecond() * SECOND - s.receivedNanos());
      hi = Math.min(hi, (s.serverSecond() + 1) * SECOND - s.sentNanos());
      if (lo > hi) {
        throw new IllegalStateException("the server's Date headers contradict each other (after "
            + probes + " probes the offset would have to be both >= " + lo / 1e6 + " ms and <= "
            + hi / 1e6 + " ms): its clock jumped, or it caches the header");
      }
    }
    return new ClockOffset("date-header", lo + (hi - lo) / 2, (hi - lo + 1) / 2, probes);
  }

  /** {@link java.time.Instant#now()} anchored to {@link System#nanoTime()}, sleeping by parking. */
  static LocalClock systemClock() {
    long anchorNano = System.nanoTime();
    java.time.Instant now = java.time.Instant.now();
    long anchorEpoch = now.getEpochSecond() * SECOND + now.getNano();
    return new LocalClock() {
      @Override
      public long epochNanos() {
        return anchorEpoch + (System.nanoTime() - anchorNano);
      }

      @Override
      public void sleepUntil(long epochNanos) {
        for (long left = epochNanos - epochNanos(); left > 0; left = epochNanos - epochNanos()) {
          if (left > 2_000_000) {
            LockSupport.parkNanos(left - 1_000_000);
          } else {
            Thread.onSpinWait();
          }
        }
      }
    };
  }
}
