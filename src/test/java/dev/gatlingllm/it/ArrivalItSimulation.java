package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.arrivals;
import static dev.gatlingllm.LlmDsl.awaitArrival;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.arrival.ArrivalTrace;
import io.gatling.javaapi.core.Simulation;
import java.util.Arrays;

/** A paced benchmark: vLLM-style arrival profile from system properties, results written. */
public class ArrivalItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final String NUM_PROMPTS = "it.numPrompts";
  static final String RATE = "it.rate";
  static final String BURSTINESS = "it.burstiness";
  static final String MAX_CONCURRENCY = "it.maxConcurrency";
  static final String RAMP = "it.ramp";
  /** Warm-up requests after the probe; the protocol's default when unset. */
  static final String WARM_UP = "it.warmUp";
  /** Recorded arrival times to replay, seconds separated by commas. */
  static final String REPLAY = "it.replay";

  {
    ArrivalProfile.Builder builder = arrivals().seed(42);
    String rate = System.getProperty(RATE, "inf");
    String ramp = System.getProperty(RAMP);
    String replay = System.getProperty(REPLAY);
    if (replay != null) {
      // as many requests as recorded arrivals
      builder = builder.replay(ArrivalTrace.ofSeconds(Arrays.stream(replay.split(","))
          .mapToDouble(Double::parseDouble).toArray()));
    } else if (ramp != null) {
      String[] parts = ramp.split(",");
      builder = builder.numPrompts(Integer.getInteger(NUM_PROMPTS, 40))
          .rampUpStrategy(parts[0]).rampUpStartRps(Integer.parseInt(parts[1]))
          .rampUpEndRps(Integer.parseInt(parts[2]));
    } else {
      builder = builder.numPrompts(Integer.getInteger(NUM_PROMPTS, 40))
          .requestRate(rate.equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(rate));
    }
    if (System.getProperty(BURSTINESS) != null) {
      builder = builder.burstiness(Double.parseDouble(System.getProperty(BURSTINESS)));
    }
    if (System.getProperty(MAX_CONCURRENCY) != null) {
      builder = builder.maxConcurrency(Integer.getInteger(MAX_CONCURRENCY));
    }
    ArrivalProfile profile = builder.build();
    var protocol = warmUp(llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm")
        .arrivals(profile));
    setUp(scenario("paced")
            .exec(awaitArrival())
            .exec(completions("gen").prompt("a b c").promptTokens(3).maxTokens(8))
            .injectOpen(protocol.injection()))
        .protocols(protocol)
        .assertions(global().failedRequests().count().is(0L),
            // Gatling's own statistics hold the run's requests only, never the warm-up's.
            details("gen").allRequests().count().is((long) profile.numPrompts()));
  }

  private static LlmProtocolBuilder warmUp(LlmProtocolBuilder protocol) {
    String n = System.getProperty(WARM_UP);
    return n == null ? protocol : protocol.warmUp(Integer.parseInt(n));
  }

  @Override
  public void after() {
    GatlingRunner.capture();
    LlmDsl.writeResults(this);
  }
}
