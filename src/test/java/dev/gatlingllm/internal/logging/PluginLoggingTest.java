package dev.gatlingllm.internal.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PluginLoggingTest {

  @TempDir
  Path dir;

  private URLClassLoader loaderOf(Path... entries) throws IOException {
    URL[] urls = new URL[entries.length];
    for (int i = 0; i < entries.length; i++) {
      urls[i] = entries[i].toUri().toURL();
    }
    return new URLClassLoader(urls, null); // nothing from this JVM's class path
  }

  private Path jarWithLogbackXml(String name) throws IOException {
    Path jar = dir.resolve(name);
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("logback.xml"));
      out.write("<configuration/>".getBytes());
      out.closeEntry();
    }
    return jar;
  }

  @Test
  void aProjectWithoutALoggingFileOfItsOwnGetsThePluginsDefaults() throws IOException {
    // the forked JVM of gatling:test always has the Maven plugin's logback.xml
    try (URLClassLoader loader = loaderOf(jarWithLogbackXml("gatling-maven-plugin-4.21.12.jar"),
        Files.createDirectories(dir.resolve("test-classes")))) {
      assertFalse(PluginLogging.projectConfigures(loader));
    }
  }

  @Test
  void aProjectsOwnFileWins() throws IOException {
    Path classes = Files.createDirectories(dir.resolve("test-classes"));
    Files.writeString(classes.resolve("logback-test.xml"), "<configuration/>");
    try (URLClassLoader loader = loaderOf(classes)) {
      assertTrue(PluginLogging.projectConfigures(loader));
    }
    try (URLClassLoader loader = loaderOf(jarWithLogbackXml("my-logging.jar"))) {
      assertTrue(PluginLogging.projectConfigures(loader), "a logback.xml of the project's");
    }
  }

  @Test
  void theDefaultsShowThePluginsLinesAndQuietDjl() {
    LoggerContext context = new LoggerContext();
    PluginLogging.applyDefaults(context);

    assertEquals(Level.INFO, context.getLogger("dev.gatlingllm.dataset").getEffectiveLevel());
    assertEquals(Level.WARN, context.getLogger("io.gatling.core").getEffectiveLevel());
    assertEquals(Level.WARN, context.getLogger("ai.djl.huggingface").getEffectiveLevel());
    assertEquals(Level.ERROR, context.getLogger("ai.djl.util.cuda.CudaUtils")
        .getEffectiveLevel());
    assertTrue(context.getLogger("ROOT").getAppender("CONSOLE") instanceof ConsoleAppender);
  }

  @Test
  void theCrashFilterIsInstalledWhicheverConfigurationFollows() {
    // this JVM's class path has user-files/logback-test.xml: logback goes on to read it
    LoggerContext context = new LoggerContext();
    PluginLogging configurator = new PluginLogging();
    configurator.setContext(context);

    assertEquals(ExecutionStatus.INVOKE_NEXT_IF_ANY, configurator.configure(context));
    assertTrue(context.getTurboFilterList().stream().anyMatch(f -> f instanceof RunCrashFilter));
  }

  /** The example projects' files and the defaults are one configuration, kept in step. */
  @ParameterizedTest
  @ValueSource(strings = {"user-files/logback-test.xml",
      "examples/bench-serve/src/test/resources/logback-test.xml",
      "archetype/src/main/resources/archetype-resources/src/test/resources/logback-test.xml"})
  void theProjectsLoggingFilesSayWhatTheDefaultsSay(String file) throws Exception {
    LoggerContext fromFile = new LoggerContext();
    JoranConfigurator joran = new JoranConfigurator();
    joran.setContext(fromFile);
    joran.doConfigure(Path.of(file).toFile());
    LoggerContext defaults = new LoggerContext();
    PluginLogging.applyDefaults(defaults);

    for (String logger : List.of("ROOT", "dev.gatlingllm", "ai.djl", "ai.djl.util.cuda",
        "io.gatling")) {
      assertEquals(defaults.getLogger(logger).getEffectiveLevel(),
          fromFile.getLogger(logger).getEffectiveLevel(), logger);
    }
    assertEquals(PluginLogging.PATTERN, pattern(fromFile));
    assertEquals(PluginLogging.PATTERN, pattern(defaults));
  }

  private static String pattern(LoggerContext context) {
    ConsoleAppender<?> console =
        (ConsoleAppender<?>) context.getLogger("ROOT").getAppender("CONSOLE");
    return ((PatternLayoutEncoder) console.getEncoder()).getPattern();
  }
}
