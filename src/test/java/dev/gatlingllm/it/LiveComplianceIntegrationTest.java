package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Server compliance said during the run, through the drop-in: a chat run against a server
 * that ignores {@code max_completion_tokens} (the simulator's llama.cpp habit) hears it at the
 * first answer, once, seconds before the end-of-run count; with {@code
 * --stop-on-server-noncompliance} the run ends there with its results written; against a
 * compliant server nothing is said. The model is {@code llama-live}, not the simulator's
 * default, which the simulator then serves alone (any other name is a 404, as vLLM answers).
 */
@Timeout(180)
class LiveComplianceIntegrationTest {

  private static final String MODEL = "llama-live";
  /** 8 prompt tokens, 4 output tokens asked, 10 requests a second. */
  private static final String COMMON = "--backend openai-chat --model " + MODEL
      + " --tokenizer datasets/tokenizers/gpt2 --save-result --seed 1 --dataset-name random"
      + " --random-input-len 8 --random-output-len 4 --request-rate 10 ";
  private static final String LIVE = "server compliance, seen during the run: ";

  @TempDir
  Path results;

  private static SimulatorConfig.Builder server() {
    return StrictServer.builder().model(MODEL).ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1));
  }

  /** Answers past the limit: the context's 64 tokens less the prompt. */
  private static SimulatorConfig.Builder ignoringMaxCompletionTokens() {
    return server().ignoreMaxCompletionTokens(true).contextTokens(64);
  }

  /** A run, and the plugin's log lines with their times (not all reach a captured console). */
  private record Outcome(CapturedBench.Run run, List<ILoggingEvent> log) {

    /** The log lines starting with {@code start}. */
    List<ILoggingEvent> lines(String start) {
      return log.stream().filter(e -> e.getFormattedMessage().startsWith(start)).toList();
    }
  }

  private Outcome bench(SimulatorConfig.Builder config, String name, String args)
      throws Exception {
    // logback's console appender keeps the console of the JVM's first run: read the events
    Logger plugin = (Logger) LoggerFactory.getLogger("dev.gatlingllm");
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    plugin.addAppender(log);
    try (Simulator sim = Simulator.start(config.build())) {
      // a run stopped at the server's first non-compliance exits 5 (README, exit status)
      CapturedBench.Run run = CapturedBench.run(results.resolve(name), COMMON + args
          + " --base-url " + sim.baseUrl(), name.equals("stopped") ? 5 : 0);
      return new Outcome(run, List.copyOf(log.list));
    } finally {
      plugin.detachAppender(log);
    }
  }

  @Test
  void anIgnoredLimitIsSaidOnceAtTheFirstAnswerBeforeTheEnd() throws Exception {
    // 30 requests at 10/s: about 3 s of run after the first answer
    Outcome outcome = bench(ignoringMaxCompletionTokens(), "warned", "--num-prompts 30");
    CapturedBench.Run run = outcome.run();
    List<ILoggingEvent> live = outcome.lines(LIVE);
    assertEquals(1, live.size(), outcome.log().toString());
    ILoggingEvent line = live.get(0);
    assertEquals(Level.WARN, line.getLevel());
    assertTrue(line.getFormattedMessage().matches(".* request \\S+ asked for at most 4 output "
        + "tokens and got \\d+: the server ignores max_completion_tokens, so output lengths and "
        + "throughput are the server's, not the dataset's"), line.getFormattedMessage());
    List<ILoggingEvent> end = outcome.lines(
        "server compliance: the server ignores max_completion_tokens");
    assertEquals(1, end.size(), "the end-of-run count: " + outcome.log());
    // the 30 arrivals span 2.9 s on average at 10/s: the first answer is said seconds before
    // the results are written
    long early = end.get(0).getTimeStamp() - line.getTimeStamp();
    assertTrue(early > 1_000, "said " + early + " ms before the end-of-run count");
    JsonNode compliance = run.json().get("server_compliance");
    assertEquals(30, compliance.path("checks").path("output_over_max_tokens").path("violations")
        .asInt(), compliance.toString());
    assertFalse(compliance.get("stopped_early").asBoolean());
    assertTrue(compliance.get("stop").isNull());
    assertEquals(30, run.json().get("completed").asInt(), "warned, not stopped");
  }

  @Test
  void theStopFlagEndsTheRunAtTheFirstFindingWithItsResultsWritten() throws Exception {
    // 200 requests at 10/s would take 20 s
    long t0 = System.nanoTime();
    Outcome outcome = bench(ignoringMaxCompletionTokens(), "stopped",
        "--num-prompts 200 --stop-on-server-noncompliance");
    double wall = (System.nanoTime() - t0) / 1e9;
    CapturedBench.Run run = outcome.run();
    JsonNode compliance = run.json().get("server_compliance");
    System.out.println("stopped: " + compliance.get("stop") + " completed "
        + run.json().get("completed") + " wall " + wall);
    assertTrue(compliance.get("stopped_early").asBoolean(), compliance.toString());
    JsonNode stop = compliance.get("stop");
    assertEquals("output_over_max_tokens", stop.get("check").asText());
    assertEquals("--stop-on-server-noncompliance", stop.get("flag").asText());
    assertTrue(stop.get("reason").asText().contains("ignores max_completion_tokens"),
        stop.toString());
    assertTrue(stop.get("at_s").asDouble() >= 0 && stop.get("at_s").asDouble() < 5,
        stop.toString());
    int completed = run.json().get("completed").asInt();
    assertTrue(completed >= 1 && completed < 50, "the run ended early: " + completed);
    assertTrue(wall < 15, "wall " + wall);
    assertTrue(run.console().contains("gatling-llm: stopping the run "
        + "(--stop-on-server-noncompliance): output_over_max_tokens at request "
        + stop.get("request_id").asText()), run.console());
    assertEquals(1, outcome.lines(LIVE).size(), "said as well: " + outcome.log());
    assertEquals(1, outcome.lines("Wrote the benchmark result").size(),
        outcome.log().toString());
  }

  @Test
  void aCompliantServerHearsNothing() throws Exception {
    Outcome outcome = bench(server(), "compliant",
        "--num-prompts 20 --stop-on-server-noncompliance");
    CapturedBench.Run run = outcome.run();
    assertFalse(outcome.log().isEmpty(), "the log is read");
    assertEquals(List.of(), outcome.lines(LIVE));
    assertEquals(List.of(), outcome.lines("server compliance"));
    assertFalse(run.console().contains("stopping the run"), run.console());
    JsonNode compliance = run.json().get("server_compliance");
    assertEquals(0, compliance.get("warnings").size(), compliance.toString());
    assertFalse(compliance.get("stopped_early").asBoolean());
    assertEquals(20, run.json().get("completed").asInt());
  }
}
