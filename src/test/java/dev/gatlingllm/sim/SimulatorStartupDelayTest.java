package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.sim.SimCommand;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** --startup-delay-ms: the simulator opens its port only after it, as a loading server. */
class SimulatorStartupDelayTest {

  @Test
  void theFlagSetsTheDelayAndRefusesANegativeOne() {
    assertEquals(Duration.ofMillis(1500), SimCommand.parse("--startup-delay-ms", "1500")
        .startupDelay());
    assertEquals(Duration.ZERO, SimCommand.parse().startupDelay());
    assertEquals("--startup-delay-ms must be >= 0, got '-1'", assertThrows(
        IllegalArgumentException.class, () -> SimCommand.parse("--startup-delay-ms", "-1"))
        .getMessage());
  }

  @Test
  void startReturnsWithThePortOpenOnlyAfterTheDelay() {
    long t0 = System.nanoTime();
    try (Simulator sim = Simulator.start(SimulatorConfig.builder()
        .startupDelay(Duration.ofMillis(300)).build())) {
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertTrue(ms >= 300, "started after " + ms + " ms");
      assertTrue(sim.port() > 0);
    }
  }
}
