package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;

/**
 * A user's simulation at its plainest: no {@code after()}, no assertion. The plugin writes its
 * results at the JVM's exit, and its verdict is the exit status.
 */
public class OutcomeItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final String MODEL = "it.model";

  {
    setUp(scenario("outcome")
            .exec(completions("gen").prompt("one two three").maxTokens(3))
            .injectOpen(atOnceUsers(3)))
        .protocols(llm().baseUrl(System.getProperty(BASE_URL))
            .model(System.getProperty(MODEL)).noWarmUp());
  }
}
