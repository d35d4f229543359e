package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.protocol.ProtocolTestSupport;
import io.gatling.javaapi.core.Simulation;
import java.util.Map;

/**
 * Three requests with user headers that clash with the client's own, an API key in a
 * made-up {@code OPENAI_API_KEY}, and optionally the user's own Authorization header.
 */
public class HeadersItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  /** When set, sent with {@code header("Authorization", ...)}. */
  static final String USER_AUTHORIZATION = "it.userAuthorization";
  static final String API_KEY = "sk-it-secret-4242";

  {
    LlmProtocolBuilder protocol = llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm")
        .requestIdPrefix("hdr-")
        .header("User-Agent", "my-agent/1.0")
        .header("ACCEPT", "text/event-stream")
        .header("X-Team", "perf")
        .header("x-team", "llm");
    if (System.getProperty(USER_AUTHORIZATION) != null) {
      protocol = protocol.header("Authorization", System.getProperty(USER_AUTHORIZATION));
    }
    protocol = ProtocolTestSupport.withEnvironment(protocol, Map.of("OPENAI_API_KEY", API_KEY));
    setUp(scenario("headers").exec(completions("c").prompt("hi").maxTokens(1))
            .injectOpen(atOnceUsers(3)))
        .protocols(protocol)
        .assertions(global().failedRequests().count().is(0L));
  }
}
