package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Poem lines with a shared beginning, for prefix caching: {@code vllm bench serve
 * --dataset-name sonnet --dataset-path datasets/sonnet/sonnet.txt --sonnet-input-len 300
 * --sonnet-prefix-len 100 --sonnet-output-len 32 --num-prompts 20}.
 *
 * <p>Every prompt is an instruction, the first poem lines (about 100 tokens, the same in every
 * prompt), then randomly drawn lines up to about 300 tokens.
 *
 * <pre>
 * ./mvnw -B gatling:test -Dgatling.simulationClass=dev.gatlingllm.simulations.datasets.SonnetSimulation
 * </pre>
 * Add {@code -Dllm.baseUrl=... -Dllm.model=... -Dllm.tokenizer=...} for a real server
 * (see {@link ExampleTarget}).
 */
public class SonnetSimulation extends Simulation {

  {
    var samples = sonnet("datasets/sonnet/sonnet.txt")
        .inputLen(300)
        .prefixLen(100)
        .outputLen(32)
        .numPrompts(20)
        .sample(tokenizer(ExampleTarget.tokenizerId()));
    setUp(scenario("sonnet")
            .feed(samples.feeder())
            .exec(completions("sonnet").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(ExampleTarget.baseUrl())
            .model(ExampleTarget.model())
            .results(results().label("sonnet")))
        .assertions(
            details("sonnet").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }
}
