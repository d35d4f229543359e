package dev.gatlingllm.internal.servermetrics;

/**
 * The arithmetic of a GPU's energy over a window, from what was scraped at the scrape period.
 * A figure missing from a scrape is NaN and is skipped, never read as 0.
 */
final class EnergyMaths {

  private EnergyMaths() {}

  /**
   * What a cumulative counter grew by, as Prometheus' {@code increase()} reads one: the sum of
   * the rises between consecutive readings; a reading below the one before is a reset (the
   * driver reloaded, the exporter restarted), after which the counter counted from 0, so the
   * rise is that reading itself.
   *
   * @param rise     the growth, in the counter's unit; NaN with fewer than two readings
   * @param resets   how many times it went back
   * @param readings how many readings were not NaN
   */
  record Increase(double rise, int resets, int readings) {}

  static Increase increase(double[] counter) {
    double rise = 0;
    int resets = 0;
    int readings = 0;
    double previous = Double.NaN;
    for (double v : counter) {
      if (Double.isNaN(v)) {
        continue;
      }
      readings++;
      if (!Double.isNaN(previous)) {
        if (v >= previous) {
          rise += v - previous;
        } else {
          resets++;
          rise += v;
        }
      }
      previous = v;
    }
    return new Increase(readings >= 2 ? rise : Double.NaN, resets, readings);
  }

  /**
   * Joules from power samples by the trapezoid rule over their times (seconds), skipping NaN;
   * NaN with fewer than two samples.
   */
  static double integrate(double[] seconds, double[] watts) {
    double joules = 0;
    int used = 0;
    double t0 = Double.NaN;
    double w0 = Double.NaN;
    for (int i = 0; i < watts.length; i++) {
      if (Double.isNaN(watts[i])) {
        continue;
      }
      if (used > 0) {
        joules += (seconds[i] - t0) * (w0 + watts[i]) / 2;
      }
      t0 = seconds[i];
      w0 = watts[i];
      used++;
    }
    return used >= 2 ? joules : Double.NaN;
  }

  /** The mean of the values that are not NaN; NaN when there is none. */
  static double mean(double[] values) {
    double sum = 0;
    int n = 0;
    for (double v : values) {
      if (!Double.isNaN(v)) {
        sum += v;
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  /** The largest value that is not NaN; NaN when there is none. */
  static double peak(double[] values) {
    double max = Double.NaN;
    for (double v : values) {
      if (!Double.isNaN(v) && (Double.isNaN(max) || v > max)) {
        max = v;
      }
    }
    return max;
  }
}
