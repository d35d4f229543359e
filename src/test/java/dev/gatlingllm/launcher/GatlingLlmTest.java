package dev.gatlingllm.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The launcher's command line: help from the flag table, suggestions, refusals, statuses. */
class GatlingLlmTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return GatlingLlm.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void benchServeHelpIsTheFlagTableInItsGroups() {
    assertEquals(0, run("bench", "serve", "--help"));
    String help = out();
    assertTrue(help.startsWith("Usage: gatling-llm bench serve [--model MODEL] [flags]\n"), help);
    for (Flag flag : BenchFlags.ALL) {
      assertTrue(help.contains(flag.option()), flag.name());
    }
    int serve = help.indexOf("\nserve:\n");
    int sampling = help.indexOf("\nsampling parameters:\n");
    int dataset = help.indexOf("\ndataset:\n");
    assertTrue(0 < serve && serve < sampling && sampling < dataset, help);
    assertTrue(help.indexOf("--top-p") > sampling && help.indexOf("--top-p") < dataset);
    assertTrue(help.indexOf("--num-prompts") > dataset);
    // the table's default and refusal, as the table gives them
    assertTrue(help.replaceAll("\\s+", " ").contains("--ready-check-timeout-sec=READY_CHECK_TIMEOUT_SEC"
        + " polls the endpoint with the first prompt (every 5 s) until it answers; 0 (the "
        + "default) skips the check (default: 0; vLLM 0.29)"), help);
    assertTrue(help.contains("-Dllm.args"), "the Maven form is named too");
    assertEquals("", err());
  }

  @Test
  void aMisspeltFlagIsRefusedWithTheNearestOneAndStatusTwo() {
    assertEquals(2, run("bench", "serve", "--model", "m", "--num-prompt", "3"));
    assertEquals("gatling-llm bench serve: unknown flag --num-prompt; did you mean "
        + "--num-prompts?\n'gatling-llm bench serve --help' lists the flags.\n", err());
    assertEquals("", out());
  }

  @Test
  void anUnknownFlagIsSuggestedByItsMeaningAndARefusedOneSaysWhereItIs() {
    // by spelling alone --no-verify-ssl is nearest to --no-reranker
    assertEquals(2, run("bench", "serve", "--model", "m", "--no-verify-ssl"));
    assertEquals("gatling-llm bench serve: unknown flag --no-verify-ssl; did you mean "
        + "--insecure?\n'gatling-llm bench serve --help' lists the flags.\n", err());
    err.reset();
    assertEquals(2, run("bench", "serve", "--model", "m", "--use-beam-search"));
    assertTrue(err().startsWith("gatling-llm bench serve: --use-beam-search is not supported: "
        + "the OpenAI-compatible requests"), err());
  }

  @Test
  void aMisspeltCommandIsRefusedWithTheNearestOne() {
    assertEquals(2, run("bnech", "serve"));
    assertTrue(err().startsWith("gatling-llm: unknown command 'bnech'; did you mean bench?"),
        err());
    err.reset();
    assertEquals(2, run("bench", "sweep", "serve-sla"));
    assertTrue(err().startsWith("gatling-llm bench sweep: unknown command 'serve-sla'; did you "
        + "mean serve_sla?"), err());
  }

  @Test
  void refusedFlagsMissingAndBadValuesExitTwoNamingTheProblem() {
    assertEquals(2, run("bench", "serve", "--model", "m", "--trust-remote-code"));
    assertTrue(err().startsWith("gatling-llm bench serve: --trust-remote-code is not supported: "
        + "tokenizers here are `tokenizer.json` files read by DJL"), err());
    err.reset();
    assertEquals(2, run("bench", "serve", "--model"));
    assertTrue(err().startsWith("gatling-llm bench serve: Missing required parameter for option "
        + "'--model' (MODEL)"), err());
    err.reset();
    assertEquals(2, run("sim", "--port", "abc"));
    assertTrue(err().startsWith("gatling-llm sim: --port must be an integer, got 'abc'\n"),
        err());
    err.reset();
    assertEquals(2, run("bench", "sweep", "serve", "--bench-args", "--model m", "--num-runs",
        "x"));
    assertTrue(err().startsWith("gatling-llm bench sweep serve: Invalid value for option "
        + "'--num-runs': 'x' is not an int"), err());
    err.reset();
    assertEquals(2, run("compare", "only-one"));
    assertTrue(err().startsWith("gatling-llm compare: positional parameter at index 0..* (RUN) "
        + "requires at least 2 values, but only 1 were specified: [only-one]"), err());
    err.reset();
    assertEquals(2, run());
    assertTrue(err().startsWith("gatling-llm: give a command: bench, sim, recover, merge, "
        + "compare"), err());
  }

  @Test
  void everyLevelHasItsHelpAndTheTopItsVersion() {
    for (String[] command : new String[][] {{"--help"}, {"bench", "--help"},
        {"bench", "sweep", "--help"}, {"bench", "sweep", "plot", "--help"},
        {"bench", "sweep", "repeat", "--help"}, {"sim", "--help"},
        {"recover", "--help"}, {"merge", "--help"}, {"compare", "--help"}}) {
      out.reset();
      assertEquals(0, run(command), String.join(" ", command));
      assertTrue(out().startsWith("Usage: gatling-llm"), out());
    }
    out.reset();
    assertEquals(0, run("--version"));
    assertTrue(out().matches("gatling-llm \\d+\\.\\d+\\.\\d+\\S* \\(Gatling 3\\.16\\.\\d+, "
        + "Java .*\\)\n"), out());
  }

  @Test
  void benchServeTakesArgparsesUnderscoresAndReadsLlmArgsFirst() {
    assertArrayEquals(new String[] {"bench", "serve", "--num-prompts", "3", "--top-p=0.9"},
        GatlingLlm.normalized(new String[] {"bench", "serve", "--num_prompts", "3",
            "--top_p=0.9"}));
    assertArrayEquals(new String[] {"sim", "--max_tokens", "3"},
        GatlingLlm.normalized(new String[] {"sim", "--max_tokens", "3"}), "bench serve only");
    System.setProperty(CommandLine.ARGS_PROPERTY, "--model a --label 'my run'");
    try {
      assertArrayEquals(new String[] {"bench", "serve", "--model", "a", "--label", "my run",
          "--model", "b"}, GatlingLlm.normalized(new String[] {"bench", "serve", "--model", "b"}));
    } finally {
      System.clearProperty(CommandLine.ARGS_PROPERTY);
    }
  }
}
