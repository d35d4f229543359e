package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.logging.Refusal;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --dry-run} and {@code --compare} as {@code gatling:test -Dllm.args=...} runs them: the
 * simulation does the work while it is built and sets nothing up (in the JVM the plugin forks
 * it then exits 0; here, outside that JVM, it stops with the reason).
 */
class BenchServeOfflineTest {

  @TempDir
  Path dir;

  private String built(String args, Class<? extends RuntimeException> thrown, String message) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream original = System.out;
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    System.setProperty(CommandLine.ARGS_PROPERTY, args);
    try {
      RuntimeException e = assertThrows(thrown, BenchServe::new);
      assertTrue(e.getMessage().contains(message), e.getMessage());
    } finally {
      System.clearProperty(CommandLine.ARGS_PROPERTY);
      System.setOut(original);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aDryRunPrintsTheSampleWhileTheSimulationIsBuilt() {
    String out = built("--model m --tokenizer gpt2 --dataset-name random --random-input-len 16 "
        + "--random-output-len 2 --num-prompts 3 --dry-run --result-dir " + dir,
        IllegalStateException.class, "nothing to run");
    assertTrue(out.contains("Requests:" + " ".repeat(32) + "3"), out);
    assertTrue(Files.isRegularFile(dir.resolve("dataset-stats.svg")));
  }

  @Test
  void aMissingCompareFileIsRefusedByName() {
    Path missing = dir.resolve("a.json");
    built("--compare " + missing + " " + missing, Refusal.class,
        "--compare: " + missing + " does not exist");
    assertEquals(0, dir.toFile().list().length, "no page without two runs");
  }
}
