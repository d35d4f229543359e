package dev.gatlingllm.testing;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * How much the rest of the machine disturbed a timing test, measured rather than guessed: the
 * time this JVM's threads spent runnable but waiting for a CPU (the kernel's {@code run_delay}
 * in {@code /proc/self/task/<tid>/schedstat}) between {@link #start()} and a read. On a quiet
 * machine it is a few milliseconds; with another process spinning on one of two cores it can
 * reach hundreds. A timing bound widened by it stays as tight as before when nothing disturbed
 * the test, and a failure with little disturbance is still a failure.
 *
 * <p>Threads that end before the read (an event-loop group shut down in a {@code finally})
 * take their figures with them, so a decision taken after the scene (whether to try again)
 * also looks at the whole machine: Linux's CPU pressure ({@code /proc/pressure/cpu}, "some"),
 * the time during which at least one runnable task, of any process, waited for a CPU.
 *
 * <p>The JVM's own housekeeping threads (JIT compilers, GC workers, the VM thread) are left
 * out: their waiting delays nothing a test times, while the test's threads' waiting (its own,
 * the event loops', an in-process simulator's) is exactly what late timings are made of. On a
 * platform without the figures (not Linux) every read is zero: the bound is the fixed one.
 */
public final class Disturbance {

  private static final Path TASKS = Path.of("/proc/self/task");
  private static final Path PRESSURE = Path.of("/proc/pressure/cpu");
  private static final Set<String> HOUSEKEEPING_PREFIXES = Set.of(
      "C1 CompilerThre", "C2 CompilerThre", "GC Thread", "G1 ", "VM Thread", "VM Periodic",
      "Service Thread", "Monitor Deflati", "Common-Cleaner", "Sweeper", "Signal Dispatch",
      "Reference Handl", "Finalizer", "Notification Th", "Attach Listener");

  private final Map<String, Long> startWaitNanos;
  private final long startPressureMicros;

  private Disturbance(Map<String, Long> startWaitNanos, long startPressureMicros) {
    this.startWaitNanos = startWaitNanos;
    this.startPressureMicros = startPressureMicros;
  }

  /** Starts measuring from now. */
  public static Disturbance start() {
    return new Disturbance(readWaits(), readPressureMicros());
  }

  /** Whether this platform gives the figures at all (Linux with scheduler statistics). */
  public static boolean measurable() {
    return Files.isReadable(Path.of("/proc/thread-self/schedstat"));
  }

  /**
   * Milliseconds this JVM's threads (housekeeping aside) spent waiting for a CPU since
   * {@link #start()}, summed over threads: a chain of hand-offs between threads is late by at
   * most the sum of its threads' waits. Threads that ended in between are not counted.
   */
  public double waitedMs() {
    long total = 0;
    for (Map.Entry<String, Long> now : readWaits().entrySet()) {
      total += now.getValue() - startWaitNanos.getOrDefault(now.getKey(), 0L);
    }
    return total / 1e6;
  }

  /**
   * Milliseconds since {@link #start()} during which some task on the machine waited for a
   * CPU (0 where Linux gives no pressure figures): the machine was contended, whether or not
   * the waiting threads were this test's.
   */
  public double pressureMs() {
    long now = readPressureMicros();
    return now < 0 || startPressureMicros < 0 ? 0 : (now - startPressureMicros) / 1e3;
  }

  /** For a failure message: what was measured. */
  @Override
  public String toString() {
    return String.format("this JVM's threads waited %.1f ms for a CPU, the machine's CPU was"
        + " contended for %.1f ms", waitedMs(), pressureMs());
  }

  /** A timing test's body: throws AssertionError when a bound was missed. */
  @FunctionalInterface
  public interface Attempt {
    void run() throws Exception;
  }

  /**
   * Runs {@code attempt}, and again (up to {@code attempts} times in all) only while it fails
   * and its threads were measured to wait more than {@code thresholdMs} for a CPU during the
   * failed try (or, their threads gone, the machine's CPU was contended that long): a failure on an undisturbed try is thrown at once, so the test can still fail
   * for a real reason. Each retry is reported on stderr with the disturbance that caused it.
   */
  public static void retryWhenDisturbed(int attempts, double thresholdMs, Attempt attempt)
      throws Exception {
    for (int tryNumber = 1; ; tryNumber++) {
      Disturbance disturbance = start();
      try {
        attempt.run();
        return;
      } catch (AssertionError e) {
        double waited = Math.max(disturbance.waitedMs(), disturbance.pressureMs());
        if (tryNumber >= attempts || waited <= thresholdMs) {
          e.addSuppressed(new AssertionError(String.format(
              "try %d of %d: %s (a retry needs more than %.0f ms)", tryNumber, attempts,
              disturbance, thresholdMs)));
          throw e;
        }
        System.err.printf("[disturbance] try %d of %d failed while %s; trying again: %s%n",
            tryNumber, attempts, disturbance, e.getMessage());
      }
    }
  }

  /** The "some" line's total of {@code /proc/pressure/cpu}, in µs; -1 where there is none. */
  private static long readPressureMicros() {
    try {
      for (String line : Files.readAllLines(PRESSURE)) {
        if (line.startsWith("some ")) {
          return Long.parseLong(line.substring(line.lastIndexOf("total=") + 6).strip());
        }
      }
    } catch (IOException | RuntimeException e) {
      // no pressure figures (not Linux, or a kernel without PSI)
    }
    return -1;
  }

  private static Map<String, Long> readWaits() {
    Map<String, Long> waits = new HashMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
      for (Path task : tasks) {
        try {
          String comm = Files.readString(task.resolve("comm")).strip();
          if (HOUSEKEEPING_PREFIXES.stream().anyMatch(comm::startsWith)) {
            continue;
          }
          String[] fields = Files.readString(task.resolve("schedstat")).strip().split(" ");
          waits.put(task.getFileName().toString(), Long.parseLong(fields[1]));
        } catch (IOException | RuntimeException e) {
          // the thread ended between the listing and the read: nothing to count
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc (not Linux): no figures, every read is zero
    }
    return waits;
  }
}
