package dev.gatlingllm.bench;

import static dev.gatlingllm.LlmDsl.arrivals;
import static dev.gatlingllm.LlmDsl.awaitArrival;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.injection;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.metrics.RecordStore;
import dev.gatlingllm.metrics.RequestRecord;
import dev.gatlingllm.protocol.LlmComponents;
import dev.gatlingllm.protocol.LlmRun;
import io.gatling.javaapi.core.Simulation;
import java.util.ArrayList;
import java.util.List;

/**
 * One rung of {@link ClientOverheadLadder}: Poisson arrivals at {@code ladder.rate} req/s,
 * {@code ladder.numPrompts} streamed completions of {@code ladder.outputTokens} tokens each,
 * paced by the plugin's arrival profile, against the simulator at {@code ladder.baseUrl}.
 * Exactly what a user's paced benchmark does, minus writing the vLLM result: after the run
 * the records are handed to the ladder instead.
 */
public class LadderRungSimulation extends Simulation {

  static final String BASE_URL = "ladder.baseUrl";
  static final String RATE = "ladder.rate";
  static final String NUM_PROMPTS = "ladder.numPrompts";
  static final String OUTPUT_TOKENS = "ladder.outputTokens";
  static final String SEED = "ladder.seed";

  private static volatile List<RequestRecord> captured = List.of();

  {
    ArrivalProfile profile = arrivals()
        .numPrompts(Integer.getInteger(NUM_PROMPTS))
        .requestRate(Double.parseDouble(System.getProperty(RATE)))
        .seed(Long.getLong(SEED, 0))
        .build();
    setUp(scenario("ladder")
            .exec(awaitArrival())
            .exec(completions("ladder").prompt("ladder rung").promptTokens(2)
                .maxTokens(Integer.getInteger(OUTPUT_TOKENS)).ignoreEos(true))
            .injectOpen(injection(profile)))
        .protocols(llm().baseUrl(System.getProperty(BASE_URL)).model("sim-model")
            .arrivals(profile));
  }

  /**
   * Takes the run's records and releases the run the way writing results would (client,
   * store, run registry), without computing or printing the vLLM result.
   */
  @Override
  public void after() {
    LlmComponents run = LlmRun.current().orElse(null);
    if (run == null) {
      captured = List.of();
      return;
    }
    RecordStore.Snapshot snapshot = run.store().snapshot();
    List<RequestRecord> records = new ArrayList<>(snapshot.size());
    for (int i = 0; i < snapshot.size(); i++) {
      records.add(snapshot.record(i));
    }
    captured = records;
    run.client().close();
    run.store().close();
    LlmRun.clear(run);
  }

  /** Forgets the last rung's records, so a rung that crashes shows none rather than stale ones. */
  static void reset() {
    captured = List.of();
  }

  /** The records of the last rung that ran in this JVM. */
  static List<RequestRecord> captured() {
    return captured;
  }
}
