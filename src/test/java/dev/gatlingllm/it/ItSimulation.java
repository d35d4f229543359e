package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The simulation integration tests run in-process: N users at once, one request each, against
 * the URL in {@code it.baseUrl}. When {@code it.expectFailed} is set, Gatling's own assertion
 * checks the KO count, so the exit code proves what Gatling's stats recorded.
 */
public class ItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final String KIND = "it.kind";
  static final String STREAM = "it.stream";
  static final String USERS = "it.users";
  static final String MAX_TOKENS = "it.maxTokens";
  static final String PROMPT = "it.prompt";
  static final String EXPECT_FAILED = "it.expectFailed";
  static final String IDLE_TIMEOUT_MS = "it.idleTimeoutMs";
  static final String RAMP_MS = "it.rampMs";

  {
    LlmRequestBuilder request = (System.getProperty(KIND, "completions").equals("chat")
        ? chat("chat") : completions("completions"))
        .prompt(System.getProperty(PROMPT, "one two three four five"))
        .promptTokens(5)
        .maxTokens(Integer.getInteger(MAX_TOKENS, 20))
        .ignoreEos(true)
        .stream(Boolean.parseBoolean(System.getProperty(STREAM, "true")));
    LlmProtocolBuilder protocol = llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm");
    if (System.getProperty(IDLE_TIMEOUT_MS) != null) {
      protocol = protocol.idleTimeout(Duration.ofMillis(Long.getLong(IDLE_TIMEOUT_MS)));
    }
    List<Assertion> assertions = new ArrayList<>();
    if (System.getProperty(EXPECT_FAILED) != null) {
      assertions.add(global().failedRequests().count().is(Long.getLong(EXPECT_FAILED)));
    }
    int users = Integer.getInteger(USERS, 10);
    long rampMs = Long.getLong(RAMP_MS, 0);
    setUp(scenario("it").exec(request).injectOpen(rampMs > 0
            ? rampUsers(users).during(Duration.ofMillis(rampMs)) : atOnceUsers(users)))
        .protocols(protocol)
        .assertions(assertions);
  }
}
