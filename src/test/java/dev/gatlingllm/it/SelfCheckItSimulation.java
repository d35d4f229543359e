package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CoreDsl;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Steady streamed requests for two seconds; with {@code it.stallMs} set, one user blocks its
 * event loop that long on purpose, as badly written user code (or a GC) would.
 */
public class SelfCheckItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final String STALL_MS = "it.stallMs";

  {
    long stallMs = Long.getLong(STALL_MS, 0);
    ChainBuilder stall = CoreDsl.doIf(session -> stallMs > 0 && session.userId() == 10).then(
        CoreDsl.exec(session -> {
          LockSupport.parkNanos(Duration.ofMillis(stallMs).toNanos()); // on the user's event loop
          return session;
        }));
    setUp(scenario("self-check")
            .exec(completions("gen").prompt("a b c").promptTokens(3).maxTokens(10))
            .exec(stall)
            .injectOpen(constantUsersPerSec(20).during(Duration.ofSeconds(2))))
        .protocols(llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm"));
  }

  @Override
  public void after() {
    GatlingRunner.capture();
    LlmDsl.writeResults(this);
  }
}
