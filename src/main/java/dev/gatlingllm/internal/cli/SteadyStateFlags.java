package dev.gatlingllm.internal.cli;

import dev.gatlingllm.options.ResultOptions;
import java.util.Locale;

/**
 * The drop-in's steady-state and over-saturation flags (issue 29): {@code vllm-bench}'s
 * {@code --steady-state-threshold}, {@code --steady-state-min-window} (seconds) and
 * {@code --no-steady-state}, and the plugin's own {@code --steady-state-trim-start} /
 * {@code --steady-state-trim-end} (the open-loop window) and {@code --stop-on-over-saturation}.
 * A trim is seconds ({@code 30} or {@code 30s}) or successful requests ({@code 200req}); both
 * ends of one run count in the same unit, an end not given trims nothing.
 */
final class SteadyStateFlags {

  private static final String START = "steady-state-trim-start";
  private static final String END = "steady-state-trim-end";

  private SteadyStateFlags() {}

  /** {@code b} with the flags given applied; each error names its flag. */
  static ResultOptions.Builder apply(BenchArgs args, ResultOptions.Builder b) {
    ResultOptions.Builder out = b;
    if (args.has("steady-state-threshold")) {
      double v = args.decimal("steady-state-threshold").orElseThrow();
      ResultOptions.Builder current = out;
      out = flagged("steady-state-threshold", () -> current.steadyStateThreshold(v));
    }
    if (args.has("steady-state-min-window")) {
      double v = args.decimal("steady-state-min-window").orElseThrow();
      ResultOptions.Builder current = out;
      out = flagged("steady-state-min-window", () -> current.steadyStateMinWindow(v));
    }
    if (args.on("no-steady-state")) {
      out = out.steadyState(false);
    }
    if (args.has(START) || args.has(END)) {
      out = trim(args, out);
    }
    if (args.on("stop-on-over-saturation")) {
      out = out.stopOnOverSaturation(true);
    }
    return out;
  }

  private static ResultOptions.Builder trim(BenchArgs args, ResultOptions.Builder b) {
    Amount start = args.has(START) ? Amount.parse(START, args.value(START).orElseThrow()) : null;
    Amount end = args.has(END) ? Amount.parse(END, args.value(END).orElseThrow()) : null;
    if (start != null && end != null && start.requests != end.requests) {
      throw new IllegalArgumentException("--" + START + " and --" + END + " must count in the "
          + "same unit (both seconds, or both requests with 'req'), got '"
          + args.value(START).orElseThrow() + "' and '" + args.value(END).orElseThrow() + "'");
    }
    boolean requests = (start != null ? start : end).requests;
    double s = start == null ? 0 : start.value;
    double e = end == null ? 0 : end.value;
    return requests ? b.steadyStateTrimRequests((int) s, (int) e)
        : b.steadyStateTrimSeconds(s, e);
  }

  /** One end of a trim: seconds, or a whole number of requests. */
  private record Amount(double value, boolean requests) {

    static Amount parse(String flag, String text) {
      String t = text.strip().toLowerCase(Locale.ROOT);
      boolean requests = t.endsWith("req");
      String number = requests ? t.substring(0, t.length() - 3)
          : t.endsWith("s") ? t.substring(0, t.length() - 1) : t;
      try {
        if (requests) {
          int n = Integer.parseInt(number.strip());
          if (n >= 0) {
            return new Amount(n, true);
          }
        } else {
          double d = Double.parseDouble(number.strip());
          if (d >= 0 && !Double.isInfinite(d)) {
            return new Amount(d, false);
          }
        }
      } catch (NumberFormatException ignored) {
        // the message below names the forms
      }
      throw new IllegalArgumentException("--" + flag + " expects seconds >= 0 (30 or 30s) or a "
          + "whole number of requests >= 0 (200req), got '" + text + "'");
    }
  }

  private static ResultOptions.Builder flagged(String flag,
      java.util.function.Supplier<ResultOptions.Builder> call) {
    try {
      return call.get();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--" + flag + ": " + e.getMessage(), e);
    }
  }
}
