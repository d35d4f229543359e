package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * A Hugging Face dataset stored as Parquet: {@code vllm bench serve --dataset-name hf
 * --dataset-path datasets/hf/sharegpt_vicuna_sample.parquet
 * --hf-name Aeala/ShareGPT_Vicuna_unfiltered --num-prompts 30}.
 *
 * <p>The file is shaped like {@code Aeala/ShareGPT_Vicuna_unfiltered} (a {@code conversations}
 * column); {@code hfName} says so, though here the columns alone would tell. Give the hub id
 * instead of the path ({@code hf("Aeala/ShareGPT_Vicuna_unfiltered")}) and the
 * dataset's Parquet files are downloaded once and cached. Conversations go to the chat
 * endpoint.
 *
 * <pre>
 * ./mvnw -B gatling:test -Dgatling.simulationClass=dev.gatlingllm.simulations.datasets.HfParquetSimulation
 * </pre>
 * Add {@code -Dllm.baseUrl=... -Dllm.model=... -Dllm.tokenizer=...} for a real server
 * (see {@link ExampleTarget}).
 */
public class HfParquetSimulation extends Simulation {

  {
    var samples = hf("datasets/hf/sharegpt_vicuna_sample.parquet")
        .hfName("Aeala/ShareGPT_Vicuna_unfiltered")
        .numPrompts(30)
        .sample(tokenizer(ExampleTarget.tokenizerId()));
    setUp(scenario("hf")
            .feed(samples.feeder())
            .exec(chat("hf").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(ExampleTarget.baseUrl())
            .model(ExampleTarget.model())
            .results(results().label("hf")))
        .assertions(
            details("hf").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }
}
