package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Synthetic prompts of an exact token length: {@code vllm bench serve --dataset-name random
 * --random-input-len 128 --random-output-len 32 --num-prompts 40}.
 *
 * <p>Each prompt is re-encoded until it has exactly 128 tokens of the tokenizer, so the run's
 * {@code total_input_tokens} is 40 × 128 = 5120.
 *
 * <pre>
 * ./mvnw -B gatling:test -Dgatling.simulationClass=dev.gatlingllm.simulations.datasets.RandomSimulation
 * </pre>
 * Add {@code -Dllm.baseUrl=... -Dllm.model=... -Dllm.tokenizer=...} for a real server
 * (see {@link ExampleTarget}).
 */
public class RandomSimulation extends Simulation {

  {
    var samples = random()
        .inputLen(128)
        .outputLen(32)
        .numPrompts(40)
        .seed(0)
        .sample(tokenizer(ExampleTarget.tokenizerId()));
    setUp(scenario("random")
            .feed(samples.feeder())                    // each prompt once, in order
            .exec(completions("random").fromDataset()  // #{prompt}, #{prompt_len}, #{output_len}
                .ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(ExampleTarget.baseUrl())
            .model(ExampleTarget.model())
            .results(results().label("random")))
        .assertions(
            details("random").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }
}
