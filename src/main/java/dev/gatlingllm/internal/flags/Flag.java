package dev.gatlingllm.internal.flags;

import java.util.Locale;
import java.util.Set;

/**
 * One flag of {@code vllm bench serve} as the drop-in understands it: a row of
 * {@link BenchFlags}' table.
 *
 * @param name         the flag without its dashes, as vLLM spells it
 * @param arity        how many values it takes
 * @param kind         what each value is, so that picocli converts it once, as it parses
 * @param defaultValue vLLM's default, as its {@code --help} shows it ({@code None} when unset)
 * @param group        the section of the help and README table
 * @param meaning      what it does here
 * @param support      whether it is honoured, honoured for some values only, or refused
 * @param note         for {@link Support#PARTIAL} and {@link Support#REFUSED}: which values
 *                     are refused and why; null otherwise
 * @param since        the vLLM release that added the flag or last changed its default or
 *                     meaning (such as {@code 0.29}, or {@code vllm-bench} for a flag of
 *                     vLLM's Rust client only); empty for a flag as the mid-2025 reference
 *                     documents have it
 * @param datasets     the {@code --dataset-name} values that accept the flag, or
 *                     {@value #EVERY_DATASET} alone for a flag of every dataset; empty for a flag
 *                     that is no dataset's
 */
public record Flag(String name, Arity arity, Kind kind, String defaultValue, String group, String meaning,
    Support support, String note, String since, Set<String> datasets) {

  /** The {@link #datasets()} entry of a flag that every dataset accepts. */
  public static final String EVERY_DATASET = "*";

  /** How many values a flag takes. */
  public enum Arity {
    /** none: present means true */
    SWITCH,
    /** exactly one */
    ONE,
    /** one or more, up to the next flag (argparse's {@code nargs="+"} / {@code "*"}) */
    MANY
  }

  /**
   * What a flag's value is, as vLLM's argument parser types it. A value is converted by its
   * kind once, when the command line is parsed, and read typed from then on.
   */
  public enum Kind {
    /** a switch's: none given is on; {@code true} or {@code false} where a value may be given */
    SWITCH("", "is a switch; give no value, 'true' or 'false', not '%s'"),
    /** as given */
    TEXT("text", null),
    /** a whole number ({@code int} in vLLM) */
    INT("int", "expects a whole number, got '%s'"),
    /** a decimal number, or {@code inf}, as Python's {@code float} reads it */
    NUMBER("number", "expects a number, got '%s'"),
    /** a whole number, or {@code auto} (the plugin's own choice, {@link #AUTO}) */
    INT_OR_AUTO("int-or-auto", "expects a whole number, got '%s'");

    /** The value of an {@link #INT_OR_AUTO} flag given {@code auto}. */
    public static final String AUTO = "auto";

    /** The word a {@link #NUMBER} takes for infinity (Python's {@code float("inf")}). */
    public static final String INF = "inf";

    private final String column;
    private final String refusal;

    Kind(String column, String refusal) {
      this.column = column;
      this.refusal = refusal;
    }

    /** The kind a cell of the table's kind column names. */
    static Kind ofColumn(String cell) {
      for (Kind kind : values()) {
        if (kind.column.equals(cell)) {
          return kind;
        }
      }
      throw new IllegalArgumentException("unknown kind '" + cell + "'");
    }

    /**
     * The value {@code text} stands for: a {@link String}, an {@link Integer}, a
     * {@link Double} or a {@link Boolean}.
     *
     * @throws IllegalArgumentException whose message follows the flag's name, such as
     *     "expects a whole number, got 'x'"
     */
    public Object convert(String text) {
      String s = text.strip();
      switch (this) {
        case TEXT:
          return text;
        case SWITCH:
          if (s.isEmpty() || s.equalsIgnoreCase("true")) {
            return Boolean.TRUE;
          }
          if (s.equalsIgnoreCase("false")) {
            return Boolean.FALSE;
          }
          break;
        case NUMBER:
          if (s.equalsIgnoreCase(INF) || s.equalsIgnoreCase("infinity")) {
            return Double.POSITIVE_INFINITY;
          }
          // Python's float takes neither Java's 1d/1f suffixes nor NaN as a setting
          if (!s.matches("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?")) {
            break;
          }
          return Double.parseDouble(s);
        case INT_OR_AUTO:
          if (s.equals(AUTO)) {
            return AUTO;
          }
          return INT.convert(text);
        default:
          try {
            return Integer.parseInt(s);
          } catch (NumberFormatException e) {
            break;
          }
      }
      throw new IllegalArgumentException(String.format(Locale.ROOT, refusal, text));
    }
  }

  /** How far a flag is honoured. */
  public enum Support {
    SUPPORTED,
    /** some values are refused before the run; {@link #note()} says which and why */
    PARTIAL,
    /** refused before the run whatever its value; {@link #note()} says why */
    REFUSED
  }

  public Flag {
    if ((arity == Arity.SWITCH) != (kind == Kind.SWITCH)) {
      throw new IllegalArgumentException("--" + name + ": a switch, and only a switch, has no "
          + "kind of value");
    }
    if ((support == Support.SUPPORTED) != (note == null)) {
      throw new IllegalArgumentException("--" + name + ": a note is given exactly when the "
          + "flag is partly or not supported");
    }
    datasets = Set.copyOf(datasets);
    if (datasets.contains(EVERY_DATASET) && datasets.size() > 1) {
      throw new IllegalArgumentException("--" + name + ": " + EVERY_DATASET + " stands alone "
          + "in the datasets column, got " + datasets);
    }
  }

  /** The flag as typed: {@code --name}. */
  public String option() {
    return "--" + name;
  }

  /**
   * The value {@code text} stands for, by this flag's {@link #kind()}.
   *
   * @throws IllegalArgumentException naming the flag, such as "--port expects a whole number,
   *     got 'x'"
   */
  public Object convert(String text) {
    try {
      return kind.convert(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option() + " " + e.getMessage(), e);
    }
  }

  /** vLLM's default as a value, or null when its default is "not set" (or a switch's). */
  public String defaultText() {
    if (arity == Arity.SWITCH || defaultValue.startsWith("None")
        || defaultValue.equals("required")) {
      return null;
    }
    return defaultValue;
  }

  /** Whether some dataset reads this flag. */
  public boolean isDatasetFlag() {
    return !datasets.isEmpty();
  }

  /** Whether the dataset named {@code dataset} (a {@code --dataset-name}) accepts this flag. */
  public boolean takenBy(String dataset) {
    return datasets.contains(EVERY_DATASET) || datasets.contains(dataset);
  }
}
