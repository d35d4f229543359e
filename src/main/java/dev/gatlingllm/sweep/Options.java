package dev.gatlingllm.sweep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The flags of one sub-command, read the way argparse reads them: {@code --flag value},
 * {@code --flag=value}, switches without a value, positionals; an unknown flag, a missing
 * value or a stray word is an error naming it.
 */
final class Options {

  private final Map<String, String> values;
  private final List<String> positionals;

  private Options(Map<String, String> values, List<String> positionals) {
    this.values = values;
    this.positionals = positionals;
  }

  /**
   * @param withValue   flags that take a value ({@code --num-runs})
   * @param switches    flags without one ({@code --dry-run})
   * @param aliases     short spellings ({@code -o} for {@code --output-dir})
   * @param positionals how many positional words the command takes
   */
  static Options parse(String command, List<String> args, Set<String> withValue,
      Set<String> switches, Map<String, String> aliases, int positionals) {
    Map<String, String> values = new LinkedHashMap<>();
    List<String> words = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String word = args.get(i);
      if (!word.startsWith("-") || word.equals("-")) {
        if (words.size() >= positionals) {
          throw new IllegalArgumentException(command + ": unrecognized arguments: " + word);
        }
        words.add(word);
        continue;
      }
      int eq = word.indexOf('=');
      String flag = eq > 0 ? word.substring(0, eq) : word;
      flag = aliases.getOrDefault(flag, flag);
      String name = flag.replaceFirst("^--", "").replace('_', '-');
      if (withValue.contains(name)) {
        String value;
        if (eq > 0) {
          value = word.substring(eq + 1);
        } else if (i + 1 < args.size()) {
          value = args.get(++i);
        } else {
          throw new IllegalArgumentException(command + ": argument --" + name
              + ": expected one argument");
        }
        values.put(name, value);
      } else if (switches.contains(name)) {
        if (eq > 0) {
          throw new IllegalArgumentException(command + ": argument --" + name
              + ": ignored explicit argument '" + word.substring(eq + 1) + "'");
        }
        values.put(name, "true");
      } else {
        List<String> known = new ArrayList<>();
        withValue.forEach(f -> known.add("--" + f));
        switches.forEach(f -> known.add("--" + f));
        throw new IllegalArgumentException(command + ": unrecognized arguments: " + word
            + " (valid: " + String.join(" ", known) + ")");
      }
    }
    if (words.size() < positionals) {
      throw new IllegalArgumentException(command + ": the following arguments are required: "
          + "OUTPUT_DIR");
    }
    return new Options(values, words);
  }

  Optional<String> value(String name) {
    return Optional.ofNullable(values.get(name));
  }

  String require(String command, String name) {
    return value(name).orElseThrow(() -> new IllegalArgumentException(command
        + ": the following arguments are required: --" + name));
  }

  boolean on(String name) {
    return values.containsKey(name);
  }

  int integer(String name, int fallback) {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("argument --" + name + ": invalid int value: '" + v
          + "'");
    }
  }

  String positional(int i) {
    return positionals.get(i);
  }
}
