package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.dataset.SonnetDataset;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
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

  public static final SonnetDataset DATASET =
      Datasets.sonnet(Path.of("datasets/sonnet/sonnet.txt"))
          .inputLen(300)
          .prefixLen(100)
          .outputLen(32)
          .numPrompts(20);

  private final ExampleTarget target = ExampleTarget.fromSystemProperties();
  private final Samples samples = DATASET.sample(target.tokenizer());

  {
    setUp(scenario("sonnet")
            .feed(samples.feeder())
            .exec(completions("sonnet").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(target.baseUrl())
            .model(target.model())
            .results(results().label("sonnet")))
        .assertions(
            details("sonnet").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
    target.close();
  }
}
