package dev.gatlingllm.bench;

import static dev.gatlingllm.LlmDsl.arrivals;
import static dev.gatlingllm.LlmDsl.awaitArrival;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One rung of {@link SelfCheckGradeBench}: streamed completions at a fixed concurrency against
 * a simulator with fixed TTFT and ITL, and beside them users that keep the client's event
 * loops busy: each spins {@code grade.busyMs} on its loop every {@code grade.everyMs}, which
 * delays every token read on that loop the way a client's own load does.
 *
 * <p>Properties: {@code grade.baseUrl}, {@code grade.numPrompts}, {@code grade.concurrency},
 * {@code grade.outputLen}, {@code grade.busyMs} (0 = no disturbance), {@code grade.everyMs},
 * {@code grade.busyUsers}, {@code grade.seconds} (how long the disturbance lasts).
 */
public class SelfCheckGradeSimulation extends Simulation {

  {
    int numPrompts = Integer.getInteger("grade.numPrompts", 48);
    int outputLen = Integer.getInteger("grade.outputLen", 64);
    double busyMs = Double.parseDouble(System.getProperty("grade.busyMs", "0"));
    long everyMs = Long.getLong("grade.everyMs", 100);
    Samples prompts = Datasets.random().inputLen(16).outputLen(outputLen).numPrompts(numPrompts)
        .seed(0).sample(Tokenizer.gpt2());
    ArrivalProfile profile = arrivals().numPrompts(numPrompts)
        .requestRate(Double.POSITIVE_INFINITY)
        .maxConcurrency(Integer.getInteger("grade.concurrency", 8)).seed(0).build();
    var protocol = llm()
        .baseUrl(System.getProperty("grade.baseUrl", "http://127.0.0.1:8000"))
        .model("grade-model")
        .results(results().label("grade"))
        .arrivals(profile);
    List<PopulationBuilder> populations = new ArrayList<>();
    populations.add(scenario("grade").feed(prompts.feeder()).exec(awaitArrival())
        .exec(completions("grade").fromDataset().ignoreEos(true))
        .injectOpen(protocol.injection()));
    if (busyMs > 0) {
      long busyNanos = Math.round(busyMs * 1e6);
      populations.add(scenario("busy")
          .during(Duration.ofSeconds(Long.getLong("grade.seconds", 5))).on(
              io.gatling.javaapi.core.CoreDsl.exec(session -> {
                // on the user's event loop: the loop does nothing else meanwhile
                long end = System.nanoTime() + busyNanos;
                while (System.nanoTime() < end) {
                  Thread.onSpinWait();
                }
                return session;
              }).pause(Duration.ofMillis(everyMs)))
          .injectOpen(atOnceUsers(Integer.getInteger("grade.busyUsers", 4))));
    }
    setUp(populations).protocols(protocol);
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
  }
}
