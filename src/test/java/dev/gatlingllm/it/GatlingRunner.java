package dev.gatlingllm.it;

import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.protocol.LlmRun;
import dev.gatlingllm.internal.protocol.RunResults;
import io.gatling.app.Gatling$;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs a simulation in this JVM, the way the Maven plugin runs it in a forked one, and hands
 * back the exit code and the run folder. Simulations read their knobs from system properties,
 * which are set for the duration of the run only.
 */
final class GatlingRunner {

  /**
   * @param exitCode    the status the forked JVM would exit with: the run's verdict's when it
   *                    sets one (README, "How a run ends"), else Gatling's
   * @param runFolder   the run's folder
   * @param gatlingCode Gatling's own status (2: an assertion failed)
   */
  record Result(int exitCode, Path runFolder, int gatlingCode) {
    Path file(String name) {
      return runFolder.resolve(name);
    }
  }

  private GatlingRunner() {}

  static synchronized Result run(Class<?> simulation, Path resultsFolder,
      Map<String, String> properties) {
    properties.forEach(System::setProperty);
    try {
      Files.createDirectories(resultsFolder);
      int code = Gatling$.MODULE$.fromArgs(new String[] {
          "--simulation", simulation.getName(),
          "--results-folder", resultsFolder.toString(),
          "--launcher", "maven",
          "--build-tool-version", "test"});
      // as the forked JVM would exit: the run's verdict outranks Gatling's 0; taken here, so
      // that it never halts this JVM at its exit
      int verdict = RunResults.takeExitStatus();
      return new Result(verdict != 0 ? verdict : code, newestRunFolder(resultsFolder, simulation),
          code);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      properties.keySet().forEach(System::clearProperty);
    }
  }

  /**
   * Writes the results of the last run, as the plugin does once the run is over (at the JVM's
   * exit under {@code gatling:test}), for simulations without {@code after()}.
   */
  static void writeResults(Class<?> simulation, Path resultsFolder) {
    System.setProperty(RunResults.RESULTS_FOLDER_PROPERTY, resultsFolder.toString());
    try {
      RunResults.write(simulation);
      // the forked JVM would exit with it; this one must not
      RunResults.takeExitStatus();
    } finally {
      System.clearProperty(RunResults.RESULTS_FOLDER_PROPERTY);
    }
  }

  private static volatile List<RequestRecord> captured;

  /**
   * Keeps the current run's records for the test; for simulations whose {@code after()}
   * writes results, which closes the run. Call before {@code LlmDsl.writeResults}.
   */
  static void capture() {
    captured = records();
  }

  /** The records captured by {@link #capture()}. */
  static List<RequestRecord> captured() {
    return captured;
  }

  /** The records of the last run in this JVM, texts included. */
  static List<RequestRecord> records() {
    RecordStore.Snapshot snapshot = LlmRun.current().orElseThrow().parts().requests().store()
        .snapshot();
    List<RequestRecord> records = new ArrayList<>();
    for (int i = 0; i < snapshot.size(); i++) {
      records.add(snapshot.record(i).withGeneratedText(snapshot.text(i)));
    }
    return records;
  }

  private static Path newestRunFolder(Path resultsFolder, Class<?> simulation) throws IOException {
    String prefix = simulation.getSimpleName().toLowerCase() + "-";
    try (Stream<Path> dirs = Files.list(resultsFolder)) {
      return dirs.filter(p -> p.getFileName().toString().startsWith(prefix))
          .max(Comparator.comparing(p -> p.getFileName().toString()))
          .orElseThrow(() -> new IllegalStateException("no run folder for " + prefix));
    }
  }
}
