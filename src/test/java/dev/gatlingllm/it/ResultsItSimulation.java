package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Requests with prompts of varying length, vLLM results written after the run, and optional
 * goodput SLOs gated by a Gatling assertion.
 */
public class ResultsItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final String USERS = "it.users";
  static final String GOODPUT = "it.goodput";
  static final String MIN_GOODPUT_PERCENT = "it.minGoodputPercent";
  /** Where the result JSON goes instead of the run folder. */
  static final String RESULT_DIR = "it.resultDir";
  /** A header sent with every request (name:value), e.g. a secret that must not be written. */
  static final String HEADER = "it.header";
  /** The protocol's serverMetrics(...) path. */
  static final String SERVER_METRICS = "it.serverMetrics";

  {
    String goodput = System.getProperty(GOODPUT);
    var options = results().detailed(true).label("it").percentileMetrics("ttft,tpot,itl,e2el")
        .metricPercentiles("50,90,99,99.9");
    if (goodput != null) {
      options = options.goodput(goodput);
    }
    if (System.getProperty(RESULT_DIR) != null) {
      options = options.resultDir(Path.of(System.getProperty(RESULT_DIR)));
    }
    var protocol = llm().baseUrl(System.getProperty(BASE_URL)).model("org/served-llm")
        .servedModelName("served-llm")
        .results(options);
    if (System.getProperty(HEADER) != null) {
      String[] header = System.getProperty(HEADER).split(":", 2);
      protocol = protocol.header(header[0], header[1]);
    }
    if (System.getProperty(SERVER_METRICS) != null) {
      protocol = protocol.serverMetrics(System.getProperty(SERVER_METRICS));
    }
    var setUp = setUp(scenario("results")
            .exec(completions("gen")
                .prompt(s -> "word ".repeat(1 + (int) (s.userId() % 7)))
                .promptTokens(s -> 1 + (int) (s.userId() % 7))
                .maxTokens(s -> 4 + (int) (s.userId() % 5)))
            .injectOpen(rampUsers(Integer.getInteger(USERS, 30)).during(Duration.ofSeconds(1))))
        .protocols(protocol);
    if (System.getProperty(MIN_GOODPUT_PERCENT) != null) {
      setUp.assertions(details("gen goodput").successfulRequests().percent()
          .gte(Double.parseDouble(System.getProperty(MIN_GOODPUT_PERCENT))));
    }
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
  }
}
