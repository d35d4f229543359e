package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One drop-in {@code bench serve} run in this JVM whose console is kept for the assertions
 * (and echoed, for the build log) and whose single result JSON is read back; the run must
 * exit 0.
 */
final class CapturedBench {

  private static final ObjectMapper JSON = new ObjectMapper();

  record Run(JsonNode json, String console) {}

  private CapturedBench() {}

  static Run run(Path folder, String args) throws Exception {
    return run(folder, args, 0);
  }

  /** {@link #run(Path, String)}, for a run whose verdict sets {@code exitStatus} (README). */
  static Run run(Path folder, String args, int exitStatus) throws Exception {
    Files.createDirectories(folder);
    PrintStream original = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    PrintStream captured = new PrintStream(copy, true, StandardCharsets.UTF_8);
    System.setOut(captured);
    System.setErr(captured);
    GatlingRunner.Result result;
    try {
      result = GatlingRunner.run(BenchServe.class, folder, Map.of(CommandLine.ARGS_PROPERTY,
          args, "llm.resultsFolder", folder.toString()));
    } finally {
      // a run that crashed in-process leaves this thread interrupted
      Thread.interrupted();
      System.setOut(original);
      System.setErr(originalErr);
    }
    String console = copy.toString(StandardCharsets.UTF_8);
    original.print(console);
    assertEquals(exitStatus, result.exitCode(), console);
    try (Stream<Path> files = Files.list(result.runFolder())) {
      List<Path> json = files.filter(p -> p.toString().endsWith(".json")).toList();
      assertEquals(1, json.size(), json.toString());
      return new Run(JSON.readTree(json.get(0).toFile()), console);
    }
  }
}
