package dev.gatlingllm.internal.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCrashFilterTest {

  @TempDir
  Path dir;

  private final LoggerContext context = new LoggerContext();
  private final ByteArrayOutputStream console = new ByteArrayOutputStream();
  private final List<Integer> exits = new ArrayList<>();

  private RunCrashFilter filter(boolean gatlingOwnsJvm) {
    PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
    return new RunCrashFilter(dir.resolve("target/gatling-llm.log"), () -> out,
        () -> gatlingOwnsJvm, exits::add);
  }

  /** As Gatling 3.16 logs a simulation constructor's exception: under that stage's name. */
  private FilterReply crash(RunCrashFilter filter, Throwable t) {
    return filter.decide(null, context.getLogger("io.gatling.app.Gatling$"), Level.ERROR,
        stageMessage("SimulationInstantiation", t), null, t);
  }

  /**
   * The message Gatling 3.16 logs a crash in one stage under: its {@code
   * GatlingLifecycleException} for that stage (a Scala class javac cannot name), made as Gatling
   * makes it.
   */
  private static String stageMessage(String stage, Object... arguments) {
    try {
      Class<?> type = Class.forName("io.gatling.app.GatlingLifecycleException$" + stage);
      Class<?>[] types = arguments.length == 1
          ? new Class<?>[] {Throwable.class} : new Class<?>[] {String.class, Throwable.class};
      return ((Throwable) type.getConstructor(types).newInstance(arguments)).getMessage();
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("Gatling has no stage " + stage + " any more", e);
    }
  }

  /** As Gatling sees a constructor's exception: wrapped by reflection. */
  private static Throwable thrownByConstructor(Throwable t) {
    return new InvocationTargetException(t);
  }

  @Test
  void aRefusalBecomesItsLineTheStackGoesToTheFileAndTheForkedJvmExitsWithOne()
      throws Exception {
    RunCrashFilter filter = filter(true);
    Throwable refusal = new Refusal("gatling-llm bench serve", "--top-p: must be in (0, 1]",
        new IllegalArgumentException("topP must be in (0, 1]"));

    assertEquals(FilterReply.DENY, crash(filter, thrownByConstructor(refusal)));

    Path log = dir.resolve("target/gatling-llm.log");
    assertEquals("gatling-llm bench serve: --top-p: must be in (0, 1] (stack trace: " + log
        + ")" + System.lineSeparator(), console.toString(StandardCharsets.UTF_8));
    assertEquals(List.of(1), exits);
    String written = Files.readString(log);
    assertTrue(written.contains("Caused by: dev.gatlingllm.internal.logging.Refusal: --top-p"), written);
    assertTrue(written.contains("Caused by: java.lang.IllegalArgumentException: topP"), written);
    assertTrue(written.contains("\tat dev.gatlingllm.internal.logging.RunCrashFilterTest."), written);
  }

  @Test
  void illegalStateAndArgumentFromAnywhereAreRefusalsUnderThePluginsName() {
    RunCrashFilter filter = filter(true);
    crash(filter, thrownByConstructor(new IllegalStateException("a second llm() protocol")));
    crash(filter, new ExceptionInInitializerError(new IllegalArgumentException("bad value")));

    Path log = dir.resolve("target/gatling-llm.log");
    assertEquals(List.of("gatling-llm: a second llm() protocol (stack trace: " + log + ")",
            "gatling-llm: bad value (stack trace: " + log + ")"),
        console.toString(StandardCharsets.UTF_8).lines().toList());
    assertEquals(List.of(1, 1), exits);
  }

  @Test
  void aBugIsNamedByItsExceptionAndExitsWith255() throws Exception {
    RunCrashFilter filter = filter(true);
    crash(filter, thrownByConstructor(new NullPointerException("x is null")));

    Path log = dir.resolve("target/gatling-llm.log");
    assertEquals("gatling-llm: the run crashed: java.lang.NullPointerException: x is null "
        + "(stack trace: " + log + ")", console.toString(StandardCharsets.UTF_8).strip());
    assertEquals(List.of(255), exits);
    assertTrue(Files.readString(log).contains("Caused by: java.lang.NullPointerException"));
  }

  @Test
  void crashesAddUpInTheLogFile() throws Exception {
    RunCrashFilter filter = filter(true);
    crash(filter, new IllegalArgumentException("first"));
    crash(filter, new IllegalArgumentException("second"));

    String written = Files.readString(dir.resolve("target/gatling-llm.log"));
    assertTrue(written.indexOf("IllegalArgumentException: first")
        < written.indexOf("IllegalArgumentException: second"), written);
  }

  @Test
  void gatlingRunInsideAnotherProgramGetsItsExceptionBackAndTheJvmLives() {
    RunCrashFilter filter = filter(false);
    assertEquals(FilterReply.DENY, crash(filter, new IllegalArgumentException("bad")));
    assertEquals(List.of(), exits);
    assertTrue(console.toString(StandardCharsets.UTF_8).startsWith("gatling-llm: bad"));
  }

  /**
   * Gatling logs each stage's crash under its own exception's message (and the rest under "Run
   * crashed"): the messages the filter knows are Gatling's own, so a renamed stage fails here
   * rather than leaving a refusal as 50 lines of stack. Gatling's configuration is not the
   * plugin's to report.
   */
  @Test
  void everyStageGatlingNamesACrashAfterIsCaughtButItsConfiguration() {
    RunCrashFilter filter = filter(false);
    ch.qos.logback.classic.Logger gatling = context.getLogger("io.gatling.app.Gatling$");
    Throwable t = new IllegalArgumentException("bad");
    List<String> stages = List.of(
        stageMessage("SimulationInstantiation", t), stageMessage("ScenariosBuilding", t),
        stageMessage("Injection", t), stageMessage("HookExecution", "before", t),
        stageMessage("HookExecution", "after", t), "Run crashed");
    for (String stage : stages) {
      assertEquals(FilterReply.DENY, filter.decide(null, gatling, Level.ERROR, stage, null, t),
          stage);
    }
    assertEquals(stages.size(), console.toString(StandardCharsets.UTF_8).lines()
        .filter(l -> l.startsWith("gatling-llm: bad (stack trace: ")).count());
    String configuration = stageMessage("Configuration", t);
    assertEquals(FilterReply.NEUTRAL,
        filter.decide(null, gatling, Level.ERROR, configuration, null, t), configuration);
  }

  @Test
  void everyOtherLoggingCallPassesUntouched() {
    RunCrashFilter filter = filter(true);
    Throwable t = new IllegalArgumentException("bad");
    ch.qos.logback.classic.Logger gatling = context.getLogger("io.gatling.app.Gatling$");
    ch.qos.logback.classic.Logger other = context.getLogger("dev.gatlingllm.Other");

    assertEquals(FilterReply.NEUTRAL,
        filter.decide(null, gatling, Level.ERROR, null, null, null), "a level check");
    assertEquals(FilterReply.NEUTRAL,
        filter.decide(null, gatling, Level.ERROR, "Run crashed", null, null));
    assertEquals(FilterReply.NEUTRAL,
        filter.decide(null, gatling, Level.ERROR, "Something else", null, t));
    assertEquals(FilterReply.NEUTRAL,
        filter.decide(null, other, Level.ERROR, "Run crashed", null, t));
    assertEquals("", console.toString(StandardCharsets.UTF_8));
    assertEquals(List.of(), exits);
    assertFalse(Files.exists(dir.resolve("target")));
  }

  @Test
  void whenTheLogFileCannotBeWrittenGatlingLogsTheStackAsUsual() throws Exception {
    Files.writeString(dir.resolve("target"), "a file where the folder should be");
    RunCrashFilter filter = filter(true);

    assertEquals(FilterReply.NEUTRAL, crash(filter, new IllegalArgumentException("bad")));
    assertEquals(List.of(), exits);
    assertTrue(console.toString(StandardCharsets.UTF_8)
        .startsWith("gatling-llm: could not write "), console.toString(StandardCharsets.UTF_8));
  }

  @Test
  void installedOncePerContext() {
    RunCrashFilter.installIn(context);
    RunCrashFilter.installIn(context);
    assertEquals(1, context.getTurboFilterList().stream()
        .filter(f -> f instanceof RunCrashFilter).count());
  }
  /**
   * The launcher names a log in its results folder ({@code llm.crashLog}): the stack goes
   * there and the line names it, instead of a {@code target/} made in whatever folder the
   * command was started from. Under Maven, with none named, it is the project's target/.
   */
  @Test
  void theStackGoesToTheRunsResultsFolderWhenItHasOne() throws Exception {
    String before = System.getProperty(PluginLogging.LOG_FILE_PROPERTY);
    try {
      System.clearProperty(PluginLogging.LOG_FILE_PROPERTY);
      assertEquals(Path.of("target", "gatling-llm.log"), CrashReport.logFile());
      Path results = dir.resolve("results").toAbsolutePath();
      System.setProperty(PluginLogging.LOG_FILE_PROPERTY,
          results.resolve("gatling-llm.log").toString());
      assertEquals(results.resolve("gatling-llm.log"), CrashReport.logFile());
      PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
      RunCrashFilter filter = new RunCrashFilter(CrashReport::logFile, () -> out, () -> false,
          exits::add);
      crash(filter, thrownByConstructor(new IllegalArgumentException("--request-rate must "
          + "be > 0, or inf to send everything at once; got -5")));
      assertTrue(Files.readString(results.resolve("gatling-llm.log")).contains("got -5"));
      assertTrue(console.toString(StandardCharsets.UTF_8).endsWith("(stack trace: "
          + results.resolve("gatling-llm.log") + ")" + System.lineSeparator()),
          console.toString(StandardCharsets.UTF_8));
    } finally {
      if (before == null) {
        System.clearProperty(PluginLogging.LOG_FILE_PROPERTY);
      } else {
        System.setProperty(PluginLogging.LOG_FILE_PROPERTY, before);
      }
    }
  }
}
