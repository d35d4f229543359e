package dev.gatlingllm.internal.selfcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JVM's settings against the ones the timings need: verdict, differences and texts. */
class JvmCheckTest {

  private static final long MB = 1024 * 1024;

  /** The compile commands of the settings, as the JVM lists them. */
  private static final List<String> COMMANDS = List.of("quiet",
      "CompileThresholdScaling,dev.gatlingllm.*::*,0.02",
      "CompileThresholdScaling,io.netty.*::*,0.02",
      "CompileThresholdScaling,io.gatling.*::*,0.02",
      "CompileThresholdScaling,scala.*::*,0.02",
      "CompileThresholdScaling,com.fasterxml.jackson.*::*,0.02");
  /** What "needs" says of early compilation. */
  private static final String EARLY_NEEDS = "needs 0.02 for dev.gatlingllm, io.netty, io.gatling,"
      + " scala, com.fasterxml.jackson (" + "-XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling,dev.gatlingllm.*::*,0.02"
        + " -XX:CompileCommand=CompileThresholdScaling,io.netty.*::*,0.02"
        + " -XX:CompileCommand=CompileThresholdScaling,io.gatling.*::*,0.02"
        + " -XX:CompileCommand=CompileThresholdScaling,scala.*::*,0.02"
        + " -XX:CompileCommand=CompileThresholdScaling,com.fasterxml.jackson.*::*,0.02" + ")";

  private static JvmReading tuned() {
    return new JvmReading("C1 only", "ParallelGC", 1024 * MB, 1024 * MB, 64 * MB, false, 1.0,
        COMMANDS, 256 * MB, "disabled");
  }

  @Test
  void theSettingsTheTimingsNeedAreOk() {
    JvmCheck check = JvmCheck.of(tuned());

    assertTrue(check.ok());
    assertEquals("ok", check.verdict());
    assertEquals(List.of(), check.differences());
    assertEquals("JVM settings: C1 only, ParallelGC, heap 1024 MB fixed (young 64 MB), metaspace"
        + " 256 MB, early compilation 0.02, Netty leak detection disabled: ok",
        check.consoleLine());
  }

  @Test
  void gatlingsDefaultsOnOneCpuDifferInSevenSettings() {
    // What a project without the <jvmArgs> block gets: Gatling's -Xmx1G, the rest the JVM's
    // ergonomics (the serial collector on one CPU, a 1/64 initial heap of 1 GB of RAM).
    JvmCheck check = JvmCheck.of(new JvmReading("C1 and C2", "SerialGC", 16 * MB, 1024 * MB,
        5 * MB + MB / 3, false, 1.0, List.of(), 21 * MB, "simple"));

    assertFalse(check.ok());
    assertEquals("differs", check.verdict());
    assertEquals(List.of(
        "compiler: C1 and C2, needs C1 only (-XX:TieredStopAtLevel=1)",
        "GC: SerialGC, needs ParallelGC (-XX:+UseParallelGC)",
        "initial heap: 16 MB, needs the max heap (fixed) (-Xms1024m)",
        "young generation: 5.3 MB, needs at least 64 MB (-Xmn64m)",
        "metaspace size: 21 MB, needs at least 256 MB (-XX:MetaspaceSize=256m)",
        "early compilation: 1, " + EARLY_NEEDS,
        "Netty leak detection: simple, needs disabled (-Dio.netty.leakDetection.level=disabled)"),
        check.differences());
    assertEquals("JVM settings: C1 and C2, SerialGC, heap 16-1024 MB (young 5.3 MB), metaspace"
        + " 21 MB, early compilation 1, Netty leak detection simple: 7 differ from what"
        + " the timings need (see above)", check.consoleLine());
  }

