package dev.gatlingllm.internal.flags;

import static dev.gatlingllm.internal.flags.Flag.Arity.MANY;
import static dev.gatlingllm.internal.flags.Flag.Arity.ONE;
import static dev.gatlingllm.internal.flags.Flag.Support.REFUSED;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every flag of {@code vllm bench serve} (its serve flags, sampling parameters and dataset
 * groups), with vLLM's default and what the drop-in does with it, read from the table
 * {@value #TABLE} beside this class. The one source of truth: the drop-in's parsing and
 * {@code --help} (through picocli, {@code cli.BenchFlagSpec}), the README table and which
 * dataset takes which flag ({@code dataset.DatasetFlags}) all come from {@link #ALL}. It sits
 * in a package of its own, below both {@code cli} and {@code dataset}, so that each can read
 * it without the one depending on the other.
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
   * vLLM's defaults, each converted by its flag's kind as a given value is (a default that
   * does not convert is a mistake of the table, found when it is read); a flag whose default
   * is "not set" has none.
   */
  private static final Map<String, Object> DEFAULTS = defaults();

  /**
   * The table: one flag a line, tab-separated (name, arity, kind, vLLM's default, group,
   * meaning, support, note, vLLM version, datasets); {@code #} lines are comments.
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
        // the last columns (the vLLM version, the datasets) may be left off when empty
        if (c.length < 8 || c.length > 10) {
          throw new IllegalStateException(resource + ": expected 10 tab-separated columns, got "
              + c.length + " in: " + line);
        }
        Set<String> datasets = c.length < 10 || c[9].isEmpty() ? Set.of()
            : Set.copyOf(Arrays.asList(c[9].split(",")));
        flags.add(new Flag(c[0], Flag.Arity.valueOf(c[1]), Flag.Kind.ofColumn(c[2]), c[3], c[4],
            c[5], Flag.Support.valueOf(c[6]), c[7].isEmpty() ? null : c[7],
            c.length >= 9 ? c[8] : "", datasets));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
    return List.copyOf(flags);
  }

  private static Map<String, Object> defaults() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Flag flag : ALL) {
      if (flag.defaultText() != null && flag.arity() == ONE) {
        out.put(flag.name(), flag.convert(flag.defaultText()));
      }
    }
    return Map.copyOf(out);
  }

  /**
   * vLLM's default of the flag {@code name}, converted by the flag's kind (an {@link Integer},
   * a {@link Double}, a {@link String}); null when vLLM leaves it unset.
   *
   * @throws IllegalStateException for a name the table does not have
   */
  public static Object defaultOf(String name) {
    Flag flag = BY_NAME.get(normalize(name));
    if (flag == null) {
      throw new IllegalStateException("not in the flag table: " + name);
    }
    return DEFAULTS.get(flag.name());
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

  /**
   * A flag's name as the table spells it, without dashes: {@code top_P}, {@code --top-p} and
   * {@code top-p} are {@code top-p}. The one rule by which every reader of flags (the
   * drop-in's parsing, the datasets' {@code fromArgs} and {@code fromFlags}, the launcher)
   * finds a flag in the table.
   */
  public static String normalize(String name) {
    String key = name.strip();
    int start = 0;
    while (start < key.length() && key.charAt(start) == '-') {
      start++;
    }
    return key.substring(start).replace('_', '-').toLowerCase(Locale.ROOT);
  }

  /**
   * Command-line words with each {@code --flag} spelt as the table spells it ({@code --top_p}
   * is {@code --top-p}, as argparse takes it); a value, and the value of
   * {@code --flag=value}, stays as written.
   */
  public static List<String> normalized(List<String> words) {
    return words.stream().map(word -> {
      if (!word.startsWith("--")) {
        return word;
      }
      int eq = word.indexOf('=');
      String flag = eq > 0 ? word.substring(0, eq) : word;
      return "--" + normalize(flag) + (eq > 0 ? word.substring(eq) : "");
    }).toList();
  }

  /** Every flag's name, without dashes. */
  public static Set<String> names() {
    return BY_NAME.keySet();
  }

  /**
   * The README's table, generated from {@link #ALL}: each flag with its value, written as
   * {@code valueLabel} names it (the values a choice flag takes, from the tables that parse
   * them: {@code cli.FlagChoices}), else {@code V} (or {@code V…} for several).
   */
  public static String markdownTable(Function<Flag, Optional<String>> valueLabel) {
    List<String> rows = new ArrayList<>();
    rows.add("| flag | vLLM default | vLLM | here | refused, and why |");
    rows.add("|---|---|---|---|---|");
    for (Flag f : ALL) {
      String value = valueLabel.apply(f).map(l -> " `" + l + "`")
          .orElse(f.arity() == ONE ? " V" : f.arity() == MANY ? " V…" : "");
      rows.add("| `" + f.option() + "`" + value + " | " + (f.defaultValue().isEmpty() ? "" : "`" + f.defaultValue()
          + "`") + " | " + f.since() + " | "
          + (f.support() == REFUSED ? "**refused**" : f.meaning()) + " | "
          + (f.note() == null ? "" : f.note()) + " |");
    }
    return String.join("\n", rows) + "\n";
  }

}
