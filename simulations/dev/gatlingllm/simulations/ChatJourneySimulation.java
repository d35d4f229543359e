package dev.gatlingllm.simulations;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

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

  String baseUrl = System.getProperty("llm.baseUrl");

  {
    setUp(scenario("chat")
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
                .maxTokens(64))
            .injectOpen(constantUsersPerSec(5).during(Duration.ofSeconds(
                Long.getLong("llm.durationSeconds", 10)))))
        .protocols(llm()
            .baseUrl(baseUrl != null ? baseUrl : startSimulator(simulator()
                .ttft(Duration.ofMillis(40)).itl(Duration.ofMillis(8))).baseUrl())
            .model(System.getProperty("llm.model", "sim-model"))
            .results(results().label("chat-journey").goodput("ttft:500 tpot:50")))
        .assertions(
            details("ask TTFT").responseTime().percentile(99).lt(500),
            details("ask goodput").successfulRequests().percent().gte(95.0));
  }
}