  @Test
  void sizesAreLowerBoundsTheHeapFixedTheRestExact() {
    JvmReading bigger = new JvmReading("C1 only", "ParallelGC", 4096 * MB, 4096 * MB, 256 * MB,
        true, 0.02, List.of(), 512 * MB, "disabled");
    JvmCheck biggerCheck = JvmCheck.of(bigger);
    assertTrue(biggerCheck.ok(), "a larger fixed heap, young generation or metaspace is fine");
    assertEquals("JVM settings: C1 only, ParallelGC, heap 4096 MB fixed (young 256 MB),"
        + " pre-touched, metaspace 512 MB, early compilation 0.02, Netty leak detection"
        + " disabled: ok", biggerCheck.consoleLine());

    JvmReading growing = new JvmReading("C1 only", "ParallelGC", 256 * MB, 1024 * MB, 64 * MB,
        false, 0.02, List.of(), 256 * MB, "disabled");
    assertEquals(List.of("initial heap: 256 MB, needs the max heap (fixed) (-Xms1024m)"),
        JvmCheck.of(growing).differences());

    JvmReading smaller = new JvmReading("C1 only", "ParallelGC", 512 * MB, 512 * MB, 32 * MB,
        false, 0.02, List.of(), 256 * MB, "disabled");
    assertEquals(List.of("max heap: 512 MB, needs at least 1024 MB (-Xmx1024m)",
        "young generation: 32 MB, needs at least 64 MB (-Xmn64m)"),
        JvmCheck.of(smaller).differences());

    JvmReading lowerScaling = new JvmReading("C1 only", "ParallelGC", 1024 * MB, 1024 * MB,
        64 * MB, false, 0.1, List.of(), 256 * MB, "disabled");
    JvmCheck oneDiffers = JvmCheck.of(lowerScaling);
    assertEquals(List.of("early compilation: 0.1, " + EARLY_NEEDS), oneDiffers.differences());
    assertTrue(oneDiffers.consoleLine().endsWith(": 1 differs from what the timings need (see"
        + " above)"), oneDiffers.consoleLine());

    JvmReading profiling = new JvmReading("C1 with profiling (level 3)", "G1", 1024 * MB,
        1024 * MB, 64 * MB, false, 0.02, List.of(), 256 * MB, "disabled");
    assertEquals(List.of(
        "compiler: C1 with profiling (level 3), needs C1 only (-XX:TieredStopAtLevel=1)",
        "GC: G1, needs ParallelGC (-XX:+UseParallelGC)"), JvmCheck.of(profiling).differences());
  }

  @Test
  void aValueTheJvmDoesNotTellDiffers() {
    JvmReading openJ9Like = new JvmReading(null, "scavenge, global", null, 1024 * MB, null, null,
        null, List.of(), null, "disabled");
    JvmCheck check = JvmCheck.of(openJ9Like);

    assertEquals(6, check.differences().size(), check.differences().toString());
    assertEquals("compiler: not readable in this JVM, needs C1 only (-XX:TieredStopAtLevel=1)",
        check.differences().get(0));
    assertEquals("GC: scavenge, global, needs ParallelGC (-XX:+UseParallelGC)",
        check.differences().get(1));
    assertTrue(check.consoleLine().startsWith("JVM settings: unknown, scavenge, global, heap"
        + " ?-1024 MB (young ? MB), metaspace ? MB, early compilation unknown, "),
        check.consoleLine());
    Map<String, Object> json = check.toJson();
    assertNull(json.get("initial_heap_mb"));
    assertTrue(json.containsKey("initial_heap_mb"), "an unknown value is null, the key stays");
  }

  @Test
  void jsonHoldsEachValueTheVerdictAndTheDifferences() {
    JvmCheck check = JvmCheck.of(new JvmReading("C1 only", "ParallelGC", 1024 * MB, 1024 * MB,
        64 * MB, true, 0.02, List.of(), 256 * MB, "enabled"));

    Map<String, Object> json = check.toJson();
    assertEquals(List.of("compiler", "gc", "initial_heap_mb", "max_heap_mb", "young_mb",
        "always_pre_touch", "compile_threshold_scaling", "early_compilation", "metaspace_size_mb",
        "netty_leak_detection", "verdict", "differences"), List.copyOf(json.keySet()));
    assertEquals("C1 only", json.get("compiler"));
    assertEquals(1024.0, json.get("initial_heap_mb"));
    assertEquals(1024.0, json.get("max_heap_mb"));
    assertEquals(64.0, json.get("young_mb"));
    assertEquals(true, json.get("always_pre_touch"));
    assertEquals(0.02, json.get("compile_threshold_scaling"));
    assertEquals(Map.of("dev.gatlingllm", 0.02, "io.netty", 0.02, "io.gatling", 0.02, "scala",
        0.02, "com.fasterxml.jackson", 0.02), json.get("early_compilation"));
    assertEquals(256.0, json.get("metaspace_size_mb"));
    assertEquals("enabled", json.get("netty_leak_detection"));
    assertEquals("differs", json.get("verdict"));
    assertEquals(List.of("Netty leak detection: enabled, needs disabled"
        + " (-Dio.netty.leakDetection.level=disabled)"), json.get("differences"));
  }

