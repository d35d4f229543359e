package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.cli.CommandLine;
import dev.gatlingllm.simulations.QuickStartSimulation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run refused before it starts ends with its one line and a non-zero exit status; its stack
 * trace is in {@code target/gatling-llm.log}, not on the console. Gatling runs in a JVM of its
 * own, from its real main class, in a project folder of its own, as {@code gatling:test}
 * forks it.
 */
@Timeout(300)
class RefusalConsoleTest {

  private static final String LOG = "target/gatling-llm.log";

  @TempDir
  Path project;

  @Test
  void aRefusedBenchServeValuePrintsOneLineAndLeavesTheStackInTheLogFile() throws Exception {
    Run run = run(BenchServe.class,
        Map.of(CommandLine.ARGS_PROPERTY, "--model m --dataset-name nope"));

    String message = "Unsupported --dataset-name 'nope'";
    assertEquals(1, run.exitCode(), run.console());
    assertEquals(List.of("gatling-llm bench serve: " + message + "; supported: [burstgpt, "
            + "custom, hf, prefix_repetition, random, random-mm, random-rerank, sharegpt, sonnet, "
            + "spec_bench] (stack trace: " + LOG + ")"),
        linesWith(run.console(), message), "the message, once");
    assertNoStackTrace(run.console());
    String log = Files.readString(project.resolve(LOG));
    assertTrue(log.contains("Caused by: java.lang.IllegalArgumentException: " + message), log);
    assertTrue(log.contains("\tat dev.gatlingllm.cli.BenchServe.<init>"), log);
  }

  @Test
  void aSimulationRefusedWhileBeingBuiltPrintsOneLine() throws Exception {
    // the quick-start against a server of your own needs the model's name
    Run run = run(QuickStartSimulation.class, Map.of("llm.baseUrl", "http://127.0.0.1:9"));

    String message = "-Dllm.model=<model id> is required with -Dllm.baseUrl";
    assertEquals(1, run.exitCode(), run.console());
    assertEquals(List.of("gatling-llm: " + message + " (stack trace: " + LOG + ")"),
        linesWith(run.console(), message));
    assertNoStackTrace(run.console());
    String log = Files.readString(project.resolve(LOG));
    assertTrue(log.contains("Caused by: java.lang.IllegalArgumentException: " + message), log);
    assertTrue(log.contains("\tat dev.gatlingllm.simulations.QuickStartSimulation.<init>"), log);
  }

  @Test
  void aBugIsNamedOnOneLineWithItsStackInTheLogFile() throws Exception {
    Run run = run(CrashingItSimulation.class, Map.of());

    assertEquals(255, run.exitCode(), run.console());
    List<String> lines = linesWith(run.console(), "NullPointerException");
    assertEquals(1, lines.size(), run.console());
    assertTrue(lines.get(0).startsWith("gatling-llm: the run crashed: "
        + "java.lang.NullPointerException"), lines.get(0));
    assertTrue(lines.get(0).endsWith("(stack trace: " + LOG + ")"), lines.get(0));
    assertNoStackTrace(run.console());
    String log = Files.readString(project.resolve(LOG));
    assertTrue(log.contains("\tat dev.gatlingllm.it.CrashingItSimulation.<init>"), log);
  }

  private record Run(int exitCode, String console) {}

  private Run run(Class<?> simulation, Map<String, String> properties) throws Exception {
    Path results = Files.createDirectories(project.resolve("target/gatling"));
    ForkedGatling.Result result = ForkedGatling.run(simulation, results, properties, Map.of(),
        project.resolve("console.txt"), project);
    return new Run(result.exitCode(), result.output());
  }

  private static List<String> linesWith(String console, String text) {
    return console.lines().filter(line -> line.contains(text)).toList();
  }

  private static void assertNoStackTrace(String console) {
    for (String line : console.lines().toList()) {
      assertFalse(line.startsWith("\tat ") || line.strip().startsWith("at java.")
          || line.contains("Caused by") || line.contains("Exception in thread"),
          "a stack trace on the console:\n" + console);
    }
  }
}
