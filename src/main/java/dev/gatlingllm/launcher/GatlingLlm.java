package dev.gatlingllm.launcher;

import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.report.CompareCommand;
import dev.gatlingllm.internal.report.MergeCommand;
import dev.gatlingllm.internal.report.RecoverCommand;
import dev.gatlingllm.internal.sim.SimCommand;
import dev.gatlingllm.internal.sweep.SweepCommand;
import dev.gatlingllm.internal.tool.HelpOption;
import dev.gatlingllm.internal.tool.Tool;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code gatling-llm}: every tool of the plugin under one command whose sub-commands mirror
 * vLLM's, so that a vLLM user types the command they know with {@code gatling-llm} in front:
 * {@code gatling-llm bench serve <vllm flags>}, {@code gatling-llm bench sweep serve ...},
 * plus {@code sim}, {@code recover}, {@code merge} and {@code compare}. Each is a picocli
 * command; {@code bin/gatling-llm} of the distribution starts this class with the JVM
 * settings the timings need.
 */
@Command(name = "gatling-llm", mixinStandardHelpOptions = true, versionProvider =
    GatlingLlm.Version.class, usageHelpWidth = 100,
    description = "LLM serving benchmarks on Gatling, with vLLM's flags, metrics and result "
        + "files.",
    footer = {"", "Each command's --help lists its flags, e.g. gatling-llm bench serve --help."})
public final class GatlingLlm implements Runnable {

  @Spec
  private CommandSpec spec;

  public static void main(String[] args) {
    LeanStart.beforeCommands();
    System.exit(run(args, System.out, System.err));
  }

  /** The command line; returns the exit status instead of exiting. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    String[] words;
    try {
      words = normalized(args);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      err.println("gatling-llm bench serve: " + e.getMessage());
      return 2;
    }
    return commandLine(out, err).execute(words);
  }

  /** The whole command tree, printing to {@code out} and {@code err}. */
  static picocli.CommandLine commandLine(PrintStream out, PrintStream err) {
    picocli.CommandLine bench = new picocli.CommandLine(new Bench())
        .addSubcommand(BenchServeRun.commandLine())
        .addSubcommand(SweepCommand.commandLine(out));
    picocli.CommandLine top = new picocli.CommandLine(new GatlingLlm())
        .addSubcommand(bench)
        .addSubcommand(new SimCommand())
        .addSubcommand(new RecoverCommand())
        .addSubcommand(new MergeCommand())
        .addSubcommand(new CompareCommand());
    Tool.configure(top, out, err);
    bench.getSubcommands().get("sweep").setExecutionExceptionHandler(SweepCommand.FAILED);
    return top;
  }

  /**
   * For {@code bench serve}: the flags of {@code -Dllm.argsFile} and {@code -Dllm.args} first
   * (as under {@code gatling:test}; a Kubernetes Job passes its variables this way), then those
   * of the command line, which win; each spelt as the flag table spells it (argparse, and so
   * vLLM, takes {@code --top_p} for {@code --top-p}).
   */
  static String[] normalized(String[] args) {
    if (args.length < 2 || !args[0].equals("bench") || !args[1].equals(BenchServeRun.NAME)) {
      return args;
    }
    List<String> flags = new ArrayList<>(CommandLine.fromSystemProperties());
    flags.addAll(Arrays.asList(args).subList(2, args.length));
    List<String> words = new ArrayList<>(List.of(args[0], args[1]));
    words.addAll(BenchFlags.normalized(flags));
    return words.toArray(String[]::new);
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "give a command: "
        + String.join(", ", spec.subcommands().keySet()));
  }

  /** {@code gatling-llm bench}: vLLM's {@code vllm bench} commands. */
  @Command(name = "bench",
      description = "vLLM's benchmark commands: serve (one benchmark), sweep (many).")
  static final class Bench implements Runnable {

    @Mixin
    private HelpOption help;

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
      throw new ParameterException(spec.commandLine(), "give a command: "
          + String.join(", ", spec.subcommands().keySet()));
    }
  }

  /** The version of the plugin, as the build wrote it. */
  static final class Version implements IVersionProvider {

    @Override
    public String[] getVersion() {
      return new String[] {"gatling-llm " + version() + " (Gatling "
          + io.gatling.javaapi.core.Simulation.class.getPackage().getImplementationVersion()
          + ", Java " + Runtime.version() + ")"};
    }

    static String version() {
      Properties properties = new Properties();
      try (InputStream in = GatlingLlm.class.getResourceAsStream("version.properties")) {
        if (in == null) {
          throw new IllegalStateException("version.properties is missing from the plugin's jar");
        }
        properties.load(in);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return properties.getProperty("version");
    }
  }
}
