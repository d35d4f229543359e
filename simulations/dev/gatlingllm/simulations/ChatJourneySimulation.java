package dev.gatlingllm.simulations;

import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.listFeeder;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The README's example: a two-turn chat journey where the second request carries the first
 * answer, with a TTFT percentile and a goodput gate as Gatling assertions.
 *
 * <p>{@code -Dllm.baseUrl=... -Dllm.model=...} targets your server; without them the embedded
 * simulator is used.
 */
public class ChatJourneySimulation extends Simulation {

  private final String baseUrl = System.getProperty("llm.baseUrl");
  private final Simulator simulator = baseUrl == null
      ? Simulator.start(SimulatorConfig.builder()
          .ttft(Duration.ofMillis(40)).itl(Duration.ofMillis(8)).build())
      : null;

  LlmProtocolBuilder llm = llm()
      .baseUrl(baseUrl != null ? baseUrl : simulator.baseUrl())
      .model(System.getProperty("llm.model", "sim-model"))
      .results(results().label("chat-journey").goodput("ttft:500 tpot:50"));

  ScenarioBuilder scn = scenario("chat")
      .feed(listFeeder(List.of(
          Map.<String, Object>of("question", "What does a GPU do in LLM inference?"),
          Map.<String, Object>of("question", "Why does batching raise throughput?"),
          Map.<String, Object>of("question", "What is a KV cache?"))).circular())
      .exec(chat("ask")
          .systemPrompt("You are terse.")
          .prompt("#{question}")          // constant, Gatling EL, or session -> String
          .maxTokens(128)
          .ignoreEos(true)
          .saveTextAs("answer"))          // reuse the answer in the next step
      .exec(chat("follow-up")
          .messages(session -> List.of(
              Map.of("role", "user", "content", session.getString("question")),
              Map.of("role", "assistant", "content", session.getString("answer")),
              Map.of("role", "user", "content", "Shorter, please.")))
          .maxTokens(64));

  {
    setUp(scn.injectOpen(constantUsersPerSec(5).during(Duration.ofSeconds(
            Long.getLong("llm.durationSeconds", 10)))))
        .protocols(llm)
        .assertions(
            details("ask TTFT").responseTime().percentile(99).lt(500),
            details("ask goodput").successfulRequests().percent().gte(95.0));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);   // vLLM summary + result JSON into the run folder
    if (simulator != null) {
      simulator.close();
    }
  }
}
