package dev.gatlingllm.internal.flags;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The values given for some flags, each converted by its flag's kind; without vLLM's defaults
 * (a flag not given has no value). What the datasets read: {@code Datasets.fromArgs} and
 * {@code Datasets.fromFlags} make one from their words or map, the drop-in from its command
 * line's values ({@link Builder#copy}), as they were converted, without parsing them again.
 */
public final class GivenValues implements FlagValues {

  /** A value as written and as converted. */
  private record Value(String text, Object converted) {}

  private final Map<String, Value> values;

  private GivenValues(Map<String, Value> values) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /**
   * Values keyed by flag name in any spelling ({@link BenchFlags#normalize}), each converted
   * by its flag's kind; an empty value of a flag that takes one counts as not given, a switch
   * takes {@code ""}, {@code "true"} or {@code "false"}.
   *
   * @throws IllegalArgumentException naming the flag, for a value its kind refuses
   * @throws IllegalStateException    for a name the table does not have
   */
  public static GivenValues of(Map<String, String> texts) {
    Builder b = builder();
    texts.forEach(b::text);
    return b.build();
  }

  /** An empty builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Values added one at a time; the last one given for a flag wins. */
  public static final class Builder {
    private final Map<String, Value> values = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Adds the value written {@code text} of the flag {@code name}, converted by its kind
     * (null or empty, except for a switch: not given).
     *
     * @throws IllegalArgumentException naming the flag, for a value its kind refuses
     */
    public Builder text(String name, String text) {
      Flag flag = known(name);
      String written = text == null ? "" : text.strip();
      if (written.isEmpty() && flag.kind() != Flag.Kind.SWITCH) {
        return this;
      }
      values.put(flag.name(), new Value(written, flag.convert(written)));
      return this;
    }

    /** Adds a value converted already (picocli did it, with the same converter). */
    public Builder converted(String name, String text, Object converted) {
      values.put(known(name).name(), new Value(text, converted));
      return this;
    }

    /** Adds {@code from}'s value of the flag {@code name}, if it has one. */
    public Builder copy(String name, FlagValues from) {
      return copy(name, from, name);
    }

    /**
     * Adds {@code from}'s value of the flag {@code name} as the value of the flag {@code as}
     * (of the same kind), if it has one.
     */
    public Builder copy(String name, FlagValues from, String as) {
      Optional<Object> converted = from.converted(name);
      if (converted.isPresent()) {
        // a switch is written "true" (given bare, it has no words)
        values.put(known(as).name(), new Value(from.value(name)
            .orElse(String.valueOf(converted.get())), converted.get()));
      }
      return this;
    }

    public GivenValues build() {
      return new GivenValues(values);
    }
  }

  @Override
  public Set<String> names() {
    return values.keySet();
  }

  @Override
  public boolean has(String name) {
    return values.containsKey(known(name).name());
  }

  @Override
  public Optional<String> value(String name) {
    return Optional.ofNullable(values.get(known(name).name())).map(Value::text);
  }

  @Override
  public Optional<Object> converted(String name) {
    return Optional.ofNullable(values.get(known(name).name())).map(Value::converted);
  }

  /** The values as written, by flag name: for a message, or a look at what was given. */
  public Map<String, String> texts() {
    Map<String, String> out = new LinkedHashMap<>();
    values.forEach((name, v) -> out.put(name, v.text()));
    return out;
  }

  @Override
  public String toString() {
    return texts().toString();
  }

  private static Flag known(String name) {
    return BenchFlags.find("--" + BenchFlags.normalize(name))
        .orElseThrow(() -> new IllegalStateException("not in the flag table: " + name));
  }
}
