package dev.gatlingllm.internal.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.slf4j.Marker;

/**
 * Turns Gatling's crash log into one console line. When a simulation's constructor throws (a
 * refused flag, value, dataset or setup), Gatling logs it at ERROR with the stack trace,
 * rethrows, and the launcher of {@code gatling:test} (the Maven plugin's {@code ForkMain})
 * prints the stack again on standard error before exiting with 255: some 50 lines around one
 * message. Gatling 3.16 logs a crash in the simulation's making, its hooks or its injection
 * under the name of that stage ({@link #CRASH_MESSAGES}), any other under "Run crashed". This
 * filter sees the logging call first: it appends the stack trace to the log file, prints the
 * {@link CrashReport} line, drops the event and, when Gatling's main method owns the JVM (as
 * in every forked run), exits there with the report's status, before the launcher can print
 * anything. In a JVM that runs Gatling in-process (a test), the exception goes on to the
 * caller.
 */
final class RunCrashFilter extends TurboFilter {

  static final String GATLING_LOGGER = "io.gatling.app.Gatling$";
  /**
   * What Gatling 3.16 logs a crash under: its stages' {@code GatlingLifecycleException}
   * messages (the simulation's constructor, building the scenarios and protocols, injecting),
   * then "Run crashed" for the rest. Not "Failed to load the configuration": Gatling's own
   * configuration is not the plugin's to report. RunCrashFilterTest holds these to Gatling's.
   */
  static final Set<String> CRASH_MESSAGES = Set.of("Failed to create the Simulation instance",
      "Failed to build the scenario(s)", "Simulation crashed during injection", "Run crashed");
  /** A hook's message names the hook: "Failed to execute the 'before' hook". */
  static final String HOOK_CRASH_PREFIX = "Failed to execute the '";

  private final Supplier<Path> logFile;
  private final Supplier<PrintStream> console;
  private final BooleanSupplier gatlingOwnsJvm;
  private final IntConsumer exit;

  RunCrashFilter() {
    // the folder is read at the crash: the launcher sets it just before Gatling starts
    this(CrashReport::logFile, () -> System.err, RunCrashFilter::gatlingOwnsJvm, System::exit);
  }

  RunCrashFilter(Path logFile, Supplier<PrintStream> console, BooleanSupplier gatlingOwnsJvm,
      IntConsumer exit) {
    this(() -> logFile, console, gatlingOwnsJvm, exit);
  }

  RunCrashFilter(Supplier<Path> logFile, Supplier<PrintStream> console,
      BooleanSupplier gatlingOwnsJvm, IntConsumer exit) {
    this.logFile = logFile;
    this.console = console;
    this.gatlingOwnsJvm = gatlingOwnsJvm;
    this.exit = exit;
    setName("gatling-llm run crash");
  }

  /** Adds the filter to the context unless it is there already. */
  static void installIn(LoggerContext context) {
    boolean present = context.getTurboFilterList().stream()
        .anyMatch(f -> f instanceof RunCrashFilter);
    if (!present) {
      RunCrashFilter filter = new RunCrashFilter();
      filter.setContext(context);
      filter.start();
      context.addTurboFilter(filter);
    }
  }

  @Override
  public FilterReply decide(Marker marker, Logger logger, Level level, String format,
      Object[] params, Throwable t) {
    // called for every logging call and level check: the cheapest test first
    if (t == null || format == null || !GATLING_LOGGER.equals(logger.getName())
        || !(CRASH_MESSAGES.contains(format) || format.startsWith(HOOK_CRASH_PREFIX))) {
      return FilterReply.NEUTRAL;
    }
    CrashReport report = CrashReport.of(t);
    PrintStream out = console.get();
    Path logFile = this.logFile.get();
    try {
      report.appendTo(logFile);
    } catch (IOException | RuntimeException e) {
      // nowhere to put the stack: Gatling logs it as usual
      out.println("gatling-llm: could not write " + logFile + " (" + e + ")");
      out.flush();
      return FilterReply.NEUTRAL;
    }
    out.println(report.line(logFile));
    out.flush();
    if (gatlingOwnsJvm.getAsBoolean()) {
      System.out.flush();
      exit.accept(report.exitStatus());
    }
    return FilterReply.DENY;
  }

  /** Whether this thread runs Gatling's main method, which exits the JVM when it is done. */
  private static boolean gatlingOwnsJvm() {
    return StackWalker.getInstance().walk(frames -> frames.anyMatch(
        f -> f.getClassName().equals("io.gatling.app.Gatling")
            && f.getMethodName().equals("main")));
  }
}
