package dev.gatlingllm.internal.sweep;

import static dev.gatlingllm.LlmDsl.arrivals;
import static dev.gatlingllm.LlmDsl.awaitArrival;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.testing.StrictServer;
import io.gatling.javaapi.core.Simulation;

/**
 * A DSL simulation repeated by {@code sweep repeat --simulation}: its arrivals are seeded with
 * the run's {@code -Dllm.seed}, as the README tells users to, and it says which seed it got.
 */
public class RepeatedSimulation extends Simulation {

  {
    long seed = Long.getLong(ForkedRun.SEED_PROPERTY, 0);
    System.out.println("repeated simulation seed=" + seed);
    ArrivalProfile profile = arrivals().seed(seed).numPrompts(6).requestRate(40).build();
    var protocol = llm().baseUrl(System.getProperty("it.baseUrl")).model(StrictServer.MODEL)
        .arrivals(profile);
    setUp(scenario("repeated")
            .exec(awaitArrival())
            .exec(completions("gen").prompt("a b c").promptTokens(3).maxTokens(4))
            .injectOpen(protocol.injection()))
        .protocols(protocol);
  }
}
