package dev.gatlingllm.internal.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class ToolTest {

  @Command(name = "demo", subcommands = {Demo.Run.class})
  static class Demo {
    @Command(name = "run")
    static class Run implements Runnable {
      @Option(names = "--port")
      int port;

      @Option(names = "--rate")
      void rate(String value) {
        if (!value.matches("\\d+")) {
          throw new IllegalArgumentException("--rate must be a whole number, got '" + value + "'");
        }
      }

      @Override
      public void run() {}
    }
  }

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Tool.commandLine(new Demo(), new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8)).execute(args);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
    assertEquals(0, Tool.distance("seed", "seed"));
    assertEquals(1, Tool.distance("sed", "seed"));
    assertEquals(3, Tool.distance("kitten", "sitting"));
    assertEquals("--port", Tool.nearest("--prot", List.of("--prefill-us-per-token", "--port"))
        .orElseThrow());
  }

  @Test
  void aMisspeltFlagGetsTheNearestOneAndStatusTwo() {
    assertEquals(2, run("run", "--prot", "3"));
    assertEquals("demo run: unknown flag --prot; did you mean --port?\n"
        + "'demo run --help' lists the flags.\n", err());
  }

  @Test
  void aMisspeltCommandGetsTheNearestOne() {
    assertEquals(2, run("rnu"));
    assertEquals("demo: unknown command 'rnu'; did you mean run? (commands: run)\n"
        + "'demo --help' lists the flags.\n", err());
  }

  @Test
  void aFlagsOwnCheckSpeaksWithoutPicocliWrapping() {
    assertEquals(2, run("run", "--rate", "fast"));
    assertEquals("demo run: --rate must be a whole number, got 'fast'\n"
        + "'demo run --help' lists the flags.\n", err());
  }
}