  @Test
  void theWarningNamesEachDifferenceThenTheBlockToPaste() {
    JvmCheck check = JvmCheck.of(new JvmReading("C1 only", "SerialGC", 1024 * MB, 1024 * MB,
        64 * MB, false, 0.02, List.of(), 256 * MB, "disabled"));

    assertEquals("this JVM's settings differ from what the client's timings need; its own"
        + " pauses and compiling will show as TTFT and ITL error:\n"
        + "  - GC: SerialGC, needs ParallelGC (-XX:+UseParallelGC)\n"
        + "Put this into the gatling-maven-plugin's <configuration> in pom.xml (README, \"The"
        + " JVM gatling:test runs in\"):\n"
        + "<jvmArgs>\n"
        + "  <jvmArg>-XX:TieredStopAtLevel=1</jvmArg>\n"
        + "  <jvmArg>-XX:+UseParallelGC</jvmArg>\n"
        + "  <jvmArg>-Xms1024m</jvmArg>\n"
        + "  <jvmArg>-Xmx1024m</jvmArg>\n"
        + "  <jvmArg>-Xmn64m</jvmArg>\n"
        + "  <jvmArg>-XX:MetaspaceSize=256m</jvmArg>\n"
        + "  <jvmArg>-XX:CompileCommand=quiet</jvmArg>\n"
        + "  <jvmArg>-XX:CompileCommand=CompileThresholdScaling,dev.gatlingllm.*::*,0.02</jvmArg>\n"
        + "  <jvmArg>-XX:CompileCommand=CompileThresholdScaling,io.netty.*::*,0.02</jvmArg>\n"
        + "  <jvmArg>-XX:CompileCommand=CompileThresholdScaling,io.gatling.*::*,0.02</jvmArg>\n"
        + "  <jvmArg>-XX:CompileCommand=CompileThresholdScaling,scala.*::*,0.02</jvmArg>\n"
        + "  <jvmArg>-XX:CompileCommand=CompileThresholdScaling,com.fasterxml.jackson.*::*,0.02"
        + "</jvmArg>\n"
        + "  <jvmArg>-Dio.netty.leakDetection.level=disabled</jvmArg>\n"
        + "</jvmArgs>", check.warning());
    assertTrue(check.refusal().startsWith("-Dllm.strictJvm=true: refusing the run, this JVM's"
        + " settings differ from what the client's timings need: GC: SerialGC, needs ParallelGC"
        + " (-XX:+UseParallelGC) ("), check.refusal());
  }

