package dev.gatlingllm.simulations;

import static dev.gatlingllm.LlmDsl.arrivals;
import static dev.gatlingllm.LlmDsl.awaitArrival;
import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.injection;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.tokenizer.Tokenizer;
import dev.gatlingllm.report.ResultOptions;
import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark {@code ./mvnw gatling:test} runs by default: vLLM's random dataset, Poisson
 * arrivals, streamed requests, vLLM's summary and result JSON.
 *
 * <p>Against your server: {@code -Dllm.baseUrl=http://host:8000 -Dllm.model=<model id>}
 * (and {@code -Dllm.tokenizer=<tokenizer.json path or Hugging Face id>} for exact prompt
 * lengths; GPT-2 otherwise). Without a base URL it starts the embedded simulator and
 * benchmarks it for about 20 seconds. {@code -Dllm.goodput="ttft:100 tpot:20"} sets SLOs and
 * {@code -Dllm.minGoodputPercent=95} turns them into a build gate.
 */
public class QuickStartSimulation extends Simulation {

  private final String baseUrl = System.getProperty("llm.baseUrl");
  private final String endpoint = System.getProperty("llm.endpoint", "completions");
  private final int numPrompts = Integer.getInteger("llm.numPrompts", 200);

  /** Started here rather than in before(): the protocol needs its URL when it is built. */
  private final Simulator simulator = baseUrl == null
      ? Simulator.start(SimulatorConfig.builder()
          .ttft(Duration.ofMillis(60))
          .prefillPerToken(Duration.ofNanos(50_000))
          .itl(Duration.ofMillis(12))
          .jitter(0.1)
          .build())
      : null;

  {
    String model = System.getProperty("llm.model", baseUrl == null ? "sim-model" : null);
    if (model == null) {
      throw new IllegalArgumentException("-Dllm.model=<model id> is required with -Dllm.baseUrl");
    }
    if (!endpoint.equals("completions") && !endpoint.equals("chat")) {
      throw new IllegalArgumentException(
          "-Dllm.endpoint must be completions or chat, got " + endpoint);
    }
    String tokenizerId = System.getProperty("llm.tokenizer", "");
    Tokenizer tokenizer = Tokenizer.resolve(tokenizerId);
    Samples prompts = Datasets.random()
        .inputLen(Integer.getInteger("llm.inputLen", 256))
        .outputLen(Integer.getInteger("llm.outputLen", 64))
        .numPrompts(numPrompts)
        .seed(0)
        .sample(tokenizer);
    ArrivalProfile profile = arrivals()
        .numPrompts(numPrompts)
        .requestRate(Double.parseDouble(System.getProperty("llm.requestRate", "10")))
        .seed(0)
        .build();

    ResultOptions.Builder resultOptions = results()
        .label("quick-start")
        .detailed(Boolean.getBoolean("llm.detailed"))
        .percentileMetrics("ttft,tpot,itl,e2el")
        .metricPercentiles("50,90,99");
    String goodput = System.getProperty("llm.goodput");
    if (goodput != null) {
      resultOptions = resultOptions.goodput(goodput);
    }
    String name = endpoint.equals("chat") ? "chat" : "completions";
    List<Assertion> assertions = new ArrayList<>();
    assertions.add(details(name).failedRequests().percent().lt(1.0));
    if (goodput != null && System.getProperty("llm.minGoodputPercent") != null) {
      // A CI gate: fails the build (after the reports are written) when too few requests
      // meet the SLOs.
      assertions.add(details(name + " goodput").successfulRequests().percent()
          .gte(Double.parseDouble(System.getProperty("llm.minGoodputPercent"))));
    }
    setUp(scenario("quick-start")
            .feed(prompts.feeder())
            .exec(awaitArrival())
            .exec((name.equals("chat") ? chat(name) : completions(name))
                .fromDataset()
                .ignoreEos(true))
            .injectOpen(injection(profile)))
        .protocols(llm()
            .baseUrl(baseUrl != null ? baseUrl : simulator.baseUrl())
            .model(model)
            .arrivals(profile)
            .tokenCounter(tokenizerId.isBlank() ? "gpt2" : tokenizerId, tokenizer::count)
            .results(resultOptions))
        .assertions(assertions);
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
    if (simulator != null) {
      simulator.close();
    }
  }
}
