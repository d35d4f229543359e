package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.arrivals;
import static dev.gatlingllm.LlmDsl.awaitArrival;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.Simulation;

/**
 * One benchmark, as a user writes it, for the scale-out test: vLLM's random dataset with
 * varied prompt lengths, seeded Poisson arrivals, optionally a max concurrency. Run once
 * whole and once per injector ({@code -Dllm.injector=K/N}): the split is the plugin's. With
 * the default warm-up, as a real injector runs: a cold JVM would send its first requests late.
 */
public class ScaleOutItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final String NUM_PROMPTS = "it.numPrompts";
  static final String RATE = "it.rate";
  static final String MAX_CONCURRENCY = "it.maxConcurrency";
  static final String SEED = "it.seed";

  {
    int n = Integer.getInteger(NUM_PROMPTS, 60);
    Samples prompts;
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      prompts = Datasets.random().inputLen(64).rangeRatio(0.5).outputLen(8).numPrompts(n)
          .seed(3).sample(gpt2);
    }
    ArrivalProfile.Builder profile = arrivals().numPrompts(n).seed(Long.getLong(SEED, 30))
        .requestRate(Double.parseDouble(System.getProperty(RATE, "20")));
    if (Integer.getInteger(MAX_CONCURRENCY) != null) {
      profile = profile.maxConcurrency(Integer.getInteger(MAX_CONCURRENCY));
    }
    ArrivalProfile arrivals = profile.build();
    var protocol = llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm")
        .arrivals(arrivals)
        .results(results().label("scale").detailed(true)
            .percentileMetrics("ttft,tpot,itl,e2el").metricPercentiles("50,99"));
    setUp(scenario("scale")
            .feed(prompts.feeder())
            .exec(awaitArrival())
            .exec(completions("gen").fromDataset().ignoreEos(true))
            .injectOpen(protocol.injection()))
        .protocols(protocol);
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
  }
}
