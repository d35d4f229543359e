package dev.gatlingllm.internal.cli;

import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import dev.gatlingllm.internal.flags.FlagValues;
import dev.gatlingllm.internal.tool.Tool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The flags of one command line, parsed by picocli with the spec built from {@link BenchFlags}
 * ({@link BenchFlagSpec}): unknown flags (with picocli's nearest valid one), refused flags
 * (with the reason), missing values and stray words fail here, before anything is loaded or
 * sent. Each value was converted by its flag's kind (the table's kind column) as picocli
 * parsed it, so a bad number is refused here too and read typed from then on; a flag not given
 * reads as vLLM's default, converted the same way.
 */
public final class BenchArgs implements FlagValues {

  /** The values as written, by flag name, in the order first given. */
  private final Map<String, List<String>> given;
  /** The values as picocli converted them, by flag name; none for a switch. */
  private final Map<String, Object> converted;
  private final boolean help;

  private BenchArgs(Map<String, List<String>> given, Map<String, Object> converted,
      boolean help) {
    this.given = given;
    this.converted = converted;
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
    CommandSpec spec = BenchFlagSpec.create(null);
    try {
      return of(new picocli.CommandLine(spec).parseArgs(BenchFlags.normalized(words)
          .toArray(String[]::new)));
    } catch (ParameterException e) {
      // the message says it all; picocli's exception would only add its own words for it
      throw new IllegalArgumentException(message(e, words));
    }
  }

  /**
   * The flags of a command line picocli parsed with {@link BenchFlagSpec} (as the launcher's
   * {@code bench serve} does).
   *
   * @throws IllegalArgumentException for a flag the table refuses, with the reason
   */
  public static BenchArgs of(ParseResult result) {
    Map<String, List<String>> given = new LinkedHashMap<>();
    Map<String, Object> converted = new LinkedHashMap<>();
    for (OptionSpec option : result.matchedOptions()) {
      Flag flag = BenchFlags.find(option.longestName()).orElseThrow();
      if (flag.support() == Flag.Support.REFUSED) {
        throw new IllegalArgumentException(flag.option() + " is not supported: " + flag.note());
      }
      if (!option.usageHelp()) {
        given.put(flag.name(), values(flag, option));
        if (flag.arity() == Flag.Arity.ONE) {
          converted.put(flag.name(), option.getValue());
        }
      }
    }
    return new BenchArgs(given, converted, result.isUsageHelpRequested());
  }

  /**
   * The flags as words again, each once, in the order first given: {@code --flag=value}
   * (so that a value starting with a dash stays a value), {@code --flag v1 v2}, or
   * {@code --flag} alone; for a run that reads them anew.
   */
  public List<String> words() {
    List<String> words = new ArrayList<>();
    given.forEach((name, values) -> {
      if (known(name).arity() == Flag.Arity.ONE) {
        words.add("--" + name + "=" + values.get(0));
      } else {
        words.add("--" + name);
        words.addAll(values);
      }
    });
    return words;
  }

  /**
   * What picocli kept for a flag, as written: the last value, all values, or none for a
   * switch.
   */
  private static List<String> values(Flag flag, OptionSpec option) {
    return switch (flag.arity()) {
      case SWITCH -> List.of();
      case ONE -> {
        List<String> written = option.originalStringValues();
        yield List.of(written.get(written.size() - 1));
      }
      case MANY -> {
        List<String> values = option.getValue();
        yield values == null ? List.of() : List.copyOf(values);
      }
    };
  }

  /** picocli's finding, in the words the drop-in has always used for it. */
  public static String message(ParameterException e, List<String> words) {
    if (e.getCause() instanceof Tool.BadValue) {
      // a value its flag's kind refuses: "--num-prompts expects a whole number, got 'x'"
      return Tool.message(e);
    }
    if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
      String word = unmatched.getUnmatched().get(0);
      if (!word.startsWith("-") || isNumber(word)) {
        return "unexpected argument '" + word + "': every value follows its --flag (quote "
            + "values that contain spaces)";
      }
      // by meaning, then by edit distance: picocli's own suggestion (bigram similarity)
      // offers --num-warmups for --num-prompt and --ramp-up-strategy for --random-input-length
      String typed = asTyped(word.contains("=") ? word.substring(0, word.indexOf('=')) : word,
          words);
      return BenchFlagSpec.unknownFlag(typed) + " (-Dllm.args=--help lists every flag)";
    }
    if (e instanceof MissingParameterException missing && !missing.getMissing().isEmpty()
        && missing.getMissing().get(0) instanceof OptionSpec option) {
      return option.longestName() + (option.isMultiValue() ? " needs at least one value"
          : " needs a value");
    }
    Matcher switchValue = SWITCH_VALUE.matcher(String.valueOf(e.getMessage()));
    if (switchValue.matches()) {
      return switchValue.group(1) + " is a switch and takes no value";
    }
    return e.getMessage();
  }

  /** The flag as the user typed it, before {@link BenchFlags#normalized} spelt it so. */
  private static String asTyped(String flag, List<String> words) {
    return words.stream().map(w -> w.contains("=") ? w.substring(0, w.indexOf('=')) : w)
        .filter(w -> w.startsWith("--") && ("--" + BenchFlags.normalize(w.substring(2)))
            .equals(flag))
        .findFirst().orElse(flag);
  }

  /** picocli's words for a switch given a value ({@code --ignore-eos=true}). */
  private static final Pattern SWITCH_VALUE =
      Pattern.compile("option '(--[^']+)' should be specified without '.*' parameter");

  private static boolean isNumber(String word) {
    return word.matches("-\\d.*|-\\.\\d.*|-inf");
  }

  /** Whether {@code --help} (or {@code -h}) was given. */
  public boolean help() {
    return help;
  }

  /** Whether the flag was given (a switch: present). */
  @Override
  public boolean has(String name) {
    return given.containsKey(known(name).name());
  }

  /** The flags given, by name, in the order first given. */
  @Override
  public Set<String> names() {
    return given.keySet();
  }

  /** The flag's value as written, or vLLM's default; empty when neither. */
  @Override
  public Optional<String> value(String name) {
    Flag flag = known(name);
    List<String> values = given.get(flag.name());
    if (values != null) {
      return values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }
    return Optional.ofNullable(flag.defaultText());
  }

  /**
   * The flag's value as converted when parsed ({@code true} for a switch given), or vLLM's
   * default, converted alike; empty when neither.
   */
  @Override
  public Optional<Object> converted(String name) {
    Flag flag = known(name);
    if (flag.arity() == Flag.Arity.SWITCH) {
      return given.containsKey(flag.name()) ? Optional.of(Boolean.TRUE) : Optional.empty();
    }
    if (flag.arity() == Flag.Arity.MANY) {
      return given.containsKey(flag.name()) ? Optional.of(given.get(flag.name()))
          : Optional.empty();
    }
    return Optional.ofNullable(given.containsKey(flag.name()) ? converted.get(flag.name())
        : BenchFlags.defaultOf(flag.name()));
  }

  /** The values of a flag of several values; empty when not given. */
  @Override
  public List<String> values(String name) {
    return given.getOrDefault(known(name).name(), List.of());
  }

  /** Whether a switch is on. */
  @Override
  public boolean on(String name) {
    return has(name);
  }

  private static Flag known(String name) {
    return BenchFlags.find("--" + name)
        .orElseThrow(() -> new IllegalStateException("not in the flag table: " + name));
  }
}
