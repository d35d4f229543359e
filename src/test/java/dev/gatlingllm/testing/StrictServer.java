package dev.gatlingllm.testing;

import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.util.List;

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

  /**
   * What a run's requests sent to {@code sim} (recording on): every recorded request but the
   * model check's {@code GET /v1/models}, which every run asks first, and the reads of its
   * {@code /metrics} before and after the run (the speculative-decoding counters).
   */
  public static List<RecordedRequest> runRequests(Simulator sim) {
    return sim.recordedRequests().stream()
        .filter(r -> !(r.method().equals("GET") && (r.path().equals("/v1/models")
            || r.path().equals("/metrics"))))
        .toList();
  }
}
