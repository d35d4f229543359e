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
import dev.gatlingllm.dataset.ShareGptDataset;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
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

  public static final ShareGptDataset DATASET =
      Datasets.shareGpt(Path.of("datasets/sharegpt/sharegpt_sample.json"))
          .numPrompts(30)
          .seed(1);

  private final ExampleTarget target = ExampleTarget.fromSystemProperties();
  private final Samples samples = DATASET.sample(target.tokenizer());

  {
    setUp(scenario("sharegpt")
            .feed(samples.feeder())
            .exec(completions("sharegpt").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(target.baseUrl())
            .model(target.model())
            .results(results().label("sharegpt")))
        .assertions(
            details("sharegpt").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
    target.close();
  }
}
