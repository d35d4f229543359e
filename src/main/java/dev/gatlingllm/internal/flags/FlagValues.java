package dev.gatlingllm.internal.flags;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The values of some {@code vllm bench serve} flags, each converted once by its flag's
 * {@link Flag.Kind} when the command line (or a map of flag values) was read, and read typed
 * from then on. The drop-in's command line ({@code cli.BenchArgs}, with vLLM's defaults) and
 * the datasets' flags ({@link GivenValues}, without) are both this, so that a dataset reads
 * the drop-in's values as they were converted, never a string made of them again.
 *
 * <p>Names are the table's, with or without dashes ({@link BenchFlags#normalize}). Reading a
 * value as another kind than the table's ({@link #integer} of a {@code text} flag) is a
 * mistake of the code and throws {@link IllegalStateException}.
 */
public interface FlagValues {

  /** The flags given, by the table's name, in the order first given. */
  Set<String> names();

  /** Whether the flag was given (a switch: given, even {@code false}). */
  boolean has(String name);

  /** The value as written, or the default when this view has one; empty when neither. */
  Optional<String> value(String name);

  /**
   * The value as converted ({@link Flag.Kind#convert}), or the default when this view has
   * one; empty when neither.
   */
  Optional<Object> converted(String name);

  /** Whether a switch is on. */
  default boolean on(String name) {
    return converted(name).map(Boolean.TRUE::equals).orElse(false);
  }

  /** The value of an {@code int} flag, or the default; empty when neither. */
  default Optional<Integer> integer(String name) {
    return converted(name).map(v -> {
      if (v instanceof Integer i) {
        return i;
      }
      throw wrongKind(name, v, "a whole number");
    });
  }

  /** The value of a {@code number} flag (an {@code int} one's too), or the default. */
  default Optional<Double> decimal(String name) {
    return converted(name).map(v -> {
      if (v instanceof Double d) {
        return d;
      }
      if (v instanceof Integer i) {
        return i.doubleValue();
      }
      throw wrongKind(name, v, "a number");
    });
  }

  /** The values of a flag of several values; empty when not given. */
  default List<String> values(String name) {
    return List.of();
  }

  private static IllegalStateException wrongKind(String name, Object value, String wanted) {
    return new IllegalStateException("--" + BenchFlags.normalize(name) + " is read as "
        + wanted + " but holds '" + value + "': its kind in the flag table (bench-flags.tsv) "
        + "says otherwise");
  }
}
