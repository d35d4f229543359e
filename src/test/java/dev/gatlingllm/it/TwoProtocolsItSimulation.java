package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;

/** Two scenarios, each with an llm() protocol of its own: refused before the run. */
public class TwoProtocolsItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";

  {
    setUp(
        scenario("a").exec(completions("a").prompt("a b").maxTokens(4))
            .injectOpen(atOnceUsers(2))
            .protocols(llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm")
                .noWarmUp()),
        scenario("b").exec(completions("b").prompt("a b").maxTokens(4))
            .injectOpen(atOnceUsers(2))
            .protocols(llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm")
                .noWarmUp()));
  }
}
