package dev.gatlingllm.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sim.Fault;
import dev.gatlingllm.sim.SimulatorConfig;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Admission order and counters, without any networking. */
class ServerStateTest {

  final ServerState state = new ServerState(2);

  Generation generation() {
    long number = state.arrive();
    return new Generation(null, SimulatorConfig.defaults(), state, new TimerLateness(),
        new GenerationRequest(false, true, false, 1, 4), number, Set.of(), null,
        ResponseConnection.KEEP, () -> { });
  }

  @Test
  void slotsGoToWaitingRequestsInArrivalOrder() {
    Generation a = generation();
    Generation b = generation();
    Generation c = generation();
    Generation d = generation();
    Generation e = generation();
    assertTrue(state.submit(a));
    assertTrue(state.submit(b));
    assertFalse(state.submit(c));
    assertFalse(state.submit(d));
    assertFalse(state.submit(e));
    ServerState.Snapshot s = state.snapshot();
    assertEquals(5, s.received());
    assertEquals(5, s.inFlight());
    assertEquals(2, s.running());
    assertEquals(3, s.waiting());

    assertNull(state.finish(d), "a queued request leaving frees no slot");
    assertSame(c, state.finish(b));
    assertSame(e, state.finish(a));
    assertNull(state.finish(c));
    assertNull(state.finish(e));

    s = state.snapshot();
    assertEquals(0, s.inFlight());
    assertEquals(0, s.running());
    assertEquals(0, s.waiting());
    assertEquals(5, s.maxInFlight());
    assertEquals(2, s.maxRunning());
  }

  @Test
  void resetKeepsWhatIsOpenAsTheNewMaxima() {
    Generation a = generation();
    state.submit(a);
    generation();
    state.countFault(Fault.STALL);
    state.reset();
    ServerState.Snapshot s = state.snapshot();
    assertEquals(0, s.received());
    assertEquals(2, s.maxInFlight());
    assertEquals(1, s.maxRunning());
    assertEquals(0, s.faults(Fault.STALL));
    assertEquals(0, state.arrive(), "numbering starts over");
  }
}
