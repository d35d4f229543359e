package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.report.ReportOutcome;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Conversations against the simulator: {@link #CONVERSATIONS} synthetic conversations of
 * {@link #TURNS} turns at a Poisson rate of conversations, {@link #THINK_MS} ms of think time,
 * two LoRA adapters, results written after the run; assertions on rows of turns 1 and 3 (an
 * assertion on a row that does not exist fails the run).
 */
public class ConversationItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final int CONVERSATIONS = 6;
  static final int TURNS = 3;
  static final int PER_TURN_INPUT = 12;
  static final int OUTPUT = 4;
  static final long THINK_MS = 200;

  static volatile ReportOutcome outcome;

  {
    var talks = conversations().count(CONVERSATIONS).turns(TURNS).perTurnInputLen(PER_TURN_INPUT)
        .outputLen(OUTPUT).seed(5).sample(gpt2());
    var protocol = llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm")
        .arrivals(arrivals().numPrompts(CONVERSATIONS).requestRate(20).seed(1).build())
        .tokenizer(gpt2())
        .results(results().label("turns").metricPercentiles("50,99"));
    setUp(scenario("talk")
        .feed(talks.feeder())
        .exec(conversation(chat("talk").systemPrompt("Be brief."))
            .thinkTime(Duration.ofMillis(THINK_MS)).loras("lora-a", "lora-b"))
        .injectOpen(protocol.injection()))
        .protocols(protocol)
        .assertions(details("talk turn 3 TTFT").responseTime().percentile(99).lt(5_000),
            details("talk turn 1").requestsPerSec().gt(0.0));
  }

  @Override
  public void after() {
    GatlingRunner.capture();
    outcome = LlmDsl.writeResults(this);
  }
}
