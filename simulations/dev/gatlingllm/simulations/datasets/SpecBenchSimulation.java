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
import dev.gatlingllm.dataset.SpecBenchDataset;
import dev.gatlingllm.dataset.Samples;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Spec-Bench questions for speculative decoding: {@code vllm bench serve --dataset-name
 * spec_bench --dataset-path datasets/spec_bench/spec_bench_sample.jsonl
 * --spec-bench-category summarization --num-prompts 0 --spec-bench-output-len 64}.
 *
 * <p>The prompt is each question's first turn; {@code category} keeps one of Spec-Bench's 13
 * categories and {@code allPrompts()} sends each of its questions once. For the real data,
 * point the path at Spec-Bench's {@code data/spec_bench/question.jsonl}.
 *
 * <pre>
 * ./mvnw -B gatling:test -Dgatling.simulationClass=dev.gatlingllm.simulations.datasets.SpecBenchSimulation
 * </pre>
 * Add {@code -Dllm.baseUrl=... -Dllm.model=... -Dllm.tokenizer=...} for a real server
 * (see {@link ExampleTarget}).
 */
public class SpecBenchSimulation extends Simulation {

  public static final SpecBenchDataset DATASET =
      Datasets.specBench(Path.of("datasets/spec_bench/spec_bench_sample.jsonl"))
          .category("summarization")
          .outputLen(64)
          .allPrompts();

  private final ExampleTarget target = ExampleTarget.fromSystemProperties();
  private final Samples samples = DATASET.sample(target.tokenizer());

  {
    setUp(scenario("spec_bench")
            .feed(samples.feeder())
            .exec(chat("spec_bench").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(target.baseUrl())
            .model(target.model())
            .results(results().label("spec_bench")))
        .assertions(
            details("spec_bench").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
    target.close();
  }
}
