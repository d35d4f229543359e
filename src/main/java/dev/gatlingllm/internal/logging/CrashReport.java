package dev.gatlingllm.internal.logging;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * What a crashed Gatling run leaves: one line for the console and the whole stack trace for
 * the log file. A refusal (a {@link Refusal}, or an {@link IllegalArgumentException},
 * {@link IllegalStateException}, unreadable file, dataset or tokenizer problem thrown while
 * the simulation was built) is its message; anything else is a bug, named by its exception.
 * Either way the line says where the stack trace is.
 */
final class CrashReport {

  /** The log's name, in whichever folder holds it. */
  static final String LOG_NAME = "gatling-llm.log";
  /**
   * Where stack traces go: {@link PluginLogging#LOG_FILE_PROPERTY} when set, else
   * {@code target/} of the working directory, which under Maven is the project's build folder.
   */
  static Path logFile() {
    String chosen = System.getProperty(PluginLogging.LOG_FILE_PROPERTY);
    return chosen == null || chosen.isBlank() ? Path.of("target", LOG_NAME) : Path.of(chosen);
  }

  /** Exit status of a refused run: Gatling's own for invalid arguments. */
  static final int REFUSED_STATUS = 1;
  /** Exit status of any other crash: the one Gatling's Maven launcher exits with. */
  static final int CRASHED_STATUS = 255;

  private static final String PLUGIN = "gatling-llm";

  private final Throwable crash;
  private final Throwable problem;

  private CrashReport(Throwable crash) {
    this.crash = crash;
    this.problem = unwrap(crash);
  }

  /** @param crash what Gatling caught, usually the reflection wrapper of the constructor's */
  static CrashReport of(Throwable crash) {
    return new CrashReport(crash);
  }

  /** Whether the run was refused (a mistake in the setup), rather than crashed on a bug. */
  boolean refused() {
    return problem instanceof IllegalArgumentException
        || problem instanceof IllegalStateException
        || problem instanceof UncheckedIOException
        || problem instanceof UsersProblem;
  }

  int exitStatus() {
    return refused() ? REFUSED_STATUS : CRASHED_STATUS;
  }

  /** The console line, naming the file that holds the stack trace. */
  String line(Path logFile) {
    String where = " (stack trace: " + logFile + ")";
    if (!refused()) {
      return PLUGIN + ": the run crashed: " + problem + where;
    }
    String tool = problem instanceof Refusal refusal ? refusal.tool() : PLUGIN;
    String message = problem.getMessage() == null ? problem.toString() : problem.getMessage();
    return tool + ": " + message + where;
  }

  /** Appends the line and the stack trace, so an earlier crash's stays until the next clean. */
  void appendTo(Path logFile) throws IOException {
    StringWriter text = new StringWriter();
    try (PrintWriter out = new PrintWriter(text)) {
      out.println("--- " + Instant.now() + " " + line(logFile));
      crash.printStackTrace(out);
    }
    Path parent = logFile.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(logFile, text.toString(), StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /** The exception the simulation threw, out of the wrappers reflection puts around it. */
  private static Throwable unwrap(Throwable t) {
    while ((t instanceof InvocationTargetException || t instanceof ExceptionInInitializerError
        || t instanceof UndeclaredThrowableException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
