package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a simulation in a JVM of its own, from Gatling's real main class, as
 * {@code gatling:test} forks it: for what only happens at a JVM's exit (exit status, exit
 * hooks).
 */
final class ForkedGatling {

  record Result(int exitCode, String output) {}

  private ForkedGatling() {}

  static Result run(Class<?> simulation, Path results, Map<String, String> properties,
      Path output) throws IOException, InterruptedException {
    return run(simulation, results, properties, Map.of(), output);
  }

  /** {@link #run}, with {@code environment} added to the child's environment. */
  static Result run(Class<?> simulation, Path results, Map<String, String> properties,
      Map<String, String> environment, Path output) throws IOException, InterruptedException {
    return run(simulation, results, List.of(), properties, environment, output, null, null);
  }

  /** {@link #run}, with {@code jvmArgs} given to the child's JVM first. */
  static Result run(Class<?> simulation, Path results, List<String> jvmArgs,
      Map<String, String> properties, Map<String, String> environment, Path output)
      throws IOException, InterruptedException {
    return run(simulation, results, jvmArgs, properties, environment, output, null, null);
  }

  /**
   * {@link #run}, in {@code directory} (null: this JVM's), as Maven runs in the project, with
   * {@code classpath} (null: this JVM's).
   */
  static Result run(Class<?> simulation, Path results, Map<String, String> properties,
      Map<String, String> environment, Path output, Path directory, String classpath)
      throws IOException, InterruptedException {
    return run(simulation, results, List.of(), properties, environment, output, directory,
        classpath);
  }

  private static Result run(Class<?> simulation, Path results, List<String> jvmArgs,
      Map<String, String> properties, Map<String, String> environment, Path output,
      Path directory, String classpath) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmArgs);
    command.addAll(List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
        // surefire's class path (a manifest-only jar, which the child reads the same way)
        "-cp", classpath != null ? classpath : System.getProperty("java.class.path")));
    properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
    command.addAll(List.of("-Dllm.resultsFolder=" + results,
        "io.gatling.app.Gatling",
        "--simulation", simulation.getName(),
        "--results-folder", results.toString(),
        "--launcher", "maven", "--build-tool-version", "test"));
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectErrorStream(true).redirectOutput(output.toFile());
    builder.environment().putAll(environment);
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    Process gatling = builder.start();
    assertTrue(gatling.waitFor(150, TimeUnit.SECONDS), "Gatling did not finish");
    return new Result(gatling.exitValue(), Files.readString(output));
  }
}
