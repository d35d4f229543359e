package dev.gatlingllm.internal.cli;

import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import dev.gatlingllm.internal.tool.Tool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Help;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * picocli's description of {@code bench serve}, built from {@link BenchFlags#ALL} so that the
 * table stays the one description of each flag: picocli parses with it, prints the help from
 * it (grouped as the table is) and suggests the nearest flag for a misspelt one.
 */
public final class BenchFlagSpec {

  /** How the help names the command. */
  static final String NAME = "serve";

  private static final String SYNOPSIS = "gatling-llm bench serve [--model MODEL] [flags]";
  private static final String MAVEN_FORM = "The same flags in a Gatling project: ./mvnw "
      + "gatling:test -Dgatling.simulationClass=dev.gatlingllm.cli.BenchServe "
      + "-Dllm.args=\"[--model MODEL] [flags]\" (or -Dllm.argsFile=FILE, one flag per line).";

  private BenchFlagSpec() {}

  /**
   * A fresh spec (picocli keeps the parsed values in it, so each parse takes its own).
   *
   * @param userObject what picocli runs once the flags are parsed (null: parsing only)
   */
  public static CommandSpec create(Object userObject) {
    CommandSpec spec = userObject == null ? CommandSpec.create()
        : CommandSpec.wrapWithoutInspection(userObject);
    spec.name(NAME);
    spec.parser()
        // argparse: a flag given twice keeps its last value
        .overwrittenOptionsAllowed(true)
        // an unknown --flag after a flag that takes a value is a mistake, not its value
        .unmatchedOptionsAllowedAsOptionParameters(false)
        // "@" starts ordinary values here (a label, a header), never a file of arguments
        .expandAtFiles(false);
    spec.usageMessage()
        .customSynopsis(SYNOPSIS)
        .description("vLLM's vllm bench serve on Gatling: the same flags, summary and result "
            + "JSON, plus Gatling's HTML report.")
        .footer("", MAVEN_FORM)
        .width(100)
        .longOptionsMaxWidth(34)
        // the table's order, in its groups
        .sortOptions(false);
    for (Flag flag : BenchFlags.ALL) {
      spec.addOption(option(flag));
    }
    spec.usageMessage().sectionMap().put(picocli.CommandLine.Model.UsageMessageSpec
        .SECTION_KEY_OPTION_LIST, BenchFlagSpec::groupedOptions);
    return spec;
  }

  /**
   * Names that mean a flag of the table, from other tools' habits (curl's {@code -k}, guidellm,
   * AIPerf, SGLang's bench_serving) and plain words: a suggestion by meaning comes before one
   * by spelling, so that {@code --no-verify-ssl} leads to {@code --insecure}, never to the
   * nearest spelling ({@code --base-url}).
   */
  static final Map<String, String> SYNONYMS = synonyms(
      "insecure", "k no-verify no-verify-ssl verify-ssl ssl-no-verify no-ssl-verify "
          + "disable-ssl-verification disable-ssl-verify skip-tls-verify skip-ssl-verify "
          + "insecure-skip-verify insecure-tls tls-insecure tls-no-verify no-tls-verify "
          + "ignore-certificate ignore-cert trust-all unsafe-ssl",
      "max-concurrency", "concurrency parallel num-parallel parallelism max-inflight "
          + "concurrent-requests num-concurrent-requests",
      "request-rate", "rate qps rps requests-per-second arrival-rate",
      "num-prompts", "num-requests requests n-requests request-count num-samples "
          + "max-num-completed-requests",
      "input-len", "isl input-length input-tokens prompt-len prompt-length prompt-tokens "
          + "mean-input-tokens synthetic-input-tokens-mean",
      "output-len", "osl output-length output-tokens max-tokens max-new-tokens "
          + "max-completion-tokens mean-output-tokens",
      "extra-body", "extra-json extra-inputs extra-request-body additional-sampling-params "
          + "body",
      "header", "headers extra-headers http-header",
      "base-url", "url server server-url api-base api-url target openai-api-base",
      "base-url-strategy", "url-strategy url-selection-strategy load-balancing lb-strategy",
      "num-warmups", "warmup warmups warmup-requests num-warmup warmup-request-count",
      "result-dir", "output-dir output-folder results-dir artifact-dir",
      "tokenizer", "tokenizer-path tokenizer-name",
      "lora-assignment", "lora-strategy lora-policy adapter-assignment",
      "dataset-path", "dataset-file data-file input-file");

