package dev.gatlingllm.internal.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;

/**
 * The plugin's part in configuring logback, found through logback's service loader before
 * any configuration file is read. It always installs {@link RunCrashFilter}, so a refused run
 * ends with one line whatever the project's logging file says. A project with no logging
 * file of its own gets the plugin's defaults instead of the {@code logback.xml} inside
 * Gatling's Maven plugin, which logs nothing below WARN (the plugin's INFO lines: dataset
 * sampled, warm-up, where the result was written) and, being out of date, makes logback print
 * some 25 lines of its own configuration steps at every start. A project's own
 * {@code logback-test.xml}, {@code logback.xml} or {@code -Dlogback.configurationFile} wins.
 */
public final class PluginLogging extends ContextAwareBase implements Configurator {

  /**
   * The file a refused or crashed run's stack trace goes to, when the program that starts
   * Gatling chose one: the {@code gatling-llm} launcher sets it in its results folder
   * ({@code results/} or {@code -Dllm.resultsFolder}), so that a command started in any folder
   * leaves no {@code target/} there. Unset (Maven): {@code target/gatling-llm.log}.
   */
  public static final String LOG_FILE_PROPERTY = "llm.crashLog";

  /** The console pattern of the defaults and of the example projects' files. */
  static final String PATTERN = "%d{HH:mm:ss.SSS} [%-5level] %logger{15} - %msg%n%rEx";

  /** The build plugins that bring a {@code logback.xml} of their own to the forked JVM. */
  private static final List<String> LAUNCHER_JARS =
      List.of("/gatling-maven-plugin-", "/gatling-gradle-plugin-");

  /** Instantiated by logback's service loader. */
  public PluginLogging() {}

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    RunCrashFilter.installIn(context);
    if (projectConfigures(PluginLogging.class.getClassLoader())) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    applyDefaults(context);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** Whether the project has a logging configuration of its own for logback to read. */
  static boolean projectConfigures(ClassLoader loader) {
    if (System.getProperty("logback.configurationFile") != null
        || loader.getResource("logback-test.xml") != null) {
      return true;
    }
    try {
      return Collections.list(loader.getResources("logback.xml")).stream()
          .map(URL::toString)
          .anyMatch(url -> LAUNCHER_JARS.stream().noneMatch(url::contains));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Those of {@code user-files/logback-test.xml}: the plugin's INFO lines, DJL's quiet, and
   * everything else from WARN, on the console.
   */
  static void applyDefaults(LoggerContext context) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("CONSOLE");
    console.setEncoder(encoder);
    console.setImmediateFlush(false);
    console.start();
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(console);
    context.getLogger("dev.gatlingllm").setLevel(Level.INFO);
    // DJL logs its native library extraction at INFO
    context.getLogger("ai.djl").setLevel(Level.WARN);
    // and probes for CUDA once per JVM, warning when there is none: tokenizers need no GPU
    context.getLogger("ai.djl.util.cuda").setLevel(Level.ERROR);
  }
}
