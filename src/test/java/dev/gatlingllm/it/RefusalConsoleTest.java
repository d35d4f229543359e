package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.simulations.QuickStartSimulation;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
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

  /** What gatling-maven-plugin 4.21.12 puts on the forked JVM's class path. */
  private static final String LAUNCHER_LOGBACK_XML = """
      <?xml version="1.0" encoding="UTF-8"?>
      <configuration>
        <appender name="CONSOLE" class="ch.qos.logback.core.ConsoleAppender">
          <immediateFlush>false</immediateFlush>
          <encoder>
            <pattern>%d{HH:mm:ss.SSS} [%thread{10}][%-5level][%file:%line] %logger{15} - %msg%n%rEx</pattern>
          </encoder>
        </appender>
        <root>
          <level value="WARN" />
          <appender-ref ref="CONSOLE" />
        </root>
      </configuration>
      """;

  @TempDir
  Path project;

  @Test
  void aRefusedBenchServeValuePrintsOneLineAndLeavesTheStackInTheLogFile() throws Exception {
    Run run = run(BenchServe.class,
        Map.of(CommandLine.ARGS_PROPERTY, "--model m --dataset-name nope"));

    String message = "Unsupported --dataset-name 'nope'";
    assertEquals(1, run.exitCode(), run.console());
    assertEquals(List.of("gatling-llm bench serve: " + message + "; supported: [burstgpt, "
            + "custom, custom_audio, custom_image, hf, mixed_serving_boundary, prefix_repetition, "
            + "random, random-mm, "
            + "random-rerank, sharegpt, sonnet, spec_bench, speed_bench, timed_trace, txt-slices] "
            + "(stack trace: " + LOG + ")"),
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

    String message = "model must not be empty: give the id of the model the server serves (its "
        + "/v1/models lists them; the ready simulations take it from -Dllm.model=<model id>)";
    assertEquals(1, run.exitCode(), run.console());
    assertEquals(List.of("gatling-llm: " + message + " (stack trace: " + LOG + ")"),
        linesWith(run.console(), message));
    assertNoStackTrace(run.console());
    // Gatling 3.16 hands over the constructor's own exception (3.15 its reflection wrapper)
    String log = Files.readString(project.resolve(LOG));
    assertTrue(log.contains("java.lang.IllegalArgumentException: " + message), log);
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

  @Test
  void aProjectWithoutALoggingFileGetsNoLogbackChatter() throws Exception {
    // a project with no logback-test.xml: the forked JVM has only the Maven plugin's
    // logback.xml, whose outdated <level> element made logback print its whole configuration
    Path launcher = project.resolve("gatling-maven-plugin-4.21.12.jar");
    try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(launcher))) {
      jar.putNextEntry(new JarEntry("logback.xml"));
      jar.write(LAUNCHER_LOGBACK_XML.getBytes(StandardCharsets.UTF_8));
      jar.closeEntry();
    }
    List<String> classpath = new ArrayList<>(Arrays.stream(
            System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.endsWith("test-classes")).toList());
    classpath.add(launcher.toString());

    Run run = run(BenchServe.class, Map.of(CommandLine.ARGS_PROPERTY, "--model m --top-p 1.5"),
        String.join(File.pathSeparator, classpath));

    assertEquals(1, run.exitCode(), run.console());
    assertEquals(List.of("gatling-llm bench serve: --top-p must be in (0, 1], got 1.5 "
        + "(stack trace: " + LOG + ")"), run.console().lines().toList());
  }

  private record Run(int exitCode, String console) {}

  private Run run(Class<?> simulation, Map<String, String> properties) throws Exception {
    return run(simulation, properties, null);
  }

  private Run run(Class<?> simulation, Map<String, String> properties, String classpath)
      throws Exception {
    Path results = Files.createDirectories(project.resolve("target/gatling"));
    ForkedGatling.Result result = ForkedGatling.run(simulation, results, properties, Map.of(),
        project.resolve("console.txt"), project, classpath);
    return new Run(result.exitCode(), withoutUpdateNotice(result.output()));
  }

  /**
   * The console without Gatling's own update notice ("Gatling 3.15.1 is available! (you're
   * using 3.16.0)"), which Gatling prints before the run whenever Maven Central's metadata names
   * a release other than its own with a later date; what that metadata says is not the
   * plugin's to test (where these tests ran for 3.16.0, it still named 3.15.1 the latest).
   */
  private static String withoutUpdateNotice(String console) {
    return console.lines()
        .filter(line -> !line.matches("Gatling \\S+ is available! \\(you're using \\S+\\)"))
        .map(line -> line + "\n").collect(java.util.stream.Collectors.joining());
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
