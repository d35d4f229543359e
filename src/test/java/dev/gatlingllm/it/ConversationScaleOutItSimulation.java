package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.arrivals;
import static dev.gatlingllm.LlmDsl.awaitArrival;
import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.conversation;
import static dev.gatlingllm.LlmDsl.conversations;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.dataset.Conversations;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Conversations for the scale-out test: {@link #CONVERSATIONS} synthetic conversations of
 * {@link #TURNS} turns at a seeded Poisson rate of conversations, run whole and once per
 * injector ({@code -Dllm.injector=K/N}): the feeder gives each injector its share of the
 * conversations, the arrival profile its share of the slots.
 */
public class ConversationScaleOutItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final int CONVERSATIONS = 12;
  static final int TURNS = 3;
  static final int PER_TURN_INPUT = 16;
  static final int OUTPUT = 4;

  {
    Conversations talks;
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      talks = conversations().count(CONVERSATIONS).turns(TURNS).perTurnInputLen(PER_TURN_INPUT)
          .outputLen(OUTPUT).seed(2).sample(gpt2);
    }
    ArrivalProfile arrivals = arrivals().numPrompts(CONVERSATIONS).requestRate(20).seed(7)
        .build();
    var protocol = llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm")
        .arrivals(arrivals).results(results().label("talks").metricPercentiles("50,99"));
    setUp(scenario("talks")
            .feed(talks.feeder())
            .exec(awaitArrival())
            .exec(conversation(chat("talk")).thinkTime(Duration.ofMillis(20)))
            .injectOpen(protocol.injection()))
        .protocols(protocol);
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
  }
}
