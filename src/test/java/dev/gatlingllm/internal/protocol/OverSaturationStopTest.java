package dev.gatlingllm.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.OverSaturation;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The live check on a made-up server: 4 slots, each request holding one 77 ms (TTFT 20 ms),
 * first come first served, so it finishes 52 requests/s; requests arrive evenly. The check
 * runs at 1 s, when some requests have finished and the rest are in flight.
 */
class OverSaturationStopTest {

  private static final long ORIGIN = 5_000_000_000L;
  private static final long MS = 1_000_000L;

  private final RecordStore store = new RecordStore();
  private final AtomicLong clock = new AtomicLong(ORIGIN);
  private final List<String> stops = new ArrayList<>();

  @AfterEach
  void close() {
    store.close();
  }

  /** The run at {@code perSecond} arrivals, seen at 1 s: its requests' tickets, in flight. */
  private List<RunStop.Ticket> runUntilOneSecond(OverSaturationStop watch,
      int perSecond) {
    long[] slotFree = new long[4];
    List<RunStop.Ticket> running = new ArrayList<>();
    for (int k = 0; ORIGIN + k * 1000 * MS / perSecond <= ORIGIN + 1000 * MS; k++) {
      long start = ORIGIN + k * 1000 * MS / perSecond;
      int slot = 0;
      for (int i = 1; i < 4; i++) {
        slot = slotFree[i] < slotFree[slot] ? i : slot;
      }
      long begin = Math.max(start, slotFree[slot]);
      slotFree[slot] = begin + 77 * MS;
      clock.set(start);
      RunStop.Ticket t = watch.sending();
      assertNotSame(RunStop.STOPPED, t);
      long end = begin + 77 * MS;
      if (end <= ORIGIN + 1000 * MS) {
        assertTrue(watch.ended(t));
        store.add(RequestRecord.builder("r").startNanos(start).ttftNanos(begin - start + 20 * MS)
            .latencyNanos(end - start).endNanos(end).outputTokens(12).httpStatus(200)
            .success(true).generatedText("").build());
      } else {
        running.add(t);
      }
    }
    clock.set(ORIGIN + 1000 * MS);
    return running;
  }

  private OverSaturationStop watch() {
    return new OverSaturationStop(store, stops::add, clock::get, OverSaturation.Options.DEFAULTS);
  }

  @Test
  void offeredThreeTimesWhatTheServerFinishesStopsTheRunAndRefusesLaterSends() {
    OverSaturationStop watch = watch();
    List<RunStop.Ticket> running = runUntilOneSecond(watch, 150);
    // 151 starts in [0, 1] s; 4 slots of 77 ms from 0 finish 4 × 12 = 48 by 0.924 s
    assertEquals(48, store.size());
    assertEquals(151 - 48, running.size());
    assertTrue(watch.check());
    assertEquals(1, stops.size());
    assertTrue(stops.get(0).startsWith("--stop-on-over-saturation: over-saturated: in flight +"),
        stops.get(0));
    assertSame(RunStop.STOPPED, watch.sending(), "nothing is sent after the stop");
    assertFalse(watch.check(), "a stopped run is not stopped twice");
    assertEquals(1, stops.size());
    OverSaturationStop.Stop stop = watch.stop();
    assertEquals(48, stop.finished());
    assertEquals(103, stop.inFlight());
    // two requests finish before the results are written and are kept; then the watch closes
    assertTrue(watch.ended(running.get(0)));
    assertTrue(watch.ended(running.get(1)));
    Map<String, Object> json = watch.close(ORIGIN - 500 * MS);
    assertFalse(watch.ended(running.get(2)), "ended after the results: not recorded");
    assertEquals(1.5, (Double) json.get("at_s"), 1e-9);
    assertTrue((Double) json.get("since_s") < 1.5 && (Double) json.get("since_s") > 0.5,
        json.toString());
    assertEquals(48, json.get("requests_finished"));
    assertEquals(103, json.get("requests_in_flight"));
    assertEquals(101, json.get("requests_unfinished"));
    @SuppressWarnings("unchecked")
    Map<String, Object> evidence = (Map<String, Object>) json.get("evidence");
    // the window's times are moved to the benchmark start, 0.5 s before the watch's origin
    assertEquals((Double) json.get("since_s"), (Double) evidence.get("window_end_s"), 1e-9);
  }

  @Test
  void offeredLessThanTheServerFinishesGoesOn() {
    OverSaturationStop watch = watch();
    List<RunStop.Ticket> running = runUntilOneSecond(watch, 20);
    assertFalse(watch.check());
    assertTrue(stops.isEmpty());
    assertNull(watch.stop());
    assertNotSame(RunStop.STOPPED, watch.sending());
    assertNull(watch.close(ORIGIN), "not stopped: nothing to say");
    // starts every 50 ms, each done 77 ms later: those of 0.95 s and 1 s are in flight
    assertEquals(2, running.size());
  }
}
