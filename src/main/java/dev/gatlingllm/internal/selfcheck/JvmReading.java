package dev.gatlingllm.internal.selfcheck;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import io.netty.util.ResourceLeakDetector;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

/**
 * The settings of a JVM that {@link JvmSettings} lists, as read from the JVM itself. A field
 * is null where this JVM does not tell (a VM other than HotSpot, an option it lacks).
 *
 * @param compiler                "C1 only", "C1 and C2", "C1 with profiling (level 2)", "C2
 *                                only" or "interpreter only"
 * @param gc                      the collector: "ParallelGC", "SerialGC", "G1", "ZGC",
 *                                "Shenandoah", or the collectors' own names when unknown
 * @param initialHeapBytes        {@code -Xms}
 * @param maxHeapBytes            {@code -Xmx}
 * @param youngBytes              the young generation's size as set ({@code NewSize}, which
 *                                {@code -Xmn} sets)
 * @param alwaysPreTouch          {@code -XX:+AlwaysPreTouch}
 * @param compileThresholdScaling {@code -XX:CompileThresholdScaling}, the global one
 * @param compileCommands         {@code -XX:CompileCommand}s, in the order given (empty when
 *                                none; null when the JVM does not tell)
 * @param metaspaceSizeBytes      {@code -XX:MetaspaceSize}
 * @param leakDetection           Netty's buffer leak detection level in effect, lower case
 */
public record JvmReading(String compiler, String gc, Long initialHeapBytes, Long maxHeapBytes,
    Long youngBytes, Boolean alwaysPreTouch, Double compileThresholdScaling,
    List<String> compileCommands, Long metaspaceSizeBytes, String leakDetection) {

  public JvmReading {
    compileCommands = compileCommands == null ? null : List.copyOf(compileCommands);
  }

  /** Reads this JVM. Cheap (a few JMX calls), but the values never change: read once. */
  static JvmReading ofThisJvm() {
    HotSpotDiagnosticMXBean hotSpot =
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    List<String> collectors = ManagementFactory.getGarbageCollectorMXBeans().stream()
        .map(GarbageCollectorMXBean::getName).toList();
    return new JvmReading(
        compiler(System.getProperty("java.vm.info", ""), option(hotSpot, "TieredCompilation"),
            option(hotSpot, "TieredStopAtLevel"), option(hotSpot, "CompilationMode")),
        gc(collectors),
        bytes(option(hotSpot, "InitialHeapSize")),
        bytes(option(hotSpot, "MaxHeapSize")),
        bytes(option(hotSpot, "NewSize")),
        bool(option(hotSpot, "AlwaysPreTouch")),
        decimal(option(hotSpot, "CompileThresholdScaling")),
        lines(option(hotSpot, "CompileCommand")),
        bytes(option(hotSpot, "MetaspaceSize")),
        // The level Netty's buffers use, whichever way it was set (property, legacy property).
        ResourceLeakDetector.getLevel().name().toLowerCase(Locale.ROOT));
  }

  /**
   * Which compilers run: the interpreter alone ({@code -Xint}), C2 alone (tiered compilation
   * off or {@code CompilationMode=high-only}), C1 alone ({@code TieredStopAtLevel=1} or {@code
   * CompilationMode=quick-only}), C1 with profiling (levels 2-3: slower code, no C2), or both.
   * Null arguments are options this JVM does not have.
   */
  static String compiler(String vmInfo, String tiered, String stopAtLevel,
      String compilationMode) {
    if (vmInfo.contains("interpreted mode")) {
      return "interpreter only";
    }
    if ("quick-only".equals(compilationMode)) {
      return "C1 only";
    }
    if ("high-only".equals(compilationMode) || "false".equals(tiered)) {
      return "C2 only";
    }
    if (stopAtLevel == null) {
      return null;
    }
    return switch (stopAtLevel) {
      case "0" -> "interpreter only";
      case "1" -> "C1 only";
      case "2", "3" -> "C1 with profiling (level " + stopAtLevel + ")";
      default -> "C1 and C2";
    };
  }

  /** The collector, named by the flag that picks it, from its JMX collectors' names. */
  static String gc(List<String> collectorNames) {
    for (String name : collectorNames) {
      if (name.startsWith("PS ")) {
        return "ParallelGC";
      }
      if (name.startsWith("G1 ")) {
        return "G1";
      }
      if (name.equals("Copy") || name.equals("MarkSweepCompact")) {
        return "SerialGC";
      }
      if (name.startsWith("ZGC")) {
        return "ZGC";
      }
      if (name.startsWith("Shenandoah")) {
        return "Shenandoah";
      }
    }
    return collectorNames.isEmpty() ? null : String.join(", ", collectorNames);
  }

  /**
   * The compile-threshold scaling in effect for the methods of a package's classes: the global
   * one times the last compile command whose class pattern covers the package (HotSpot
   * multiplies them); null when either is unknown.
   */
  public Double compileScaling(String pkg) {
    if (compileThresholdScaling == null || compileCommands == null) {
      return null;
    }
    double scaling = compileThresholdScaling;
    Double command = null;
    for (String line : compileCommands) {
      Double value = scalingFor(line, pkg);
      if (value != null) {
        command = value;
      }
    }
    return command == null ? scaling : scaling * command;
  }

  /**
   * The scaling a compile command gives a package's methods, or null when it gives none: {@code
   * CompileThresholdScaling,dev.gatlingllm.*::*,0.02} (Java 17's form) or the older {@code
   * option,dev/gatlingllm/*.*,double,CompileThresholdScaling,0.02}. Its class pattern covers
   * the package when it is {@code *} or a prefix of {@code pkg.} ending in {@code *}.
   */
  static Double scalingFor(String command, String pkg) {
    String[] parts = command.strip().split(",");
    String pattern;
    String value;
    if (parts.length == 3 && parts[0].equalsIgnoreCase("CompileThresholdScaling")) {
      pattern = parts[1];
      value = parts[2];
    } else if (parts.length == 5 && parts[0].equalsIgnoreCase("option")
        && parts[3].equals("CompileThresholdScaling")) {
      pattern = parts[1];
      value = parts[4];
    } else {
      return null;
    }
    String normal = pattern.strip().replace('/', '.');
    int methodAt = normal.indexOf("::");
    String classPart = methodAt >= 0 ? normal.substring(0, methodAt)
        : normal.lastIndexOf('.') >= 0 ? normal.substring(0, normal.lastIndexOf('.')) : normal;
    boolean covers = classPart.equals("*") || (classPart.endsWith("*")
        && (pkg + ".").startsWith(classPart.substring(0, classPart.length() - 1)));
    return covers ? decimal(value.strip()) : null;
  }

  private static List<String> lines(String value) {
    return value == null ? null
        : value.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
  }

  private static String option(HotSpotDiagnosticMXBean hotSpot, String name) {
    if (hotSpot == null) {
      return null;
    }
    try {
      VMOption option = hotSpot.getVMOption(name);
      return option.getValue();
    } catch (IllegalArgumentException notInThisVm) {
      return null;
    }
  }

  private static Long bytes(String value) {
    try {
      return value == null ? null : Long.parseLong(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Boolean bool(String value) {
    return value == null ? null : Boolean.parseBoolean(value);
  }

  private static Double decimal(String value) {
    try {
      return value == null ? null : Double.parseDouble(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
