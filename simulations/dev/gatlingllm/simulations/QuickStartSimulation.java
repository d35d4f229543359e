package dev.gatlingllm.simulations;

import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * The benchmark {@code ./mvnw gatling:test} runs by default.
 *
 * <p>Against your server: {@code -Dllm.baseUrl=http://host:8000 -Dllm.model=<model id>}.
 * Without a base URL it starts the embedded simulator and benchmarks it for about 20 seconds.
 * Other knobs: {@code -Dllm.endpoint=completions|chat}, {@code -Dllm.numPrompts},
 * {@code -Dllm.requestRate} (req/s), {@code -Dllm.outputLen}, {@code -Dllm.detailed=true}.
 */
public class QuickStartSimulation extends Simulation {

  private final String baseUrl = System.getProperty("llm.baseUrl");
  private final int numPrompts = Integer.getInteger("llm.numPrompts", 200);
  private final double requestRate = Double.parseDouble(System.getProperty("llm.requestRate", "10"));
  private final int outputLen = Integer.getInteger("llm.outputLen", 64);
  private final boolean chatEndpoint = "chat".equals(System.getProperty("llm.endpoint"));

  /** Started here rather than in before(): the protocol needs its URL when it is built. */
  private final Simulator simulator = baseUrl == null
      ? Simulator.start(SimulatorConfig.builder()
          .ttft(Duration.ofMillis(60))
          .itl(Duration.ofMillis(12))
          .jitter(0.1)
          .build())
      : null;

  {
    String model = System.getProperty("llm.model", baseUrl == null ? "sim-model" : null);
    if (model == null) {
      throw new IllegalArgumentException("-Dllm.model=<model id> is required with -Dllm.baseUrl");
    }
    LlmRequestBuilder request = (chatEndpoint ? chat("chat") : completions("completions"))
        .prompt(session -> "Write a short story about load test number " + session.userId() + ".")
        .maxTokens(outputLen)
        .ignoreEos(true);
    ScenarioBuilder scn = scenario("quick-start").exec(request);
    setUp(scn.injectOpen(constantUsersPerSec(requestRate).during(
            Duration.ofMillis(Math.round(numPrompts / requestRate * 1000)))))
        .protocols(llm()
            .baseUrl(baseUrl != null ? baseUrl : simulator.baseUrl())
            .model(model)
            .results(results()
                .label("quick-start")
                .detailed(Boolean.getBoolean("llm.detailed"))
                .percentileMetrics("ttft,tpot,itl,e2el")
                .metricPercentiles("50,90,99")))
        .assertions(details(chatEndpoint ? "chat" : "completions").failedRequests().percent().lt(1.0));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
    if (simulator != null) {
      simulator.close();
    }
  }
}
