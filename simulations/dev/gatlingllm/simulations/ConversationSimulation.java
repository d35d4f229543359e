package dev.gatlingllm.simulations;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;
import static java.time.Duration.*;

import io.gatling.javaapi.core.Simulation;

/**
 * Multi-turn conversations, as {@code vllm-bench --multi-turn} runs them: 5-turn synthetic
 * conversations arriving at a Poisson rate of conversations, each turn resending the history
 * with the server's real answers, 500 ms of think time, per-turn figures in the summary and
 * the result JSON, and a gate on the TTFT of the fifth turn.
 *
 * <p>{@code -Dllm.baseUrl=... -Dllm.model=...} targets your server (and
 * {@code -Dllm.tokenizer=...} its tokenizer, for exact turn lengths); without them the
 * embedded simulator runs with its per-session prefix cache.
 */
public class ConversationSimulation extends Simulation {
  String baseUrl = System.getProperty("llm.baseUrl");
  int count = Integer.getInteger("llm.conversations", 20);
  {
    var tokens = tokenizer(System.getProperty("llm.tokenizer"));   // GPT-2 when unset
    var talks = conversations().count(count).turns(5).perTurnInputLen(128).outputLen(32)
        .prefixRatios(0.2, 0.3).seed(0).sample(tokens);
    var protocol = llm()
        .baseUrl(baseUrl != null ? baseUrl : startSimulator(simulator().ttft(ofMillis(20))
            .prefillPerToken(ofNanos(200_000)).itl(ofMillis(5)).sessionCache(true)).baseUrl())
        .model(System.getProperty("llm.model", baseUrl == null ? "sim-model" : null))
        .tokenizer(tokens)                    // counts the output as the prompts were
        .results(results().label("conversations").percentileMetrics("ttft,tpot,itl,e2el"))
        .arrivals(arrivals().numPrompts(count).requestRate(2).seed(0).build());
    setUp(scenario("conversations")
            .feed(talks.feeder())                         // one conversation per user
            .exec(conversation(chat("chat")).thinkTime(ofMillis(500)))
            .injectOpen(protocol.injection()))
        .protocols(protocol)
        .assertions(details("chat turn 5 TTFT").responseTime().percentile(99).lt(500),
            details("chat turn 5").failedRequests().percent().lt(1.0));
  }
}
