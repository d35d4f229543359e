package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a command line becomes words: as a POSIX shell splits them (what bash would pass). */
class CommandLineTest {

  @TempDir
  Path dir;

  @Test
  void blanksSeparateWordsAndRunsOfBlanksCountOnce() {
    assertEquals(List.of("--model", "m", "--num-prompts", "5"),
        CommandLine.split("  --model m \t --num-prompts\n5 "));
    assertEquals(List.of(), CommandLine.split("   "));
  }

  @Test
  void singleQuotesKeepEverythingLiteral() {
    assertEquals(List.of("--label", "my \"best\" run\\n"),
        CommandLine.split("--label 'my \"best\" run\\n'"));
  }

  @Test
  void doubleQuotesKeepSpacesAndTakeBackslashEscapesOfQuoteAndBackslashOnly() {
    assertEquals(List.of("--metadata", "note=say \"hi\"", "path=C:\\temp\\n"),
        CommandLine.split("--metadata \"note=say \\\"hi\\\"\" \"path=C:\\\\temp\\n\""));
  }

  @Test
  void quotedPartsJoinTheWordAroundThem() {
    assertEquals(List.of("--header", "x-note=two words"),
        CommandLine.split("--header x-note='two words'"));
    assertEquals(List.of("a\"b", ""), CommandLine.split("a\\\"b ''"));
  }

  @Test
  void backslashOutsideQuotesMakesTheNextCharacterLiteral() {
    assertEquals(List.of("--label", "two words"), CommandLine.split("--label two\\ words"));
    assertEquals(List.of("--a", "--b"), CommandLine.split("--a \\\n--b"));
  }

  @Test
  void unclosedQuotesAndATrailingBackslashAreErrors() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CommandLine.split("--label 'oops")).getMessage().contains("unclosed single quote"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CommandLine.split("--label \"oops")).getMessage().contains("unclosed double"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CommandLine.split("--label oops\\")).getMessage().contains("lone backslash"));
  }

  @Test
  void theGatlingPluginsEscapingOfAForkedPropertyIsUndone() {
    // what gatling-maven-plugin puts on the forked JVM's command line for
    // -Dllm.args="--label 'my run' --metadata \"a=b\" x\y é"
    String forked = "--label \\'my run\\' --metadata \\\"a=b\\\" x\\\\y \\u00e9";
    assertEquals("--label 'my run' --metadata \"a=b\" x\\y é", CommandLine.unescapeFork(forked));
    assertEquals(List.of("--label", "my run", "--metadata", "a=b", "xy", "é"),
        CommandLine.split(CommandLine.unescapeFork(forked)));
  }

  @Test
  void notForkedInATest() {
    assertEquals(false, CommandLine.forkedByGatlingPlugin());
  }

  @Test
  void theGatlingPluginsForkIsKnownByItsBooterJarOrMainClass() {
    // as gatling-maven-plugin 4.21 starts it: java -jar <tmp>/gatlingbooter<n>.jar <args file>
    assertTrue(CommandLine.forkedBy("/tmp/gatlingbooter8814473207045364216.jar /tmp/x.args"));
    assertTrue(CommandLine.forkedBy("C:\\Documents and Settings\\u\\gatlingbooter1.jar x"));
    assertTrue(CommandLine.forkedBy("io.gatling.plugin.util.ForkMain /tmp/x.args"));
    assertFalse(CommandLine.forkedBy("dev.gatlingllm.launcher.GatlingLlm bench serve"));
    assertFalse(CommandLine.forkedBy("/usr/share/maven/boot/plexus-classworlds.jar"));
    assertFalse(CommandLine.forkedBy(""));
    assertFalse(CommandLine.forkedBy("/tmp/gatlingbooter1.jar.bak"));
  }

  @Test
  void argsFileTakesOneFlagPerLineWithValuesAsWrittenAndSkipsComments() throws IOException {
    Path file = dir.resolve("bench.args");
    Files.writeString(file, """
        # a vLLM command line, one flag per line
        --backend openai-chat
        --label nightly run: "A/B" test

        --model=meta-llama/Llama-3.1-8B-Instruct
          --ignore-eos
        --goodput ttft:500 tpot:50
        --metadata version=0.11 'note=two words'
        --result-filename=
        """);
    assertEquals(List.of("--backend", "openai-chat", "--label", "nightly run: \"A/B\" test",
        "--model", "meta-llama/Llama-3.1-8B-Instruct", "--ignore-eos", "--goodput",
        "ttft:500", "tpot:50", "--metadata", "version=0.11", "note=two words",
        "--result-filename", ""), CommandLine.readFile(file));
  }

  @Test
  void argsFileLineWithoutAFlagIsAnErrorNamingTheLine() throws IOException {
    Path file = dir.resolve("bad.args");
    Files.writeString(file, "--model m\nrandom\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CommandLine.readFile(file));
    assertTrue(e.getMessage().contains("line 2: expected a --flag, got 'random'"),
        e.getMessage());
  }

  @Test
  void missingArgsFileIsNamed() {
    Path missing = dir.resolve("nope.args");
    assertTrue(assertThrows(RuntimeException.class, () -> CommandLine.readFile(missing))
        .getMessage().contains("cannot read -Dllm.argsFile=" + missing));
  }

  @Test
  void fileFlagsComeFirstSoTheCommandLineWins() throws IOException {
    Path file = dir.resolve("base.args");
    Files.writeString(file, "--request-rate 5\n");
    System.setProperty(CommandLine.ARGS_FILE_PROPERTY, file.toString());
    System.setProperty(CommandLine.ARGS_PROPERTY, "--request-rate 'inf'");
    try {
      List<String> words = CommandLine.fromSystemProperties();
      assertEquals(List.of("--request-rate", "5", "--request-rate", "inf"), words);
      assertEquals("inf", BenchArgs.parse(words).value("request-rate").orElseThrow());
    } finally {
      System.clearProperty(CommandLine.ARGS_FILE_PROPERTY);
      System.clearProperty(CommandLine.ARGS_PROPERTY);
    }
  }
}
