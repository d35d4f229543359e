package dev.gatlingllm.internal.cli;

import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Where {@link BenchServe} gets its arguments: {@code -Dllm.argsFile=<file>} (one flag per
 * line) and {@code -Dllm.args="..."} (one line, split as a POSIX shell splits words).
 * Maven hands a system property over as one string, so the words have to be split again here.
 */
public final class CommandLine {

  /** System property holding the whole command line. */
  public static final String ARGS_PROPERTY = "llm.args";
  /** System property naming a file with one flag per line. */
  public static final String ARGS_FILE_PROPERTY = "llm.argsFile";

  private CommandLine() {}

  /**
   * The arguments of this run: the file's first, then those of {@code llm.args}, so that a
   * flag on the command line wins over the same flag in the file.
   */
  public static List<String> fromSystemProperties() {
    boolean forked = forkedByGatlingPlugin();
    List<String> args = new ArrayList<>();
    String file = System.getProperty(ARGS_FILE_PROPERTY);
    if (file != null && !file.isBlank()) {
      args.addAll(readFile(Path.of((forked ? unescapeFork(file) : file).strip())));
    }
    String line = System.getProperty(ARGS_PROPERTY);
    if (line != null) {
      args.addAll(split(forked ? unescapeFork(line) : line));
    }
    return args;
  }

  /**
   * Whether this JVM was forked by Gatling's Maven (or Gradle) plugin, read from how the JVM
   * was started ({@code sun.java.command}), see {@link #forkedBy(String)}.
   */
  public static boolean forkedByGatlingPlugin() {
    return forkedBy(System.getProperty("sun.java.command", ""));
  }

  /**
   * Whether a JVM started with {@code javaCommand} (its main class or jar, then its
   * arguments) is one Gatling's plugin forked: the plugin starts {@code ForkMain} from a
   * booter jar it writes ({@code java -jar .../gatlingbooter<n>.jar}), or by its class name.
   */
  static boolean forkedBy(String javaCommand) {
    return FORK_MAIN.matcher(javaCommand.strip()).lookingAt();
  }

  /** The plugin's booter jar (its path may hold spaces) or its main class, then arguments. */
  private static final Pattern FORK_MAIN = Pattern.compile(
      "(io\\.gatling\\.plugin\\.util\\.ForkMain|(.*[/\\\\])?gatlingbooter\\d*\\.jar)(\\s|$)");

  /**
   * Undoes what Gatling's plugin does to a propagated system property: it puts each one on
   * the forked JVM's command line escaped like a Java string literal ({@code '} becomes
   * {@code \'}, {@code "} {@code \"}, {@code \} {@code \\}, non-ASCII a backslash,
   * {@code u} and four hex digits), and nothing unescapes it, so the quotes of
   * {@code -Dllm.args} would arrive as literal characters.
   */
  static String unescapeFork(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\\' || i + 1 >= value.length()) {
        out.append(c);
        continue;
      }
      char next = value.charAt(++i);
      switch (next) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          if (i + 4 < value.length()) {
            out.append((char) Integer.parseInt(value.substring(i + 1, i + 5), 16));
            i += 4;
          } else {
            out.append('\\').append(next);
          }
        }
        default -> out.append(next);
      }
    }
    return out.toString();
  }

  /**
   * Splits a command line into words like a POSIX shell, without expansions: blanks separate
   * words; inside single quotes every character is literal; inside double quotes a backslash
   * escapes only {@code " \ $ `} and a newline; outside quotes a backslash makes the next
   * character literal. {@code ''} is an empty word.
   *
   * @throws IllegalArgumentException for an unclosed quote or a trailing backslash
   */
  public static List<String> split(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    int i = 0;
    while (i < line.length()) {
      char c = line.charAt(i);
      if (c == '\'') {
        int end = line.indexOf('\'', i + 1);
        if (end < 0) {
          throw new IllegalArgumentException("unclosed single quote at position " + i
              + " of the arguments: " + line);
        }
        word.append(line, i + 1, end);
        inWord = true;
        i = end + 1;
      } else if (c == '"') {
        i = doubleQuoted(line, i, word);
        inWord = true;
      } else if (c == '\\') {
        if (i + 1 >= line.length()) {
          throw new IllegalArgumentException("the arguments end with a lone backslash: " + line);
        }
        if (line.charAt(i + 1) != '\n') { // backslash-newline continues the line
          word.append(line.charAt(i + 1));
          inWord = true;
        }
        i += 2;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
        i++;
      } else {
        word.append(c);
        inWord = true;
        i++;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }

  /** Words quoted so that {@link #split} gives them back as they are. */
  public static String join(List<String> words) {
    return words.stream().map(CommandLine::quote).collect(Collectors.joining(" "));
  }

  private static String quote(String word) {
    if (!word.isEmpty() && word.matches("[A-Za-z0-9_./:=,+@%-]+")) {
      return word;
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }

  /** Appends the double-quoted part opening at {@code open}; returns the index after it. */
  private static int doubleQuoted(String line, int open, StringBuilder word) {
    int i = open + 1;
    while (i < line.length()) {
      char c = line.charAt(i);
      if (c == '"') {
        return i + 1;
      }
      if (c == '\\' && i + 1 < line.length() && "\"\\$`\n".indexOf(line.charAt(i + 1)) >= 0) {
        if (line.charAt(i + 1) != '\n') {
          word.append(line.charAt(i + 1));
        }
        i += 2;
      } else {
        word.append(c);
        i++;
      }
    }
    throw new IllegalArgumentException("unclosed double quote at position " + open
        + " of the arguments: " + line);
  }

  /**
   * Reads a file of flags, one per line: {@code --flag}, {@code --flag value} or
   * {@code --flag=value}. The value is the rest of the line, as is (spaces kept, no quoting
   * needed), except for flags that take several values ({@code --goodput}, {@code --metadata},
   * {@code --header}, {@code --lora-modules}), whose rest of line is split like
   * {@link #split}. Blank lines and lines starting with {@code #} are skipped.
   */
  public static List<String> readFile(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read -D" + ARGS_FILE_PROPERTY + "=" + file + ": "
          + e.getMessage(), e);
    }
    List<String> args = new ArrayList<>();
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (!line.startsWith("-")) {
        throw new IllegalArgumentException(file + " line " + (n + 1) + ": expected a --flag, "
            + "got '" + line + "' (one flag per line: --flag value or --flag=value)");
      }
      int space = indexOfBlank(line);
      int eq = line.indexOf('=');
      String flag;
      String rest;
      if (eq > 0 && (space < 0 || eq < space)) {
        flag = line.substring(0, eq);
        rest = line.substring(eq + 1);
        args.add(flag);
        args.addAll(valuesOf(flag, rest, true));
      } else if (space > 0) {
        flag = line.substring(0, space);
        rest = line.substring(space + 1).strip();
        args.add(flag);
        args.addAll(valuesOf(flag, rest, false));
      } else {
        args.add(line);
      }
    }
    return args;
  }

  private static List<String> valuesOf(String flag, String rest, boolean keepEmpty) {
    Flag known = BenchFlags.find(flag).orElse(null);
    if (known != null && known.arity() == Flag.Arity.MANY) {
      return split(rest);
    }
    return rest.isEmpty() && !keepEmpty ? List.of() : List.of(rest);
  }

  private static int indexOfBlank(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isWhitespace(s.charAt(i))) {
        return i;
      }
    }
    return -1;
  }
}
