package dev.gatlingllm.cli;

/**
 * One flag of {@code vllm bench serve} as {@link BenchServe} understands it.
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
 */
public record Flag(String name, Arity arity, String defaultValue, String group, String meaning,
    Support support, String note, String since) {

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
  }

  /** The flag as typed: {@code --name}. */
  public String option() {
    return "--" + name;
  }
}
