package dev.gatlingllm.internal.sim;

import dev.gatlingllm.internal.tool.Tool.BadValue;
import dev.gatlingllm.sim.SimulatorConfig.ConnectionPolicy;
import dev.gatlingllm.sim.SimulatorConfig.Dialect;
import dev.gatlingllm.sim.SimulatorConfig.Transport;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;

/**
 * The picocli converters of {@link SimCommand}'s flags, one per kind of value. A value is
 * trimmed first; a refusal ({@link BadValue}) reads after the flag's name: "--port must be an
 * integer, got 'abc'". Ranges (a rate in 0..1, a port) are {@link ConfigCheck}'s, which the
 * builder and the DSL share; only a duration is refused here when negative or over an hour,
 * since its message names the flag's unit, not the nanoseconds the check would see.
 */
final class FlagValues {

  private FlagValues() {}

  /** The longest delay a flag can give, as {@link ConfigCheck} allows. */
  private static final Duration MAX_DELAY = Duration.ofHours(1);

  /** A whole number ({@code int}). */
  static final class Whole implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      try {
        return Integer.parseInt(value.trim());
      } catch (NumberFormatException e) {
        throw new BadValue("must be an integer, got '" + value + "'");
      }
    }
  }

  /** A whole number ({@code long}), for the seed. */
  static final class WholeLong implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      try {
        return Long.parseLong(value.trim());
      } catch (NumberFormatException e) {
        throw new BadValue("must be an integer, got '" + value + "'");
      }
    }
  }

  /** A finite decimal number. */
  static final class Decimal implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      return finite(value);
    }
  }

  /** A decimal number of milliseconds, 0 up to an hour. */
  static final class Millis implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return duration(value, 1_000_000);
    }
  }

  /** A decimal number of microseconds, 0 up to an hour. */
  static final class Micros implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return duration(value, 1_000);
    }
  }

  /** {@code auto}, {@code nio} or {@code epoll}, in any case. */
  static final class TransportWord extends Words<Transport> {
    TransportWord() {
      super(List.of("auto", "nio", "epoll"), Map.of("auto", Transport.AUTO,
          "nio", Transport.NIO, "epoll", Transport.EPOLL));
    }
  }

  /** {@code keep-alive}, {@code close-after-response} or {@code close}. */
  static final class ConnectionWord extends Words<ConnectionPolicy> {
    ConnectionWord() {
      super(List.of("keep-alive", "close-after-response", "close"), Map.of(
          "keep-alive", ConnectionPolicy.KEEP_ALIVE,
          "close-after-response", ConnectionPolicy.CLOSE_AFTER_RESPONSE,
          "close", ConnectionPolicy.CONNECTION_CLOSE));
    }
  }

  /** {@code vllm} or {@code llamacpp} (also spelt {@code llama.cpp}). */
  static final class DialectWord extends Words<Dialect> {
    DialectWord() {
      super(List.of("vllm", "llamacpp"), Map.of("vllm", Dialect.VLLM,
          "llamacpp", Dialect.LLAMACPP, "llama.cpp", Dialect.LLAMACPP));
    }
  }

  /** The reasoning delta's field: {@code reasoning_content} or {@code reasoning}. */
  static final class ReasoningFieldWord extends Words<String> {
    ReasoningFieldWord() {
      super(List.of("reasoning_content", "reasoning"), Map.of(
          "reasoning_content", "reasoning_content", "reasoning", "reasoning"));
    }
  }

  /**
   * One of a few words, in any case, each naming a value; the refusal lists the words
   * ({@code listed}), not their other spellings.
   */
  private abstract static class Words<E> implements ITypeConverter<E> {
    private final List<String> listed;
    private final Map<String, E> values;

    Words(List<String> listed, Map<String, E> values) {
      this.listed = listed;
      this.values = values;
    }

    @Override
    public E convert(String value) {
      E e = values.get(value.trim().toLowerCase(Locale.ROOT));
      if (e == null) {
        throw new BadValue("must be one of " + String.join(", ", listed) + ", got '" + value
            + "'");
      }
      return e;
    }
  }

  private static double finite(String value) {
    double d;
    try {
      d = Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      throw new BadValue("must be a number, got '" + value + "'");
    }
    if (!Double.isFinite(d)) {
      throw new BadValue("must be a finite number, got '" + value + "'");
    }
    return d;
  }

  /** A decimal amount of some unit ({@code nanosPerUnit} ns each) as a duration. */
  private static Duration duration(String value, long nanosPerUnit) {
    double units = finite(value);
    if (units < 0) {
      throw new BadValue("must be >= 0, got '" + value + "'");
    }
    double nanos = units * nanosPerUnit;
    if (nanos > MAX_DELAY.toNanos()) {
      throw new BadValue("must be at most one hour, got '" + value + "'");
    }
    return Duration.ofNanos(Math.round(nanos));
  }
}
