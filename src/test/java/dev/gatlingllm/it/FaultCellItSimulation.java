package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One cell of the fault matrix as a whole run ({@link FaultCellsIntegrationTest}): N users at
 * once (or in waves, some seconds apart), one streamed completion each, against a misbehaving
 * server; Gatling's own assertion checks the KO count; the results are written after the run.
 */
public class FaultCellItSimulation extends Simulation {

  static final String BASE_URL = "cell.baseUrl";
  static final String USERS = "cell.users";
  static final String EXPECT_FAILED = "cell.expectFailed";
  static final String FIRST_TOKEN_TIMEOUT_MS = "cell.firstTokenTimeoutMs";
  static final String IDLE_TIMEOUT_MS = "cell.idleTimeoutMs";
  static final String INSECURE_TLS = "cell.insecureTls";
  /** Users per wave, comma-separated ("4,3,5"), instead of {@link #USERS} at once. */
  static final String WAVES = "cell.waves";
  static final String WAVE_GAP_MS = "cell.waveGapMs";

  {
    LlmProtocolBuilder protocol = llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm")
        .requestTimeout(Duration.ofSeconds(20));
    if (System.getProperty(FIRST_TOKEN_TIMEOUT_MS) != null) {
      protocol = protocol.firstTokenTimeout(Duration.ofMillis(Long.getLong(FIRST_TOKEN_TIMEOUT_MS)));
    }
    if (System.getProperty(IDLE_TIMEOUT_MS) != null) {
      protocol = protocol.idleTimeout(Duration.ofMillis(Long.getLong(IDLE_TIMEOUT_MS)));
    }
    if (Boolean.getBoolean(INSECURE_TLS)) {
      protocol = protocol.insecureTls();
    }
    // a user stays a moment: Gatling refuses to report a run that lasted 0 ms ("Run didn't
    // last"), which a cell of three canned answers on loopback could be
    setUp(scenario("cell").exec(completions("completions").prompt("hi").promptTokens(1)
            .maxTokens(2)).pause(Duration.ofMillis(5))
        .injectOpen(injection()))
        .protocols(protocol)
        .assertions(global().failedRequests().count().is(Long.getLong(EXPECT_FAILED, 0)));
  }

  private static List<OpenInjectionStep> injection() {
    String waves = System.getProperty(WAVES);
    if (waves == null) {
      return List.of(atOnceUsers(Integer.getInteger(USERS, 3)));
    }
    Duration gap = Duration.ofMillis(Long.getLong(WAVE_GAP_MS, 1000));
    List<OpenInjectionStep> steps = new ArrayList<>();
    for (String users : waves.split(",")) {
      if (!steps.isEmpty()) {
        steps.add(nothingFor(gap));
      }
      steps.add(atOnceUsers(Integer.parseInt(users.trim())));
    }
    return steps;
  }

  @Override
  public void after() {
    GatlingRunner.capture();
    LlmDsl.writeResults(this);
  }
}
