package dev.gatlingllm.internal.flags;

import java.util.Set;

/**
 * One flag of {@code vllm bench serve} as the drop-in understands it: a row of
 * {@link BenchFlags}' table.
 *
 * @param name         the flag without its dashes, as vLLM spells it
 * @param arity        how many values it takes
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
public record Flag(String name, Arity arity, String defaultValue, String group, String meaning,
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

  /** How far a flag is honoured. */
  public enum Support {
    SUPPORTED,
    /** some values are refused before the run; {@link #note()} says which and why */
    PARTIAL,
    /** refused before the run whatever its value; {@link #note()} says why */
    REFUSED
  }

  public Flag {
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

  /** Whether some dataset reads this flag. */
  public boolean isDatasetFlag() {
    return !datasets.isEmpty();
  }

  /** Whether the dataset named {@code dataset} (a {@code --dataset-name}) accepts this flag. */
  public boolean takenBy(String dataset) {
    return datasets.contains(EVERY_DATASET) || datasets.contains(dataset);
  }
}
