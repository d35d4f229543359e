package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.dataset.CustomDataset;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.Samples;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
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

  public static final CustomDataset DATASET =
      Datasets.custom(Path.of("datasets/custom/custom_sample.jsonl"))
          .allPrompts();

  private final ExampleTarget target = ExampleTarget.fromSystemProperties();
  private final Samples samples = DATASET.sample(target.tokenizer());

  {
    setUp(scenario("custom")
            .feed(samples.feeder())
            .exec(chat("custom").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(target.baseUrl())
            .model(target.model())
            .results(results().label("custom")))
        .assertions(
            details("custom").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
    target.close();
  }
}