  private static Map<String, String> synonyms(String... flagAndNames) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < flagAndNames.length; i += 2) {
      for (String name : flagAndNames[i + 1].split(" ")) {
        out.put(name, flagAndNames[i]);
      }
    }
    return Map.copyOf(out);
  }

  /**
   * Name beginnings of flags that vLLM releases after 0.29 or its newest datasets have and
   * this release does not know: such a flag is said to be newer, not misspelt.
   */
  static final List<String> NEWER_PREFIXES = List.of("mixed-boundary-", "timed-trace-",
      "speed-bench-", "asr-", "bfcl-", "custom-image-", "custom-audio-", "txt-slices-",
      "multi-turn-", "steady-state-", "sweep-", "probe-", "timeline-");

  /**
   * vLLM's newest versions give {@code mixed_serving_boundary} flags of its own; their names
   * and meanings could not be read for this release, so none is guessed at: one is refused
   * with what the run would have done without it.
   */
  static final String MIXED_BOUNDARY_PREFIX = "mixed-boundary-";

  /** How far a spelling may be from a flag to be offered as what was meant. */
  private static int closeEnough(String name) {
    return Math.max(2, name.length() / 3);
  }

  /**
   * What to tell about a flag no table row has: the flag it means (a synonym), else the
   * flag it is a misspelling of, else that it may be a newer vLLM's.
   *
   * @param typed the flag as typed, with its dashes, without a value
   */
  public static String unknownFlag(String typed) {
    String name = BenchFlags.normalize(typed.replaceFirst("^-+", ""));
    if (name.startsWith(MIXED_BOUNDARY_PREFIX)) {
      return "unknown flag " + typed + ": the mixed_serving_boundary dataset's own --"
          + MIXED_BOUNDARY_PREFIX + "* flags are not known to this release; without them the "
          + "run would use this release's defaults (docs/datasets.md), so it is refused";
    }
    String meant = SYNONYMS.get(name);
    if (meant != null) {
      return "unknown flag " + typed + "; did you mean --" + meant + "?";
    }
    Optional<String> nearest = Tool.nearest(name, BenchFlags.names());
    if (nearest.isPresent() && Tool.distance(name, nearest.get()) <= closeEnough(name)) {
      return "unknown flag " + typed + "; did you mean --" + nearest.get() + "?";
    }
    String known = NEWER_PREFIXES.stream().filter(name::startsWith).findFirst()
        .map(p -> " (a family of flags of vLLM's newest datasets and features)").orElse("");
    return "unknown flag " + typed + ": not a flag of vllm bench serve up to vLLM 0.29 nor of "
        + "vllm-bench" + known + "; a flag of a newer vLLM is not known to this release";
  }

  /** The help of {@code bench serve}, as {@code --help} prints it. */
  public static String usage() {
    return new picocli.CommandLine(create(null)).getUsageMessage(Help.Ansi.OFF);
  }

  private static OptionSpec option(Flag flag) {
    if (flag.name().equals("help")) {
      return OptionSpec.builder("-h", "--help").usageHelp(true)
          .description("prints this help and runs nothing").build();
    }
    OptionSpec.Builder b = OptionSpec.builder(flag.option()).description(description(flag));
    return switch (flag.arity()) {
      case SWITCH -> b.arity("0").type(boolean.class).build();
      case ONE -> b.arity("1").type(type(flag.kind())).converters(converter(flag.kind()))
          .paramLabel(label(flag)).build();
      // argparse's nargs="+" (--goodput, --lora-modules) and "*" (--header, --metadata)
      case MANY -> b.arity(flag.name().equals("goodput") || flag.name().equals("lora-modules")
              ? "1..*" : "0..*")
          .type(List.class).auxiliaryTypes(String.class).paramLabel(label(flag)).build();
    };
  }

  /**
   * picocli's converter of a value of {@code kind}: the table's conversion, its refusal worded
   * to follow the flag's name ({@link Tool.BadValue}), so that {@code --num-prompts x} is
   * refused as "--num-prompts expects a whole number, got 'x'" while the words are parsed.
   */
  public static ITypeConverter<Object> converter(Flag.Kind kind) {
    return text -> {
      try {
        return kind.convert(text);
      } catch (IllegalArgumentException e) {
        throw new Tool.BadValue(e.getMessage());
      }
    };
  }

  /** The Java type a value of {@code kind} converts to. */
  public static Class<?> type(Flag.Kind kind) {
    return switch (kind) {
      case INT -> Integer.class;
      case NUMBER -> Double.class;
      case SWITCH -> Boolean.class;
      case TEXT -> String.class;
      // an Integer, or the String "auto"
      case INT_OR_AUTO -> Object.class;
    };
  }

  /**
   * The value's name in the help, as argparse writes it: its choices ({@code --backend
   * {vllm,openai,...}}, see {@link FlagChoices}), else its name ({@code --top-p=TOP_P}).
   */
  private static String label(Flag flag) {
    return FlagChoices.label(flag)
        .orElseGet(() -> flag.name().toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
  }

  /** The table's meaning, default and refusal, as plain text (picocli wraps it). */
  private static String[] description(Flag flag) {
    List<String> lines = new ArrayList<>();
    String meaning = flag.meaning().isEmpty() ? "refused" : plain(flag.meaning());
    lines.add(meaning + " (default: " + (flag.defaultValue().isEmpty() ? "-"
        : escape(flag.defaultValue())) + (flag.since().isEmpty() ? ""
        : "; vLLM " + escape(flag.since())) + ")");
    if (flag.note() != null) {
      lines.add((flag.support() == Flag.Support.REFUSED ? "refused: " : "refused values: ")
          + plain(flag.note()));
    }
    return lines.toArray(String[]::new);
  }

  /** The option list in the table's groups, each under its heading. */
  private static String groupedOptions(Help help) {
    Map<String, List<OptionSpec>> groups = new LinkedHashMap<>();
    for (Flag flag : BenchFlags.ALL) {
      OptionSpec option = help.commandSpec().findOption(flag.name().equals("help") ? "-h"
          : flag.option());
      groups.computeIfAbsent(flag.group(), g -> new ArrayList<>()).add(option);
    }
    StringBuilder out = new StringBuilder();
    groups.forEach((group, options) -> out.append('\n').append(group).append(":\n")
        .append(help.optionListExcludingGroups(options)));
    return out.toString();
  }

  private static String plain(String markdown) {
    return escape(markdown.replace("`", ""));
  }

  /** picocli reads {@code ${...}} in descriptions as variables and %n as a line break. */
  private static String escape(String text) {
    return text.replace("%", "%%").replace("${", "$${");
  }
}
