package dev.gatlingllm.cli;

import static dev.gatlingllm.cli.Flag.Arity.MANY;
import static dev.gatlingllm.cli.Flag.Arity.ONE;
import static dev.gatlingllm.cli.Flag.Support.REFUSED;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Every flag of {@code vllm bench serve} (its serve flags, sampling parameters and dataset
 * groups), with vLLM's default and what {@link BenchServe} does with it, read from the table
 * {@value #TABLE} beside this class. The one source of truth: parsing and {@code --help}
 * (through picocli, {@link BenchFlagSpec}) and the README table all come from {@link #ALL}.
 */
public final class BenchFlags {

  /** The table's file, beside this class. */
  static final String TABLE = "bench-flags.tsv";

  /** Every flag, in the order of the help. */
  public static final List<Flag> ALL = read(TABLE);

  private static final Map<String, Flag> BY_NAME = ALL.stream()
      .collect(Collectors.toMap(Flag::name, f -> f, (a, b) -> {
        throw new IllegalStateException("flag listed twice: " + a.name());
      }, LinkedHashMap::new));

  private BenchFlags() {}

  /**
   * The table: one flag a line, tab-separated (name, arity, vLLM's default, group, meaning,
   * support, note, vLLM version); {@code #} lines are comments.
   */
  static List<Flag> read(String resource) {
    List<Flag> flags = new ArrayList<>();
    try (InputStream in = BenchFlags.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is missing from the plugin's jar");
      }
      List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
      for (String line : lines) {
        String[] c = line.split("\t", -1);
        // the eighth column (the vLLM version) may be left off for a flag of the reference
        if (c.length != 7 && c.length != 8) {
          throw new IllegalStateException(resource + ": expected 8 tab-separated columns, got "
              + c.length + " in: " + line);
        }
        flags.add(new Flag(c[0], Flag.Arity.valueOf(c[1]), c[2], c[3], c[4],
            Flag.Support.valueOf(c[5]), c[6].isEmpty() ? null : c[6], c.length == 8 ? c[7] : ""));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
    return List.copyOf(flags);
  }

  /**
   * The flag a command-line word names: {@code --top-p}, {@code --top_p} (argparse accepts
   * both spellings) or {@code -h}.
   */
  public static Optional<Flag> find(String word) {
    if (word.equals("-h")) {
      return Optional.of(BY_NAME.get("help"));
    }
    if (!word.startsWith("--")) {
      return Optional.empty();
    }
    return Optional.ofNullable(BY_NAME.get(normalize(word.substring(2))));
  }

  static String normalize(String name) {
    return name.replace('_', '-').toLowerCase(Locale.ROOT);
  }

  /** Every flag's name, without dashes. */
  static java.util.Set<String> names() {
    return BY_NAME.keySet();
  }

  /** The README's table, generated from {@link #ALL}. */
  public static String markdownTable() {
    List<String> rows = new ArrayList<>();
    rows.add("| flag | vLLM default | vLLM | here | refused, and why |");
    rows.add("|---|---|---|---|---|");
    for (Flag f : ALL) {
      rows.add("| `" + f.option() + "`" + (f.arity() == ONE ? " V" : f.arity() == MANY
          ? " V…" : "") + " | " + (f.defaultValue().isEmpty() ? "" : "`" + f.defaultValue()
          + "`") + " | " + f.since() + " | "
          + (f.support() == REFUSED ? "**refused**" : f.meaning()) + " | "
          + (f.note() == null ? "" : f.note()) + " |");
    }
    return String.join("\n", rows) + "\n";
  }

}
