package dev.gatlingllm.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.internal.servermetrics.GpuSample;
import org.junit.jupiter.api.Test;

/** The simulated GPUs' power and energy, at times given by the test, worked out by hand. */
class GpuPowerTest {

  private static final long S = 1_000_000_000L;

  @Test
  void powerFollowsTheRequestsRunningUpToItsCapAndEnergyIsItsIntegral() {
    // idle 70 W, +25 W a request, at most 200 W; 2 GPUs
    GpuPower gpus = new GpuPower(2, 70, 25, 200, 0);
    gpus.running(2, 1 * S);  // 0-1 s idle: 70 J
    gpus.running(10, 3 * S); // 1-3 s at 70 + 2 * 25 = 120 W: 240 J
    // 3-4 s at min(200, 70 + 250) = 200 W: 200 J; 510 J = 510 000 mJ in all, per GPU
    GpuSample s = GpuSample.of(0, gpus.exposition(4 * S));
    assertEquals(2, s.gpus().size());
    for (GpuSample.Gpu g : s.gpus()) {
      assertEquals(510_000, g.energyMj(), g.toString());
      assertEquals(200, g.powerW(), g.toString());
      assertEquals("sim", g.labels().get("Hostname"));
    }
    assertEquals("1", s.gpus().get(1).labels().get("gpu"));
    // back to idle: 4-6 s at 70 W adds 140 J
    gpus.running(0, 4 * S);
    GpuSample later = GpuSample.of(0, gpus.exposition(6 * S));
    assertEquals(650_000, later.gpus().get(0).energyMj());
    assertEquals(70, later.gpus().get(0).powerW());
  }
}
