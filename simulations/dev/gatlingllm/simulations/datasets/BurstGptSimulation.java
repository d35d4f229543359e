package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Request and response sizes of a production trace: {@code vllm bench serve --dataset-name
 * burstgpt --dataset-path datasets/burstgpt/burstgpt_sample.csv --num-prompts 40}.
 *
 * <p>Each request is a GPT-4 row of the trace: a synthetic prompt of exactly the row's
 * {@code Request tokens}, and its {@code Response tokens} as {@code max_tokens}. vLLM sends
 * them at {@code --request-rate}; this example goes further and also replays the rows'
 * {@code Timestamp}s (feeder key {@code timestamp}), 100 times faster than the trace.
 *
 * <pre>
 * ./mvnw -B gatling:test -Dgatling.simulationClass=dev.gatlingllm.simulations.datasets.BurstGptSimulation
 * </pre>
 * Add {@code -Dllm.baseUrl=... -Dllm.model=... -Dllm.tokenizer=...} for a real server
 * (see {@link ExampleTarget}).
 */
public class BurstGptSimulation extends Simulation {

  /** The sample trace spans about 285 s: replayed in about 3 s. */
  private static final double SPEED_UP = 100;

  {
    var samples = burstGpt("datasets/burstgpt/burstgpt_sample.csv")
        .numPrompts(40)
        .sample(tokenizer(ExampleTarget.tokenizerId()));
    setUp(scenario("burstgpt")
            .feed(samples.feeder())
            // Every user starts at once and waits for its row's moment in the trace.
            .pause(session -> Duration.ofMillis(
                Math.round(session.getDouble("timestamp") * 1000 / SPEED_UP)))
            .exec(completions("burstgpt").fromDataset().ignoreEos(true))
            .injectOpen(atOnceUsers(samples.size())))
        .protocols(llm()
            .baseUrl(ExampleTarget.baseUrl())
            .model(ExampleTarget.model())
            .results(results().label("burstgpt")))
        .assertions(
            details("burstgpt").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }
}
