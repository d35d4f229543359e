package dev.gatlingllm.internal.sim;

import dev.gatlingllm.internal.protocol.StandInServer;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.time.Duration;

/**
 * The simulator as the run path's stand-in server (its warm-up without warm-up requests):
 * registered in {@code META-INF/services}, so that the run path needs no simulator class.
 */
public final class StandInFactory implements StandInServer.Factory {

  @Override
  public StandInServer start(Duration ttft, Duration itl) {
    // any model name: the stand-in answers whatever the run's requests name
    Simulator simulator = Simulator.start(SimulatorConfig.builder().host("127.0.0.1").port(0)
        .ttft(ttft).itl(itl).anyModel(true).build());
    return new StandInServer() {
      @Override
      public String baseUrl() {
        return simulator.baseUrl();
      }

      @Override
      public void close() {
        simulator.close();
      }
    };
  }
}
