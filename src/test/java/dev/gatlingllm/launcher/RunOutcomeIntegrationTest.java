package dev.gatlingllm.launcher;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.protocol.RunResults;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.testing.TeeOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * What a run says about itself, through the launcher, against a simulator that refuses as vLLM
 * does (unknown model: 404; {@code /v1/models} lists only the served name) and serves a model
 * not called {@code served-llm}: one verdict line, and an exit status for each outcome (README,
 * "How a run ends").
 */
@Timeout(120)
class RunOutcomeIntegrationTest {

  private static final String MODEL = "acme/truth-7b";

  @TempDir
  Path dir;

  /** Exit status, everything printed (stdout, stderr, the log), and the results folder. */
  private record Launch(int status, String console, List<String> log, Path results) {
    String verdict() {
      List<String> lines = console.lines()
          .filter(l -> l.startsWith("gatling-llm verdict: ")).toList();
      assertEquals(1, lines.size(), "one verdict line: " + console);
      return lines.get(0);
    }

    JsonNode result() throws IOException {
      try (Stream<Path> files = Files.walk(results)) {
        Path json = files.filter(p -> p.getFileName().toString().equals("result.json"))
            .findFirst().orElseThrow(() -> new AssertionError("no result.json: " + console));
        return new ObjectMapper().readTree(json.toFile());
      }
    }
  }

  private Launch launch(String baseUrl, String model, String... more) {
    Path results = dir.resolve("results-" + System.nanoTime());
    List<String> args = new ArrayList<>(List.of("bench", "serve", "--base-url", baseUrl,
        "--model", model, "--tokenizer", "gpt2", "--dataset-name", "random",
        "--random-input-len", "16", "--random-output-len", "4", "--num-prompts", "5",
        "--save-result", "--result-filename", "result.json"));
    args.addAll(List.of(more));
    // the root: a refusal is logged by Gatling's launcher, with the plugin's exception
    Logger logger = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    // a run of an earlier test class in this JVM prints its summary when the next run starts
    RunResults.settlePreviousRun();
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    System.setOut(new PrintStream(new TeeOutputStream(out, copy), true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(new TeeOutputStream(err, copy), true, StandardCharsets.UTF_8));
    System.setProperty(RunResults.RESULTS_FOLDER_PROPERTY, results.toString());
    try {
      int status = GatlingLlm.run(args.toArray(String[]::new), System.out, System.err);
      return new Launch(status, copy.toString(StandardCharsets.UTF_8),
          lines.list.stream().map(RunOutcomeIntegrationTest::text).toList(), results);
    } finally {
      System.clearProperty(RunResults.RESULTS_FOLDER_PROPERTY);
      System.setOut(out);
      System.setErr(err);
      logger.detachAppender(lines);
    }
  }

  /** A log event's message, and its exception's root message where it has one. */
  private static String text(ILoggingEvent event) {
    IThrowableProxy cause = event.getThrowableProxy();
    while (cause != null && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return event.getFormattedMessage() + (cause == null ? "" : " | " + cause.getMessage());
  }

  private static Simulator simulator(SimulatorConfig.Builder config) {
    return Simulator.start(config.model(MODEL).ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1)).jitter(0).build());
  }

  @Test
  void aRunThatSucceedsSaysOkAndExitsZeroWithTheModelChecked() throws IOException {
    try (Simulator sim = simulator(StrictServer.builder())) {
      Launch run = launch(sim.baseUrl(), MODEL);
      assertEquals(0, run.status(), run.console());
      assertTrue(run.verdict().startsWith("gatling-llm verdict: ok | 5 of 5 requests succeeded"
          + " | client self-check: "), run.verdict());
      assertTrue(run.verdict().endsWith("| model: " + MODEL + " listed by the server"),
          run.verdict());
      JsonNode check = run.result().get("model_check");
      assertEquals(MODEL, check.get("model").asText());
      assertTrue(check.get("listed").asBoolean());
      assertEquals(MODEL, check.get("models_listed").get(0).asText());
      assertEquals(MODEL,
          run.result().at("/server_compliance/models_listed/0").asText(),
          "listed without any warm-up request");
    }
  }

