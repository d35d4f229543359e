package ${package};

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;
import static java.time.Duration.ofMillis;

import io.gatling.javaapi.core.Simulation;

/**
 * A serving benchmark as {@code vllm bench serve} runs it: prompts of vLLM's random dataset,
 * Poisson arrivals, streamed completions; vLLM's summary, result JSON and the LLM report are
 * written into the run folder after the run.
 *
 * <p>Against your server: {@code mvn gatling:test -Dllm.baseUrl=http://host:8000
 * -Dllm.model=<served model>} (and {@code -Dllm.tokenizer=<tokenizer.json path or Hugging Face
 * id>} for exact prompt lengths; GPT-2 otherwise). Without {@code llm.baseUrl} it benchmarks
 * the plugin's embedded vLLM-like simulator (a try-out).
 */
public class LlmBenchmarkSimulation extends Simulation {
  String baseUrl = System.getProperty("llm.baseUrl");
  int numPrompts = Integer.getInteger("llm.numPrompts", 100);
  {
    var tokens = tokenizer(System.getProperty("llm.tokenizer"));   // GPT-2 when unset
    var prompts = random().inputLen(256).outputLen(64).numPrompts(numPrompts).seed(0)
        .sample(tokens);
    var protocol = llm()
        .baseUrl(baseUrl != null ? baseUrl
            : startSimulator(simulator().ttft(ofMillis(60)).itl(ofMillis(12))).baseUrl())
        .model(System.getProperty("llm.model", baseUrl == null ? "sim-model" : null))
        .tokenizer(tokens)                    // counts the output as the prompts were
        .results(results().label("benchmark"))
        .arrivals(arrivals().numPrompts(numPrompts).seed(0)   // Poisson
            .requestRate(Double.parseDouble(System.getProperty("llm.requestRate", "10")))
            .build());
    setUp(scenario("benchmark")
            .feed(prompts.feeder())
            .exec(completions("completions").fromDataset().ignoreEos(true))
            .injectOpen(protocol.injection()))
        .protocols(protocol)
        .assertions(details("completions").failedRequests().percent().lt(1.0));
  }
}
