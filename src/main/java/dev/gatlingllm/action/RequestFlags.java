package dev.gatlingllm.action;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * The command line's part of every request, as a backend's request factory reads it, by
 * {@code vllm bench serve}'s flag names (vLLM's {@code RequestFuncInput}, less what each
 * request takes from the dataset). Each backend reads the flags its request sends; which
 * those are is its registry entry's {@link Backends.Takes}.
 */
public interface RequestFlags {

  /** The path requests go to. */
  String endpoint();

  /** Whether a switch (such as {@code ignore-eos}) is on. */
  boolean on(String flag);

  /** A decimal flag's value, empty when not given. */
  OptionalDouble decimal(String flag);

  /** An integer flag's value, empty when not given. */
  OptionalInt integer(String flag);

  /**
   * Fields merged into every body over the standard ones ({@code --extra-body}); empty when
   * none.
   */
  default Map<String, Object> extraBody() {
    return Map.of();
  }

  /** The {@code model} field per request (EL), empty for the protocol's model. */
  Optional<String> model();

  /**
   * Runs a DSL call that takes a flag's value, naming the flag in its error message.
   *
   * @throws IllegalArgumentException naming the flag when the DSL refuses the value
   */
  <T> T flagged(String flag, Supplier<T> call);
}
