package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.dataset.BurstGptDataset;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.Samples;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
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

  public static final BurstGptDataset DATASET =
      Datasets.burstGpt(Path.of("datasets/burstgpt/burstgpt_sample.csv"))
          .numPrompts(40);

  /** The sample trace spans about 285 s: replayed in about 3 s. */
  private static final double SPEED_UP = 100;

  private final ExampleTarget target = ExampleTarget.fromSystemProperties();
  private final Samples samples = DATASET.sample(target.tokenizer());

  {
    setUp(scenario("burstgpt")
            .feed(samples.feeder())
            // Every user starts at once and waits for its row's moment in the trace.
            .pause(session -> Duration.ofMillis(
                Math.round(session.getDouble(BurstGptDataset.TIMESTAMP) * 1000 / SPEED_UP)))
            .exec(completions("burstgpt").fromDataset().ignoreEos(true))
            .injectOpen(atOnceUsers(samples.size())))
        .protocols(llm()
            .baseUrl(target.baseUrl())
            .model(target.model())
            .results(results().label("burstgpt")))
        .assertions(
            details("burstgpt").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
    target.close();
  }
}
