package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;

/**
 * The quick-start's shape: the arrival profile given once, to the protocol, whose
 * {@code injection()} brings the users in; no {@code awaitArrival()}. Poisson arrivals.
 */
public class OneTouchItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final int NUM_PROMPTS = 150;
  static final double RATE = 50;

  {
    var protocol = llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm")
        .arrivals(arrivals().numPrompts(NUM_PROMPTS).requestRate(RATE).seed(42).build());
    setUp(scenario("paced")
            .exec(completions("gen").prompt("a b c").promptTokens(3).maxTokens(4))
            .injectOpen(protocol.injection()))
        .protocols(protocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    GatlingRunner.capture();
    writeResults(this);   // still possible, for the test to read the JSON now
  }
}
