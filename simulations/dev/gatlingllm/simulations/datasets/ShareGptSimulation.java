package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Real conversations: {@code vllm bench serve --dataset-name sharegpt --dataset-path
 * datasets/sharegpt/sharegpt_sample.json --num-prompts 30 --seed 1}.
 *
 * <p>The first turn of a conversation is the prompt; the token count of the reply is the
 * {@code max_tokens} asked for (set {@code outputLen(n)} for {@code --sharegpt-output-len}).
 * Pairs that are too short or too long are pruned as vLLM prunes them.
 *
 * <pre>
 * ./mvnw -B gatling:test -Dgatling.simulationClass=dev.gatlingllm.simulations.datasets.ShareGptSimulation
 * </pre>
 * Add {@code -Dllm.baseUrl=... -Dllm.model=... -Dllm.tokenizer=...} for a real server
 * (see {@link ExampleTarget}).
 */
public class ShareGptSimulation extends Simulation {

  {
    var samples = shareGpt("datasets/sharegpt/sharegpt_sample.json")
        .numPrompts(30)
        .seed(1)
        .sample(tokenizer(ExampleTarget.tokenizerId()));
    setUp(scenario("sharegpt")
            .feed(samples.feeder())
            .exec(completions("sharegpt").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(ExampleTarget.baseUrl())
            .model(ExampleTarget.model())
            .results(results().label("sharegpt")))
        .assertions(
            details("sharegpt").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }
}
