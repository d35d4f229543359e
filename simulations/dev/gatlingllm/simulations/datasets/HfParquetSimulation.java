package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.HfDataset;
import dev.gatlingllm.dataset.Samples;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * A Hugging Face dataset stored as Parquet: {@code vllm bench serve --dataset-name hf
 * --dataset-path datasets/hf/sharegpt_vicuna_sample.parquet
 * --hf-name Aeala/ShareGPT_Vicuna_unfiltered --num-prompts 30}.
 *
 * <p>The file is shaped like {@code Aeala/ShareGPT_Vicuna_unfiltered} (a {@code conversations}
 * column); {@code hfName} says so, though here the columns alone would tell. Give the hub id
 * instead of the path ({@code Datasets.hf("Aeala/ShareGPT_Vicuna_unfiltered")}) and the
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

  public static final HfDataset DATASET =
      Datasets.hf("datasets/hf/sharegpt_vicuna_sample.parquet")
          .hfName("Aeala/ShareGPT_Vicuna_unfiltered")
          .numPrompts(30);

  private final ExampleTarget target = ExampleTarget.fromSystemProperties();
  private final Samples samples = DATASET.sample(target.tokenizer());

  {
    setUp(scenario("hf")
            .feed(samples.feeder())
            .exec(chat("hf").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(target.baseUrl())
            .model(target.model())
            .results(results().label("hf")))
        .assertions(
            details("hf").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
    target.close();
  }
}
