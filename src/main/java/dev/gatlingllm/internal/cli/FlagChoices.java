package dev.gatlingllm.internal.cli;

import dev.gatlingllm.action.Backends;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.internal.client.TargetChooser;
import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import dev.gatlingllm.internal.metrics.GoodputSlo;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.report.RunInfo;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The values each choice flag of {@code bench serve} takes, read from the very tables that
 * parse them (the backends, the dataset registry, the metrics, ...), so that {@code --help}
 * lists them as vLLM's does ({@code --backend {vllm,openai,...}}) and the flag table of
 * {@code docs/command-line.md} with it, and neither can name a value the parsing refuses. It
 * sits here, above the flag table's package, because those tables live in the packages the
 * flag table sits below.
 */
public final class FlagChoices {

  /**
   * How a flag's values are written: one of them, a comma-separated list of them, or
   * {@code KEY:VALUE} pairs keyed by them.
   */
  enum Form {
    ONE("%s"),
    LIST("%s[,...]"),
    KEY_VALUE("%s:VALUE");

    private final String pattern;

    Form(String pattern) {
      this.pattern = pattern;
    }
  }

  /** A choice flag: where its values come from and how they are written. */
  record Choice(Supplier<List<String>> values, Form form) {}

  /** Every choice flag by name; each value list is the parsing's own. */
  static final Map<String, Choice> CHOICES = Map.of(
      "backend", new Choice(() -> List.copyOf(Backends.servedNames()), Form.ONE),
      "dataset-name", new Choice(() -> List.copyOf(Datasets.NAMES), Form.ONE),
      "ramp-up-strategy", new Choice(() -> RunInfo.RAMP_UP_STRATEGIES, Form.ONE),
      "lora-assignment", new Choice(() -> BenchChecks.LORA_ASSIGNMENTS, Form.ONE),
      "tokenizer-mode", new Choice(() -> BenchPlan.TOKENIZER_MODES, Form.ONE),
      "percentile-metrics", new Choice(Metric::keys, Form.LIST),
      "goodput", new Choice(() -> GoodputSlo.VALID_NAMES, Form.KEY_VALUE),
      // a rate: any number of requests per second, or the word for "all at once"
      "request-rate", new Choice(() -> List.of("N", Flag.Kind.INF), Form.ONE),
      "base-url-strategy", new Choice(() -> Arrays.stream(TargetChooser.Strategy.values())
          .map(TargetChooser.Strategy::flagValue).toList(), Form.ONE));

  private FlagChoices() {}

  /** The values {@code flag} takes, in the order the help lists them; empty for a free value. */
  public static List<String> values(String flag) {
    Choice choice = CHOICES.get(BenchFlags.normalize(flag));
    return choice == null ? List.of() : choice.values().get();
  }

  /**
   * How the help and the flag table write the value of {@code flag}, as argparse does with
   * choices ({@code {vllm,openai,...}}); empty for a flag without choices.
   */
  public static Optional<String> label(Flag flag) {
    Choice choice = CHOICES.get(flag.name());
    if (choice == null) {
      return Optional.empty();
    }
    String set = "{" + String.join(",", choice.values().get()) + "}";
    return Optional.of(String.format(choice.form().pattern, set));
  }

  /** The flag table of {@code docs/command-line.md}, each choice flag with its values. */
  public static String markdownTable() {
    return BenchFlags.markdownTable(FlagChoices::label);
  }
}