  @Test
  void theBlockListsEverySettingsFlagInOrder() {
    assertEquals(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC", "-Xms1024m",
        "-Xmx1024m", "-Xmn64m", "-XX:MetaspaceSize=256m",
        "-XX:CompileCommand=quiet",
        "-XX:CompileCommand=CompileThresholdScaling,dev.gatlingllm.*::*,0.02",
        "-XX:CompileCommand=CompileThresholdScaling,io.netty.*::*,0.02",
        "-XX:CompileCommand=CompileThresholdScaling,io.gatling.*::*,0.02",
        "-XX:CompileCommand=CompileThresholdScaling,scala.*::*,0.02",
        "-XX:CompileCommand=CompileThresholdScaling,com.fasterxml.jackson.*::*,0.02",
        "-Dio.netty.leakDetection.level=disabled"),
        JvmSettings.jvmArgs());
    assertTrue(JvmSettings.mavenBlock().startsWith(
        "<jvmArgs>\n  <jvmArg>-XX:TieredStopAtLevel=1</jvmArg>\n"), JvmSettings.mavenBlock());
    for (JvmSettings.Setting setting : JvmSettings.all()) {
      assertFalse(setting.why().isBlank(), setting + " says why");
    }
  }

  @Test
  void theOldGlobalScalingStillMeetsEarlyCompilationAndAMissingPackageIsNamed() {
    // a pom of 0.2.0 and before: the global 0.02 compiles everything early, the packages too
    JvmReading global = new JvmReading("C1 only", "ParallelGC", 1024 * MB, 1024 * MB, 64 * MB,
        false, 0.02, List.of(), 256 * MB, "disabled");
    assertTrue(JvmCheck.of(global).ok());

    List<String> withoutNetty = COMMANDS.stream().filter(c -> !c.contains("io.netty")).toList();
    JvmCheck noNetty = JvmCheck.of(new JvmReading("C1 only", "ParallelGC", 1024 * MB,
        1024 * MB, 64 * MB, false, 1.0, withoutNetty, 256 * MB, "disabled"));
    assertEquals(List.of("early compilation: dev.gatlingllm 0.02, io.netty 1, io.gatling 0.02,"
        + " scala 0.02, com.fasterxml.jackson 0.02, " + EARLY_NEEDS), noNetty.differences());
  }

  @Test
  void compileCommandsAreReadInBothFormsAndMultiplyTheGlobalScaling() {
    assertEquals(0.02, JvmReading.scalingFor("CompileThresholdScaling,io.netty.*::*,0.02",
        "io.netty"));
    assertEquals(0.5, JvmReading.scalingFor("option,io/netty/*.*,double,CompileThresholdScaling,0.5",
        "io.netty"));
    assertEquals(0.1, JvmReading.scalingFor("CompileThresholdScaling,*.*,0.1", "scala"));
    assertEquals(0.1, JvmReading.scalingFor("CompileThresholdScaling,io.*::*,0.1", "io.netty"),
        "a shorter prefix covers the package");
    assertNull(JvmReading.scalingFor("CompileThresholdScaling,io.netty.buffer.*::*,0.1",
        "io.netty"), "a sub-package's command does not cover the whole package");
    assertNull(JvmReading.scalingFor("CompileThresholdScaling,io.nettyx.*::*,0.1", "io.netty"));
    assertNull(JvmReading.scalingFor("exclude,io.netty.*::*", "io.netty"));
    assertNull(JvmReading.scalingFor("quiet", "io.netty"));

    JvmReading twice = new JvmReading("C1 only", "ParallelGC", MB, MB, MB, false, 0.5,
        List.of("CompileThresholdScaling,scala.*::*,0.1", "CompileThresholdScaling,scala.*::*,0.04"),
        MB, "disabled");
    assertEquals(0.02, twice.compileScaling("scala"), 1e-12, "the last command, times the global");
    assertEquals(0.5, twice.compileScaling("io.netty"), 1e-12, "no command: the global");
    assertNull(new JvmReading("C1 only", "ParallelGC", MB, MB, MB, false, 1.0, null, MB,
        "disabled").compileScaling("scala"), "commands unknown: unknown");
  }

  @Test
  void strictModeIsTrueOrFalseAndNothingElse() {
    assertFalse(JvmCheck.strict(null));
    assertFalse(JvmCheck.strict("false"));
    assertTrue(JvmCheck.strict("true"));
    assertTrue(JvmCheck.strict("TRUE"));
    IllegalArgumentException bad =
        assertThrows(IllegalArgumentException.class, () -> JvmCheck.strict("yes"));
    assertEquals("-Dllm.strictJvm must be true or false, got 'yes'", bad.getMessage());
  }

  @Test
  void compilersAreNamedFromTheJvmsOptions() {
    assertEquals("C1 only", JvmReading.compiler("mixed mode, sharing", "true", "1", "default"));
    assertEquals("C1 and C2", JvmReading.compiler("mixed mode", "true", "4", "default"));
    assertEquals("C1 with profiling (level 2)", JvmReading.compiler("mixed mode", "true", "2",
        "default"));
    assertEquals("interpreter only", JvmReading.compiler("interpreted mode", "true", "4",
        "default"));
    assertEquals("interpreter only", JvmReading.compiler("mixed mode", "true", "0", "default"));
    assertEquals("C2 only", JvmReading.compiler("mixed mode", "false", "4", "default"));
    assertEquals("C2 only", JvmReading.compiler("mixed mode", "true", "4", "high-only"));
    assertEquals("C1 only", JvmReading.compiler("mixed mode", "true", "4", "quick-only"));
    assertNull(JvmReading.compiler("", null, null, null));
  }

  @Test
  void collectorsAreNamedByTheFlagThatPicksThem() {
    assertEquals("ParallelGC", JvmReading.gc(List.of("PS Scavenge", "PS MarkSweep")));
    assertEquals("SerialGC", JvmReading.gc(List.of("Copy", "MarkSweepCompact")));
    assertEquals("G1", JvmReading.gc(List.of("G1 Young Generation", "G1 Concurrent GC",
        "G1 Old Generation")));
    assertEquals("ZGC", JvmReading.gc(List.of("ZGC Cycles", "ZGC Pauses")));
    assertEquals("Shenandoah", JvmReading.gc(List.of("Shenandoah Pauses", "Shenandoah Cycles")));
    assertEquals("Epsilon-like", JvmReading.gc(List.of("Epsilon-like")));
    assertNull(JvmReading.gc(List.of()));
  }

  @Test
  void thisJvmIsReadCompletely() {
    // Surefire's JVM is a HotSpot one: every value is known, whatever its flags.
    JvmReading here = JvmCheck.thisJvm().reading();
    assertNotNull(here.compiler());
    assertNotNull(here.gc());
    assertNotNull(here.initialHeapBytes());
    assertTrue(here.maxHeapBytes() > 0);
    assertNotNull(here.youngBytes());
    assertNotNull(here.alwaysPreTouch());
    assertNotNull(here.compileThresholdScaling());
    assertNotNull(here.compileCommands());
    assertNotNull(here.metaspaceSizeBytes());
    assertNotNull(here.leakDetection());
  }
}
