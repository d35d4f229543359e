package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * {@code results().reportCachedTokens(true)}: twelve completions one after another, each
 * prompt a shared 300-character prefix and a word of its own, so that every prompt after the
 * first finds the prefix in the server's cache.
 */
public class CachedTokensItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";

  private static final String PREFIX = "the same long opening words of every prompt ".repeat(7);

  {
    // no warm-up requests: every prompt the server caches is one of the run's
    var protocol = llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm").noWarmUp()
        .results(results().reportCachedTokens(true));
    setUp(scenario("cached")
            .exec(completions("gen").prompt(s -> PREFIX + "user" + s.userId()).maxTokens(4))
            .injectOpen(rampUsers(12).during(Duration.ofSeconds(2))))
        .protocols(protocol);
  }
}
