package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Any dataset, chosen with the dataset flags of {@code vllm bench serve}. By default:
 * {@value #DEFAULT_ARGS}. Pass others in {@code -Dllm.datasetArgs} (values must not contain
 * spaces):
 *
 * <pre>
 * ./mvnw -B gatling:test -Dgatling.simulationClass=dev.gatlingllm.simulations.datasets.VllmFlagsSimulation \
 *     -Dllm.datasetArgs="--dataset-name sonnet --dataset-path datasets/sonnet/sonnet.txt --num-prompts 20"
 * </pre>
 * Add {@code -Dllm.baseUrl=... -Dllm.model=... -Dllm.tokenizer=...} for a real server
 * (see {@link ExampleTarget}). A flag that is not a dataset flag, or that belongs to another
 * dataset, fails before the run with a message naming it.
 */
public class VllmFlagsSimulation extends Simulation {

  public static final String DEFAULT_ARGS = "--dataset-name random --random-input-len 96 "
      + "--random-output-len 24 --random-range-ratio 0.5 --random-prefix-len 16 "
      + "--num-prompts 40 --seed 7";

  {
    var samples = dataset(
        System.getProperty("llm.datasetArgs", DEFAULT_ARGS).trim().split("\\s+"))
        .sample(tokenizer(ExampleTarget.tokenizerId()));
    setUp(scenario(samples.dataset())
            .feed(samples.feeder())
            .exec(completions("request").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(ExampleTarget.baseUrl())
            .model(ExampleTarget.model())
            .results(results().label(samples.dataset())))
        .assertions(
            details("request").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }
}
