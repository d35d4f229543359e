package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;
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

  {
    var samples = specBench("datasets/spec_bench/spec_bench_sample.jsonl")
        .category("summarization")
        .outputLen(64)
        .allPrompts()
        .sample(tokenizer(ExampleTarget.tokenizerId()));
    setUp(scenario("spec_bench")
            .feed(samples.feeder())
            .exec(chat("spec_bench").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(ExampleTarget.baseUrl())
            .model(ExampleTarget.model())
            .results(results().label("spec_bench")))
        .assertions(
            details("spec_bench").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }
}
