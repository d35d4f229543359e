package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import io.gatling.javaapi.core.Simulation;

/**
 * A run that carries secrets every way a user passes them: {@code OPENAI_API_KEY} from the
 * environment and a custom auth header ({@code it.apiKeyHeader}), with every output switched
 * on (warm-up, server-metrics scraping, detailed JSON, LLM report, record log).
 */
public class SecretsItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final String API_KEY_HEADER = "it.apiKeyHeader";

  {
    setUp(scenario("secrets")
            .exec(completions("gen").prompt("a b c").promptTokens(3).maxTokens(4))
            .injectOpen(atOnceUsers(4)))
        .protocols(llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm")
            .header("x-api-key", System.getProperty(API_KEY_HEADER))
            .warmUp(2)
            .results(results().label("secrets").detailed(true)));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
  }
}
