package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exit status of a run's verdict where it is the JVM's own: Gatling started from its real
 * main class, as {@code gatling:test} forks it, with a simulation of the user's (no
 * {@code after()}, no assertion) and with the drop-in.
 */
@Timeout(300)
class RunOutcomeExitTest {

  private static final String MODEL = "acme/outcome-1b";

  @TempDir
  Path work;

  private static String closedPort() throws Exception {
    try (ServerSocket free = new ServerSocket(0)) {
      return "http://127.0.0.1:" + free.getLocalPort();
    }
  }

  @Test
  void aUsersSimulationInWhichNoRequestSucceededExitsFour() throws Exception {
    ForkedGatling.Result run = ForkedGatling.run(OutcomeItSimulation.class,
        work.resolve("results"), Map.of(OutcomeItSimulation.BASE_URL, closedPort(),
            OutcomeItSimulation.MODEL, MODEL), work.resolve("out.txt"));
    assertEquals(4, run.exitCode(), run.output());
    assertTrue(run.output().contains("gatling-llm verdict: FAILED: no request succeeded | 0 of 3"
        + " requests succeeded"), run.output());
  }

  @Test
  void aUsersSimulationThatWorksExitsZeroWithAnOkVerdict() throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder().model(MODEL)
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1)).build())) {
      ForkedGatling.Result run = ForkedGatling.run(OutcomeItSimulation.class,
          work.resolve("results"), Map.of(OutcomeItSimulation.BASE_URL, sim.baseUrl(),
              OutcomeItSimulation.MODEL, MODEL), work.resolve("out.txt"));
      assertEquals(0, run.exitCode(), run.output());
      assertTrue(run.output().contains("gatling-llm verdict: ok | 3 of 3 requests succeeded"),
          run.output());
    }
  }

  @Test
  void theDropInUnderGatlingTestExitsFourWhenNoRequestSucceeded() throws Exception {
    ForkedGatling.Result run = ForkedGatling.run(BenchServe.class, work.resolve("results"),
        Map.of(CommandLine.ARGS_PROPERTY, "--base-url " + closedPort() + " --model " + MODEL
            + " --tokenizer gpt2 --dataset-name random --random-input-len 8"
            + " --random-output-len 2 --num-prompts 3"), work.resolve("out.txt"));
    assertEquals(4, run.exitCode(), run.output());
    assertTrue(run.output().contains("gatling-llm verdict: FAILED: no request succeeded"),
        run.output());
  }

  @Test
  void theDropInUnderGatlingTestRefusesAModelTheServerDoesNotList() throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder().model(MODEL).build())) {
      ForkedGatling.Result run = ForkedGatling.run(BenchServe.class, work.resolve("results"),
          Map.of(CommandLine.ARGS_PROPERTY, "--base-url " + sim.baseUrl()
              + " --model acme/other --tokenizer gpt2 --dataset-name random"
              + " --random-input-len 8 --random-output-len 2 --num-prompts 3"),
          work.resolve("out.txt"));
      assertTrue(run.exitCode() != 0, run.output());
      assertTrue(run.output().contains("does not serve the model `acme/other`: its /v1/models "
          + "lists " + MODEL), run.output());
      assertEquals(0, sim.requestsReceived());
    }
  }
}
