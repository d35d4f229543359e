package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Your own prompts, one JSON object per line ({@code {"prompt": ..., "output_len": n}}):
 * {@code vllm bench serve --dataset-name custom --dataset-path
 * datasets/custom/custom_sample.jsonl --num-prompts 0}.
 *
 * <p>{@code allPrompts()} ({@code --num-prompts 0}) sends every line once. {@code max_tokens} is
 * the line's {@code output_len}, else 256; {@code outputLen(n)} ({@code --custom-output-len})
 * sets it for every line. vLLM wraps these prompts in the model's chat template itself; here
 * they go to the chat endpoint, so the server does it.
 *
 * <pre>
 * ./mvnw -B gatling:test -Dgatling.simulationClass=dev.gatlingllm.simulations.datasets.CustomSimulation
 * </pre>
 * Add {@code -Dllm.baseUrl=... -Dllm.model=... -Dllm.tokenizer=...} for a real server
 * (see {@link ExampleTarget}).
 */
public class CustomSimulation extends Simulation {

  {
    var samples = custom("datasets/custom/custom_sample.jsonl")
        .allPrompts()
        .sample(tokenizer(ExampleTarget.tokenizerId()));
    setUp(scenario("custom")
            .feed(samples.feeder())
            .exec(chat("custom").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(ExampleTarget.baseUrl())
            .model(ExampleTarget.model())
            .results(results().label("custom")))
        .assertions(
            details("custom").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }
}
