package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Two replicas in the DSL ({@code baseUrls}, round-robin): each user plays a conversation of
 * {@link #TURNS} turns, then sends one single request whose prompt is {@link #SINGLE_PROMPT}.
 */
public class StickyReplicasItSimulation extends Simulation {

  static final String FIRST_URL = "it.firstUrl";
  static final String SECOND_URL = "it.secondUrl";
  static final int USERS = 6;
  static final int TURNS = 3;
  static final String SINGLE_PROMPT = "and one more question";

  {
    var talks = conversations().count(USERS).turns(TURNS).perTurnInputLen(12).outputLen(4)
        .seed(5).sample(gpt2());
    var protocol = llm().baseUrls(System.getProperty(FIRST_URL), System.getProperty(SECOND_URL))
        .model("served-llm")
        .arrivals(arrivals().numPrompts(USERS).requestRate(20).seed(1).build())
        .tokenizer(gpt2());
    setUp(scenario("talk then ask")
        .feed(talks.feeder())
        .exec(conversation(chat("talk")).thinkTime(Duration.ofMillis(50)))
        .exec(chat("single").prompt(SINGLE_PROMPT).maxTokens(4))
        .injectOpen(protocol.injection()))
        .protocols(protocol);
  }
}
