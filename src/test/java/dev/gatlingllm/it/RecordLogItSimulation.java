package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.arrivals;
import static dev.gatlingllm.LlmDsl.awaitArrival;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import io.gatling.javaapi.core.Simulation;

/**
 * A paced run whose settings reach every part of the result JSON (label, metadata,
 * percentiles, goodput, detailed arrays, arrival keys), for the record log's tests. An
 * {@code Authorization} header comes from {@code it.authorization} when set.
 */
public class RecordLogItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final String NUM_PROMPTS = "it.numPrompts";
  static final String RATE = "it.rate";
  static final String AUTHORIZATION = "it.authorization";

  {
    ArrivalProfile profile = arrivals().seed(7).numPrompts(Integer.getInteger(NUM_PROMPTS, 12))
        .requestRate(Double.parseDouble(System.getProperty(RATE, "20"))).build();
    LlmProtocolBuilder protocol = llm().baseUrl(System.getProperty(BASE_URL))
        .model("org/served-llm").servedModelName("served-llm").noWarmUp().arrivals(profile)
        .results(results().label("rec").detailed(true).metadataPairs("tp=1")
            .percentileMetrics("ttft,tpot,itl,e2el").metricPercentiles("50,99")
            .goodput("ttft:1000"));
    if (System.getProperty(AUTHORIZATION) != null) {
      protocol = protocol.header("Authorization", System.getProperty(AUTHORIZATION));
    }
    protocol = protocol
        .arrivals(profile);
    setUp(scenario("rec")
            .exec(awaitArrival())
            .exec(completions("gen").prompt("a b c").promptTokens(3).maxTokens(6))
            .injectOpen(protocol.injection()))
        .protocols(protocol);
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
  }
}