  @Test
  void aClosedPortFailsEveryRequestAndTheRunExitsFour() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Launch run = launch("http://127.0.0.1:" + port, MODEL);
    assertEquals(4, run.status(), run.console());
    assertTrue(run.verdict().startsWith("gatling-llm verdict: FAILED: no request succeeded | "
        + "0 of 5 requests succeeded"), run.verdict());
    assertTrue(run.verdict().contains("| model: " + MODEL + " not checked ("), run.verdict());
    assertTrue(run.verdict().endsWith("| exit status 4"), run.verdict());
    assertEquals(5, run.result().get("failed").asInt(), "the results are still written");
  }

  @Test
  void aServerAnsweringHttp500ToEveryRequestExitsFour() {
    try (Simulator sim = simulator(StrictServer.builder().errorRate(1.0))) {
      Launch run = launch(sim.baseUrl(), MODEL);
      assertEquals(4, run.status(), run.console());
      assertTrue(run.verdict().contains("0 of 5 requests succeeded"), run.verdict());
    }
  }

  @Test
  void exitZeroKeepsVllmsStatusAndTheVerdictStillSaysWhatHappened() {
    try (Simulator sim = simulator(StrictServer.builder().errorRate(1.0))) {
      Launch run = launch(sim.baseUrl(), MODEL, "--exit-zero");
      assertEquals(0, run.status(), run.console());
      assertTrue(run.verdict().startsWith("gatling-llm verdict: FAILED: no request succeeded "
          + "(exit zero asked) | 0 of 5"), run.verdict());
      assertFalse(run.verdict().contains("exit status"), run.verdict());
    }
  }

  @Test
  void aModelTheServerDoesNotListIsRefusedBeforeAnythingIsSent() {
    try (Simulator sim = simulator(StrictServer.builder())) {
      Launch run = launch(sim.baseUrl(), "acme/wrong-7b");
      assertEquals(1, run.status(), run.console());
      // the console line itself is the launcher's log filter's (RunOutcomeExitTest sees it)
      String refusal = "the server at " + sim.baseUrl() + " does not serve the model "
          + "`acme/wrong-7b`: its /v1/models lists " + MODEL + "; name one of them";
      assertTrue(run.log().stream().anyMatch(l -> l.contains(refusal)), run.log().toString());
      assertEquals(0, sim.requestsReceived(), "no request was sent");
      assertFalse(run.console().contains("gatling-llm verdict: "), "refused, not run");
    }
  }

  @Test
  void withExitZeroAnUnlistedModelIsAWarningAndTheRunGoesOn() throws IOException {
    try (Simulator sim = simulator(StrictServer.builder())) {
      Launch run = launch(sim.baseUrl(), "acme/wrong-7b", "--exit-zero");
      assertEquals(0, run.status(), run.console());
      assertTrue(run.log().stream().anyMatch(l -> l.contains("does not serve the model "
          + "`acme/wrong-7b`") && l.contains("the run goes on")), run.log().toString());
      assertTrue(run.verdict().contains("| model: acme/wrong-7b NOT listed by the server"),
          run.verdict());
      assertFalse(run.result().get("model_check").get("listed").asBoolean());
    }
  }

  @Test
  void theStandInWarmUpAnswersAModelNotCalledSimModel() {
    // the default of a user's run (the build turns it off for the other tests' speed)
    String before = System.getProperty("llm.standInWarmUp");
    System.clearProperty("llm.standInWarmUp");
    try (Simulator sim = simulator(StrictServer.builder())) {
      Launch run = launch(sim.baseUrl(), MODEL, "--max-concurrency", "2");
      assertEquals(0, run.status(), run.console());
      List<String> warmUps = run.log().stream().filter(l -> l.startsWith("warm-up: ")).toList();
      assertTrue(warmUps.get(0).matches("warm-up: \\d+ requests to an in-process stand-in "
          + "\\(nothing sent to .*\\) at concurrency 2 .*"), warmUps.toString());
      assertFalse(warmUps.stream().anyMatch(l -> l.contains("could not")), warmUps.toString());
    } finally {
      if (before != null) {
        System.setProperty("llm.standInWarmUp", before);
      }
    }
  }
}
