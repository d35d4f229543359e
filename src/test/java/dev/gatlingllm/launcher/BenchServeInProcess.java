package dev.gatlingllm.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.internal.protocol.RunResults;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code gatling-llm bench serve} run in the test's JVM, as the launcher runs it, with its run
 * folder under a folder of the test's: for the launcher tests whose point is what one run
 * measured and wrote.
 */
final class BenchServeInProcess {

  private BenchServeInProcess() {}

  /**
   * Runs the launcher with {@code words} ({@code bench serve ...}), checks that it exited 0
   * (else fails with what it printed on stderr), and returns the run's folder under
   * {@code results}.
   */
  static Path run(Path results, List<String> words) throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setProperty(RunResults.RESULTS_FOLDER_PROPERTY, results.toString());
    int status;
    try {
      status = GatlingLlm.run(words.toArray(String[]::new), System.out,
          new PrintStream(err, true, StandardCharsets.UTF_8));
    } finally {
      System.clearProperty(RunResults.RESULTS_FOLDER_PROPERTY);
    }
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    try (Stream<Path> folders = Files.list(results)) {
      return folders.filter(p -> p.getFileName().toString().startsWith("benchserve-"))
          .findFirst().orElseThrow();
    }
  }
}
