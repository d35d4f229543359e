package ${package};

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * A serving benchmark as {@code vllm bench serve} runs it: prompts of vLLM's random dataset,
 * Poisson arrivals, streamed completions; vLLM's summary, result JSON and the LLM report.
 *
 * <p>Against your server: {@code mvn gatling:test -Dllm.baseUrl=http://host:8000
 * -Dllm.model=<served model>}. Without {@code llm.baseUrl} it benchmarks the plugin's embedded
 * vLLM-like simulator (a try-out).
 */
public class LlmBenchmarkSimulation extends Simulation {

  private final String baseUrl = System.getProperty("llm.baseUrl");
  private final Simulator simulator = baseUrl == null
      ? Simulator.start(SimulatorConfig.builder()
          .ttft(Duration.ofMillis(60)).itl(Duration.ofMillis(12)).build())
      : null;

  private final String model = System.getProperty("llm.model", "sim-model");
  private final int numPrompts = Integer.getInteger("llm.numPrompts", 100);
  // GPT-2 by default; a tokenizer.json path or a Hugging Face model id for your model's
  private final String tokenizerId = System.getProperty("llm.tokenizer", "gpt2");
  private final Tokenizer tokenizer = Tokenizer.resolve(
      tokenizerId.equals("gpt2") ? "" : tokenizerId);

  private final Samples prompts = Datasets.random()
      .inputLen(256).outputLen(64).numPrompts(numPrompts).seed(0)
      .sample(tokenizer);
  private final ArrivalProfile profile = arrivals()
      .numPrompts(numPrompts)
      .requestRate(Double.parseDouble(System.getProperty("llm.requestRate", "10")))
      .seed(0)
      .build();

  {
    setUp(scenario("benchmark")
            .feed(prompts.feeder())
            .exec(awaitArrival())
            .exec(completions("completions").fromDataset().ignoreEos(true))
            .injectOpen(injection(profile)))
        .protocols(llm()
            .baseUrl(baseUrl != null ? baseUrl : simulator.baseUrl())
            .model(model)
            .arrivals(profile)
            .tokenCounter(tokenizerId, tokenizer::count)
            .results(results().label("benchmark")))
        .assertions(details("completions").failedRequests().percent().lt(1.0));
  }

  @Override
  public void after() {
    writeResults(this);
    if (simulator != null) {
      simulator.close();
    }
  }
}
