package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import dev.gatlingllm.internal.flags.GivenValues;
import dev.gatlingllm.internal.tool.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The dataset flags, as the one flag table ({@link BenchFlags}) gives them: which flags a
 * dataset reads, which dataset accepts which (the table's datasets column), how many values
 * each takes; and the command-line words of {@link Datasets#fromArgs} parsed with them. The
 * drop-in parses the same flags with the same table, so the two cannot disagree on a flag.
 */
final class DatasetFlags {

  /** Every dataset flag of the table, by name, in the table's order. */
  private static final Map<String, Flag> BY_NAME = BenchFlags.ALL.stream()
      .filter(Flag::isDatasetFlag)
      .collect(Collectors.toMap(Flag::name, f -> f, (a, b) -> a, LinkedHashMap::new));

  /** Every flag name (without dashes in front) that a dataset reads. */
  static final Set<String> NAMES = Set.copyOf(BY_NAME.keySet());

  static {
    for (Flag flag : BY_NAME.values()) {
      // fromFlags takes one value a flag; a list would need a reader of its own
      if (flag.arity() == Flag.Arity.MANY) {
        throw new IllegalStateException(flag.option() + " takes several values, which no "
            + "dataset reads; give it arity ONE in the flag table or teach the datasets lists");
      }
    }
  }

  private DatasetFlags() {}

  /** Whether {@code flag} (normalized) is one a dataset reads. */
  static boolean known(String flag) {
    return BY_NAME.containsKey(flag);
  }

  /** Whether the dataset {@code dataset} reads {@code flag} (both normalized). */
  static boolean accepts(String dataset, String flag) {
    Flag known = BY_NAME.get(flag);
    return known != null && known.takenBy(dataset);
  }

  /** The datasets that accept {@code flag}, e.g. "random, random-mm or random-rerank datasets". */
  static String owners(String flag) {
    List<String> names = BY_NAME.get(flag).datasets().stream().sorted().toList();
    String last = names.get(names.size() - 1);
    return (names.size() == 1 ? last
        : String.join(", ", names.subList(0, names.size() - 1)) + " or " + last)
        + (names.size() == 1 ? " dataset" : " datasets");
  }

  /**
   * {@code vllm bench serve} words such as {@code "--dataset-name", "random",
   * "--no-oversample"}, parsed by picocli with the table's arities and each value converted by
   * its flag's kind, as the drop-in converts it.
   *
   * @throws IllegalArgumentException for an unknown flag, a bad value, a missing value or a
   *     stray word
   */
  static GivenValues parse(String... args) {
    CommandSpec spec = CommandSpec.create().name("dataset");
    // argparse's habits: the last of a repeated flag wins; "@" starts a value, not a file
    spec.parser().overwrittenOptionsAllowed(true).expandAtFiles(false)
        .unmatchedOptionsAllowedAsOptionParameters(false);
    for (Flag flag : BY_NAME.values()) {
      // a switch may be given true or false, as fromFlags reads it
      spec.addOption(OptionSpec.builder(flag.option()).type(Object.class)
          .converters(text -> convert(flag, text))
          .arity(flag.arity() == Flag.Arity.SWITCH ? "0..1" : "1").build());
    }
    ParseResult parsed;
    try {
      parsed = new CommandLine(spec).parseArgs(
          BenchFlags.normalized(List.of(args)).toArray(String[]::new));
    } catch (UnmatchedArgumentException e) {
      String word = e.getUnmatched().get(0);
      throw new IllegalArgumentException(word.startsWith("--")
          ? "Unknown dataset flag " + word.replaceFirst("=.*", "") + "; did you mean --"
              + Tool.nearest(BenchFlags.normalize(word.replaceFirst("=.*", "")), NAMES)
                  .orElseThrow() + "?"
          : "Expected a --flag, got '" + word + "'");
    } catch (ParameterException e) {
      throw new IllegalArgumentException(Tool.message(e));
    }
    GivenValues.Builder values = GivenValues.builder();
    for (OptionSpec option : parsed.matchedOptions()) {
      List<String> written = option.originalStringValues();
      values.converted(option.longestName(), written.isEmpty() ? ""
          : written.get(written.size() - 1), option.getValue());
    }
    return values.build();
  }

  /** picocli's converter of a value of {@code flag}, refusing as the drop-in refuses it. */
  private static Object convert(Flag flag, String text) {
    try {
      return flag.kind().convert(text);
    } catch (IllegalArgumentException e) {
      throw new Tool.BadValue(e.getMessage());
    }
  }
}
