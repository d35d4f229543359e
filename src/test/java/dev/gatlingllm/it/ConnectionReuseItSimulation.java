package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import io.gatling.javaapi.core.Simulation;

/**
 * {@code it.requests} users at once, one request each, through a concurrency cap of
 * {@code it.concurrency}: each request that ends hands its permit to the next, which finds the
 * connection just released in the pool. No warm-up, so the run's own requests meet the
 * server's connection habits first. Gatling's assertion wants no KO at all.
 */
public class ConnectionReuseItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final String CONCURRENCY = "it.concurrency";
  static final String REQUESTS = "it.requests";
  static final String STREAM = "it.stream";

  {
    setUp(scenario("reuse")
            .exec(completions("gen").prompt("one two three").promptTokens(3).maxTokens(16)
                .ignoreEos(true).stream(Boolean.parseBoolean(System.getProperty(STREAM, "true"))))
            .injectOpen(atOnceUsers(Integer.getInteger(REQUESTS))))
        .protocols(llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm")
            .maxConcurrency(Integer.getInteger(CONCURRENCY)).noWarmUp())
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    GatlingRunner.capture();
    LlmDsl.writeResults(this);
  }
}
