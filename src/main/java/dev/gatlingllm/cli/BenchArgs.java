package dev.gatlingllm.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The flags of one command line, checked against {@link BenchFlags}: unknown flags (with the
 * nearest valid one), refused flags (with the reason), missing values and stray words fail
 * here, before anything is loaded or sent. Values are read with vLLM's defaults, which come
 * from the same table.
 */
public final class BenchArgs {

  private final Map<String, List<String>> given;
  private final boolean help;

  private BenchArgs(Map<String, List<String>> given, boolean help) {
    this.given = given;
    this.help = help;
  }

  /**
   * Parses words such as {@code ["--model", "m", "--goodput", "ttft:500", "tpot:50"]};
   * {@code --flag=value} works too, and {@code _} may stand for {@code -} as with argparse.
   * A flag given twice keeps its last value, except flags of several values, whose values
   * add up ({@code --header a=1 --header b=2}).
   *
   * @throws IllegalArgumentException naming the word and the problem
   */
  public static BenchArgs parse(List<String> words) {
    Map<String, List<String>> given = new LinkedHashMap<>();
    boolean help = false;
    for (int i = 0; i < words.size(); i++) {
      String word = words.get(i);
      if (!word.startsWith("-") || isNumber(word)) {
        throw new IllegalArgumentException("unexpected argument '" + word + "': every value "
            + "follows its --flag (quote values that contain spaces)");
      }
      int eq = word.indexOf('=');
      String typed = eq > 0 ? word.substring(0, eq) : word;
      Flag flag = BenchFlags.find(typed).orElseThrow(() -> new IllegalArgumentException(
          "unknown flag " + typed + "; did you mean " + BenchFlags.nearest(typed) + "? "
          + "(-Dllm.args=--help lists every flag)"));
      if (flag.support() == Flag.Support.REFUSED) {
        throw new IllegalArgumentException(flag.option() + " is not supported: " + flag.note());
      }
      if (flag.name().equals("help")) {
        help = true;
        continue;
      }
      List<String> values = new ArrayList<>();
      if (eq > 0) {
        values.add(word.substring(eq + 1));
      } else if (flag.arity() != Flag.Arity.SWITCH) {
        while (i + 1 < words.size() && isValue(words.get(i + 1))
            && (values.isEmpty() || flag.arity() == Flag.Arity.MANY)) {
          values.add(words.get(++i));
        }
      }
      check(flag, values, eq > 0);
      if (flag.arity() == Flag.Arity.MANY) {
        given.computeIfAbsent(flag.name(), k -> new ArrayList<>()).addAll(values);
      } else {
        given.put(flag.name(), values);
      }
    }
    return new BenchArgs(given, help);
  }

  private static void check(Flag flag, List<String> values, boolean withEquals) {
    switch (flag.arity()) {
      case SWITCH -> {
        if (withEquals) {
          throw new IllegalArgumentException(flag.option() + " is a switch and takes no value");
        }
      }
      case ONE -> {
        if (values.isEmpty()) {
          throw new IllegalArgumentException(flag.option() + " needs a value");
        }
      }
      case MANY -> {
        // argparse's nargs="+" flags; --header and --metadata (nargs="*") may be empty
        if (values.isEmpty() && (flag.name().equals("goodput")
            || flag.name().equals("lora-modules"))) {
          throw new IllegalArgumentException(flag.option() + " needs at least one value");
        }
      }
    }
  }

  /** A word that is a value, not a flag: negative numbers are values, as with argparse. */
  private static boolean isValue(String word) {
    return !word.startsWith("-") || isNumber(word);
  }

  private static boolean isNumber(String word) {
    return word.matches("-\\d.*|-\\.\\d.*|-inf");
  }

  /** Whether {@code --help} (or {@code -h}) was given. */
  public boolean help() {
    return help;
  }

  /** Whether the flag was given (a switch: present). */
  public boolean has(String name) {
    return given.containsKey(known(name).name());
  }

  /** The flags given, by name, in the order first given. */
  public Map<String, List<String>> given() {
    return given;
  }

  /** The flag's value, or vLLM's default; empty when neither. */
  public Optional<String> value(String name) {
    Flag flag = known(name);
    List<String> values = given.get(flag.name());
    if (values != null) {
      return Optional.of(values.get(0));
    }
    return Optional.ofNullable(defaultOf(flag));
  }

  /** The values of a flag of several values; empty when not given. */
  public List<String> values(String name) {
    return given.getOrDefault(known(name).name(), List.of());
  }

  /** Whether a switch is on. */
  public boolean on(String name) {
    return has(name);
  }

  /** The value as a whole number, or vLLM's default; empty when neither. */
  public Optional<Integer> integer(String name) {
    return value(name).map(v -> {
      try {
        return Integer.parseInt(v.strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--" + name + " expects a whole number, got '" + v
            + "'");
      }
    });
  }

  /** The value as a number ({@code inf} allowed), or vLLM's default; empty when neither. */
  public Optional<Double> decimal(String name) {
    return value(name).map(v -> {
      String s = v.strip();
      if (s.equalsIgnoreCase("inf") || s.equalsIgnoreCase("infinity")) {
        return Double.POSITIVE_INFINITY;
      }
      try {
        double d = Double.parseDouble(s);
        if (Double.isNaN(d)) {
          throw new NumberFormatException();
        }
        return d;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--" + name + " expects a number, got '" + v + "'");
      }
    });
  }

  /** vLLM's default as a value, or null when its default is "not set". */
  static String defaultOf(Flag flag) {
    String d = flag.defaultValue();
    if (flag.arity() == Flag.Arity.SWITCH || d.startsWith("None") || d.equals("required")) {
      return null;
    }
    return d;
  }

  private static Flag known(String name) {
    return BenchFlags.find("--" + name)
        .orElseThrow(() -> new IllegalStateException("not in the flag table: " + name));
  }
}
