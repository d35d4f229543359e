package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Image chat from VisionArena: {@code vllm bench serve --backend openai-chat
 * --dataset-name hf --dataset-path lmarena-ai/VisionArena-Chat --num-prompts 12}, here from
 * the shipped sample in the hub's Parquet layout.
 *
 * <p>Each request is the conversation's first message with its first image, re-encoded as a
 * JPEG data URL in the feeder key {@code mm_content}, sent as chat content parts after the
 * text. Give the hub id instead of the path to download the real dataset (it is large).
 *
 * <pre>
 * ./mvnw -B gatling:test -Dgatling.simulationClass=dev.gatlingllm.simulations.datasets.VisionArenaSimulation
 * </pre>
 * Add {@code -Dllm.baseUrl=... -Dllm.model=... -Dllm.tokenizer=...} for a real server
 * (see {@link ExampleTarget}).
 */
public class VisionArenaSimulation extends Simulation {

  {
    var samples = hf("datasets/hf/visionarena_sample.parquet")
        .hfName("lmarena-ai/VisionArena-Chat")
        .numPrompts(12)
        .sample(tokenizer(ExampleTarget.tokenizerId()));
    setUp(scenario("visionarena")
            .feed(samples.feeder())
            .exec(chat("visionarena").fromDataset().multiModal("#{mm_content}").ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(ExampleTarget.baseUrl())
            .model(ExampleTarget.model())
            .results(results().label("visionarena")))
        .assertions(
            details("visionarena").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }
}
