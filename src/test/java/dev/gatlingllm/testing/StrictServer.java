package dev.gatlingllm.testing;

import dev.gatlingllm.sim.SimulatorConfig;

/**
 * The server integration tests run against: the embedded simulator behaving as vLLM does where
 * vLLM refuses (an unknown model answered 404 with vLLM's error body, {@code /v1/models}
 * listing only the served name, an unknown path 404), serving a model that is not the
 * simulator's default. A test that sent {@code sim-model} because some default said so would
 * pass against a simulator serving {@code sim-model} and fail against every real server: the
 * stand-in warm-up did, for a session.
 */
public final class StrictServer {

  /** The served model: neither the simulator's default nor any default of the plugin. */
  public static final String MODEL = "served-llm";

  private StrictServer() {}

  /** The simulator's settings, serving {@link #MODEL} strictly (no {@code anyModel}). */
  public static SimulatorConfig.Builder builder() {
    return SimulatorConfig.builder().model(MODEL);
  }
}
