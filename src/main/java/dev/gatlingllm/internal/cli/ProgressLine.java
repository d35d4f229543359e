package dev.gatlingllm.internal.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The run's progress (vLLM's tqdm bar) as one whole line every few seconds: requests done
 * out of the total, the rate so far, and the time left at that rate. Gatling prints its
 * own multi-line statistics block to the same console every 5 s and the plugin logs through
 * logback, so a bar redrawn with carriage returns would be torn by their lines; whole lines
 * interleave cleanly, also in CI logs, which are not terminals.
 */
public final class ProgressLine implements AutoCloseable {

  private final int total;
  private final IntSupplier done;
  private final PrintStream console;
  private final long startNanos = System.nanoTime();
  private final ScheduledExecutorService timer;
  private int lastPrinted = -1;

  /**
   * @param done requests finished so far (successful or not)
   */
  public ProgressLine(int total, IntSupplier done, PrintStream console, long periodMillis) {
    this.total = total;
    this.done = done;
    this.console = console;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "gatling-llm-progress");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleAtFixedRate(this::print, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  private synchronized void print() {
    int n = done.getAsInt();
    if (n == lastPrinted) {
      return;
    }
    lastPrinted = n;
    console.println(line(n, total, (System.nanoTime() - startNanos) / 1e9));
  }

  /** {@code progress: 120/500 requests (24%) | 19.8 req/s | elapsed 0:06 | ETA 0:19}. */
  static String line(int done, int total, double elapsedSeconds) {
    double rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
    String eta = done >= total ? "0:00"
        : rate > 0 ? clock((total - done) / rate) : "?";
    return String.format(Locale.ROOT, "progress: %d/%d requests (%d%%) | %.1f req/s | "
        + "elapsed %s | ETA %s", done, total, total == 0 ? 100 : done * 100L / total, rate,
        clock(elapsedSeconds), eta);
  }

  static String clock(double seconds) {
    long s = Math.round(seconds);
    return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }

  /** Prints the final count once and stops. */
  @Override
  public void close() {
    timer.shutdownNow();
    print();
  }
}
