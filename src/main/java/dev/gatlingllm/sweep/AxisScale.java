package dev.gatlingllm.sweep;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * An axis scale of {@code plot --scale-x/--scale-y}: the scales vLLM's plot hands to
 * matplotlib through seaborn ({@code linear}, {@code log}, {@code symlog}, {@code logit},
 * {@code asinh}) and the {@code sqrt} its help names. A value is drawn at
 * {@link #forward}; its tick labels read {@link #inverse}.
 */
public enum AxisScale {
  LINEAR,
  /** Base 10; nothing at or below 0. */
  LOG,
  /** matplotlib's defaults: linear within ±1, base 10 beyond, a linear span of 1 decade. */
  SYMLOG,
  /** log10(p / (1 − p)); only values strictly between 0 and 1. */
  LOGIT,
  /** matplotlib's asinh with a linear width of 1: asinh(x). */
  ASINH,
  /** √x; nothing below 0. */
  SQRT;

  /** matplotlib's symlog with base 10 and linscale 1: linscale / (1 − 1/base). */
  private static final double SYMLOG_LINEAR = 1 / (1 - 1 / 10.0);

  /** The name as the flag takes it. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses {@code --scale-x}/{@code --scale-y}; null is linear.
   *
   * @throws IllegalArgumentException naming the flag, the value and the scales allowed
   */
  public static AxisScale parse(String flag, String text) {
    if (text == null) {
      return LINEAR;
    }
    for (AxisScale s : values()) {
      if (s.key().equals(text.strip().toLowerCase(Locale.ROOT))) {
        return s;
      }
    }
    throw new IllegalArgumentException(flag + ": invalid choice: '" + text + "' (choose from "
        + Arrays.stream(values()).map(s -> "'" + s.key() + "'").collect(Collectors.joining(", "))
        + ")");
  }

  /** Whether a value can be drawn on this scale. */
  public boolean accepts(double v) {
    return switch (this) {
      case LOG -> v > 0;
      case LOGIT -> v > 0 && v < 1;
      case SQRT -> v >= 0;
      default -> Double.isFinite(v);
    };
  }

  /** Where a value is drawn. */
  public double forward(double v) {
    return switch (this) {
      case LINEAR -> v;
      case LOG -> Math.log10(v);
      case SYMLOG -> Math.abs(v) <= 1 ? v * SYMLOG_LINEAR
          : Math.signum(v) * (SYMLOG_LINEAR + Math.log10(Math.abs(v)));
      case LOGIT -> Math.log10(v / (1 - v));
      case ASINH -> Math.log(v + Math.sqrt(v * v + 1));
      case SQRT -> Math.sqrt(v);
    };
  }

  /** The value drawn at a position: the inverse of {@link #forward}. */
  public double inverse(double u) {
    return switch (this) {
      case LINEAR -> u;
      case LOG -> Math.pow(10, u);
      case SYMLOG -> Math.abs(u) <= SYMLOG_LINEAR ? u / SYMLOG_LINEAR
          : Math.signum(u) * Math.pow(10, Math.abs(u) - SYMLOG_LINEAR);
      case LOGIT -> 1 / (1 + Math.pow(10, -u));
      case ASINH -> Math.sinh(u);
      case SQRT -> u * u;
    };
  }
}
