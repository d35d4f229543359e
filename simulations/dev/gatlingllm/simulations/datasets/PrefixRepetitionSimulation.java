package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Prompts that share a few prefixes, for prefix caching: {@code vllm bench serve
 * --dataset-name prefix_repetition --prefix-repetition-prefix-len 96
 * --prefix-repetition-suffix-len 32 --prefix-repetition-num-prefixes 4
 * --prefix-repetition-output-len 16 --num-prompts 40}.
 *
 * <p>Each prompt is one of 4 random 96-token prefixes followed by its own random 32-token
 * suffix. The feeder key {@code prefix_id} names the prefix; here it names a Gatling group, so
 * the HTML report shows each prefix's requests on their own rows.
 *
 * <pre>
 * ./mvnw -B gatling:test -Dgatling.simulationClass=dev.gatlingllm.simulations.datasets.PrefixRepetitionSimulation
 * </pre>
 * Add {@code -Dllm.baseUrl=... -Dllm.model=... -Dllm.tokenizer=...} for a real server
 * (see {@link ExampleTarget}).
 */
public class PrefixRepetitionSimulation extends Simulation {

  {
    var samples = prefixRepetition()
        .prefixLen(96)
        .suffixLen(32)
        .numPrefixes(4)
        .outputLen(16)
        .numPrompts(40)
        .sample(tokenizer(ExampleTarget.tokenizerId()));
    setUp(scenario("prefix_repetition")
            .feed(samples.feeder())
            .group("prefix #{prefix_id}").on(
                completions("prefix_repetition").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(ExampleTarget.baseUrl())
            .model(ExampleTarget.model())
            .results(results().label("prefix_repetition")))
        .assertions(
            global().allRequests().count().is(2L * samples.size()),  // a request and its TTFT
            global().failedRequests().count().is(0L));
  }
}
