package dev.gatlingllm.internal.tool;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * How every tool's picocli command line reports a refused command line: one line naming the
 * command and the problem (a flag's own check speaks for itself, without picocli's "could not
 * invoke" wrapping), the nearest valid flag or sub-command for a misspelt one, and where the
 * help is; exit status 2. Each tool's command is a picocli command; the launcher
 * ({@code gatling-llm}) holds them all as sub-commands.
 */
public final class Tool {

  private Tool() {}

  /**
   * Runs {@code command} with the process's arguments, printing to the console.
   *
   * @return the exit status: 0, 1 when it failed, 2 for a refused command line
   */
  public static int main(Object command, String[] args) {
    return commandLine(command, System.out, System.err).execute(args);
  }

  /** {@code command}'s command line, printing to {@code out} and {@code err}. */
  public static CommandLine commandLine(Object command, PrintStream out, PrintStream err) {
    return configure(new CommandLine(command), out, err);
  }

  /** {@code commandLine}, printing to {@code out} and {@code err}, refusing as above. */
  public static CommandLine configure(CommandLine commandLine, PrintStream out, PrintStream err) {
    return commandLine
        .setOut(new PrintWriter(out, true, StandardCharsets.UTF_8))
        .setErr(new PrintWriter(err, true, StandardCharsets.UTF_8))
        .setParameterExceptionHandler(Tool::refuse)
        .setExecutionExceptionHandler(Tool::failed);
  }

  /**
   * A command that could not do its work (a file that is not what it should be, a state it
   * cannot handle) says why in one line and exits 1; anything else is a bug, with its trace.
   */
  public static int failed(Exception e, CommandLine command, CommandLine.ParseResult parsed)
      throws Exception {
    if (e instanceof IllegalArgumentException || e instanceof IllegalStateException
        || e instanceof java.io.IOException || e instanceof java.io.UncheckedIOException) {
      command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + e.getMessage());
      command.getErr().flush();
      return command.getCommandSpec().exitCodeOnExecutionException();
    }
    throw e;
  }

  /** Prints the refusal and returns the command's exit status for invalid input (2). */
  public static int refuse(ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    String name = command.getCommandSpec().qualifiedName();
    err.println(name + ": " + message(e));
    err.println("'" + name + " --help' lists the flags.");
    err.flush();
    return command.getCommandSpec().exitCodeOnInvalidInput();
  }

  /**
   * The problem in words: the flag's name and its converter's refusal ({@link BadValue}), the
   * message of a flag's own check (an {@link IllegalArgumentException} thrown while applying
   * its value), else picocli's.
   */
  public static String message(ParameterException e) {
    if (e.getCause() instanceof BadValue bad
        && e.getArgSpec() instanceof CommandLine.Model.OptionSpec option) {
      return option.longestName() + " " + bad.getMessage();
    }
    if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
      return unmatched(unmatched.getCommandLine().getCommandSpec(),
          unmatched.getUnmatched().get(0));
    }
    Throwable cause = e.getCause();
    while (cause != null) {
      if (cause instanceof IllegalArgumentException bad && bad.getMessage() != null) {
        return bad.getMessage();
      }
      cause = cause.getCause();
    }
    return e.getMessage();
  }

  /**
   * A converter's refusal of a flag's value, worded to follow the flag's name: "must be an
   * integer, got 'x'" is reported as "--port must be an integer, got 'x'" (a converter does
   * not know which flag it converts for).
   */
  public static final class BadValue extends CommandLine.TypeConversionException {
    private static final long serialVersionUID = 1L;

    /** {@code message} follows the flag's name. */
    public BadValue(String message) {
      super(message);
    }
  }

  /**
   * A command that knows better than edit distance what an unknown flag means (synonyms, a
   * newer version's flags): its picocli user object implements this.
   */
  public interface Suggests {
    /** The whole message for an unknown flag, as typed (dashes, no value). */
    String unknownFlag(String typed);
  }

  /** A word no flag or sub-command of {@code spec} takes, with the nearest one. */
  private static String unmatched(CommandSpec spec, String word) {
    if (word.startsWith("-") && !word.matches("-[\\d.].*")) {
      String typed = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
      if (spec.userObject() instanceof Suggests suggests) {
        return suggests.unknownFlag(typed);
      }
      return "unknown flag " + typed + nearest(typed, spec.optionsMap().keySet().stream()
          .filter(n -> n.startsWith("--")).toList()).map(n -> "; did you mean " + n + "?")
          .orElse("");
    }
    if (!spec.subcommands().isEmpty()) {
      return "unknown command '" + word + "'" + nearest(word, spec.subcommands().keySet())
          .map(n -> "; did you mean " + n + "?").orElse("")
          + " (commands: " + String.join(", ", spec.subcommands().keySet()) + ")";
    }
    return "unexpected argument '" + word + "'";
  }

  /**
   * The name nearest to a misspelt one by edit distance, ties broken by name. picocli's own
   * suggestion (bigram similarity) offers {@code --prefill-us-per-token} for {@code --prot}
   * and {@code --num-warmups} for {@code --num-prompt}.
   */
  public static Optional<String> nearest(String word, Collection<String> names) {
    return names.stream()
        .min(Comparator.comparingInt((String n) -> distance(word, n)).thenComparing(n -> n));
  }

  /** Edit distance: insertions, deletions and substitutions cost 1. */
  public static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
