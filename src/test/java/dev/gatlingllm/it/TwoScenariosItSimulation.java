package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;

/** Two scenarios sharing one protocol with a concurrency cap of 3. */
public class TwoScenariosItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";

  {
    setUp(
        scenario("completions").exec(completions("c").prompt("a b").maxTokens(6))
            .injectOpen(atOnceUsers(10)),
        scenario("chat").exec(chat("ch").prompt("a b").maxTokens(6))
            .injectOpen(atOnceUsers(10)))
        .protocols(llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm").maxConcurrency(3))
        .assertions(global().failedRequests().count().is(0L));
  }
}
