package dev.gatlingllm.internal.selfcheck;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The JVM settings the client's timings need, in one place: the run's own check reads them
 * ({@link JvmCheck}), the sweep gives them to the runs it forks, and a test holds every copy
 * users take them from (this project's {@code pom.xml}, the example project's, the README's
 * {@code <jvmArgs>}, the injector image's and its Kubernetes Job's flags) to exactly {@link
 * #jvmArgs()}. Each was chosen by the client-truth benchmark
 * (docs/client-overhead.md): the load generator's own pauses and CPU show up as TTFT and ITL
 * error.
 */
public final class JvmSettings {

  private static final long MB = 1024 * 1024;

  /** One setting: the flag that gives it, what the check compares and why it is needed. */
  public enum Setting {
    COMPILER("-XX:TieredStopAtLevel=1", "compiler", "C1 only",
        "the C2 compiler used more CPU than the event loops for the whole run, on their core;"
            + " C1 code is fast enough for this path") {
      @Override
      String actual(JvmReading jvm) {
        return jvm.compiler();
      }
    },
    GC("-XX:+UseParallelGC", "GC", "ParallelGC",
        "no concurrent GC threads or barriers; young pauses stay short as the live set is small") {
      @Override
      String actual(JvmReading jvm) {
        return jvm.gc();
      }
    },
    INITIAL_HEAP("-Xms" + JvmSettings.HEAP_MB + "m", "initial heap", "the max heap (fixed)",
        "a heap that never grows: the parallel collector grows its old generation with a full"
            + " GC (78 ms in the benchmark); committed, not pre-touched, so its pages become"
            + " resident only as the run uses them") {
      @Override
      String actual(JvmReading jvm) {
        return megabytes(jvm.initialHeapBytes());
      }

      @Override
      boolean meets(JvmReading jvm) {
        return jvm.initialHeapBytes() != null
            && jvm.initialHeapBytes().equals(jvm.maxHeapBytes());
      }
    },
    MAX_HEAP("-Xmx" + JvmSettings.HEAP_MB + "m", "max heap", JvmReading::maxHeapBytes,
        JvmSettings.HEAP_MB,
        "room for long runs' records (Gatling's default too); only what is used becomes"
            + " resident"),
    YOUNG("-Xmn" + JvmSettings.YOUNG_MB + "m", "young generation", JvmReading::youngBytes,
        JvmSettings.YOUNG_MB,
        "a small fixed young generation: the warm-up's allocations fault its pages in, and a"
            + " collection copies only the few MB in flight; the memory a user sees is this and"
            + " what the run keeps, not a pre-touched gigabyte"),
    METASPACE("-XX:MetaspaceSize=256m", "metaspace size", JvmReading::metaspaceSizeBytes, 256,
        "no full GC when class loading crosses the first metaspace threshold, just before the"
            + " run"),
    EARLY_COMPILE(JvmSettings.earlyCompileArgs(), "early compilation",
        JvmSettings.stripZeros(JvmSettings.EARLY_SCALING) + " for " + String.join(", ",
            JvmSettings.EARLY_PACKAGES),
        "the code a request runs through (the plugin, Netty, Gatling, Scala, Jackson) compiles"
            + " after a fiftieth of the usual calls, so what the warm-up runs is compiled before"
            + " the run, not inside its first waves; the rest (the JDK's start-up code mostly)"
            + " at the usual counts, which keeps a short run's start-up CPU and code small") {
      @Override
      String actual(JvmReading jvm) {
        return JvmSettings.describe(earlyScalings(jvm));
      }

      @Override
      boolean meets(JvmReading jvm) {
        return earlyScalings(jvm).values().stream()
            .allMatch(scaling -> scaling != null && scaling <= EARLY_SCALING + 1e-9);
      }
    },
    LEAK_DETECTION("-Dio.netty.leakDetection.level=disabled", "Netty leak detection",
        "disabled", "no sampling leak detector wrapped around Netty's buffers on the hot path") {
      @Override
      String actual(JvmReading jvm) {
        return jvm.leakDetection();
      }
    };

    private final List<String> jvmArgs;
    private final String label;
    private final String required;
    private final String why;
    /** A size's value in bytes, null for the other settings (they give their own actual). */
    private final Function<JvmReading, Long> sizeBytes;
    private final long minBytes;

    Setting(String jvmArg, String label, String required, String why) {
      this(List.of(jvmArg), label, required, why, null, 0);
    }

    /** A setting given by several flags, together. */
    Setting(List<String> jvmArgs, String label, String required, String why) {
      this(jvmArgs, label, required, why, null, 0);
    }

    /** A size the timings need at least {@code minMb} MB of. */
    Setting(String jvmArg, String label, Function<JvmReading, Long> sizeBytes, long minMb,
        String why) {
      this(List.of(jvmArg), label, "at least " + minMb + " MB", why, sizeBytes, minMb * MB);
    }

    Setting(List<String> jvmArgs, String label, String required, String why,
        Function<JvmReading, Long> sizeBytes, long minBytes) {
      this.jvmArgs = List.copyOf(jvmArgs);
      this.label = label;
      this.required = required;
      this.why = why;
      this.sizeBytes = sizeBytes;
      this.minBytes = minBytes;
    }

    /** The flags, as written in {@code <jvmArg>}s or on a {@code java} command line. */
    public List<String> jvmArgs() {
      return jvmArgs;
    }

    /** What the setting is, for people: "initial heap". */
    public String label() {
      return label;
    }

    /** The value the timings need, for people: "at least 128 MB". */
    public String required() {
      return required;
    }

    /** Why the timings need it. */
    public String why() {
      return why;
    }

    /**
     * The JVM's value, for people; null when the JVM does not tell. A size gives its megabytes;
     * every other setting says how it reads its value.
     */
    String actual(JvmReading jvm) {
      return megabytes(sizeBytes.apply(jvm));
    }

    /**
     * Whether the JVM's value is what the timings need (an unknown value is not): a size is at
     * least its minimum; otherwise, by default, the value is the required one, written the same.
     */
    boolean meets(JvmReading jvm) {
      return sizeBytes != null ? atLeast(sizeBytes.apply(jvm), minBytes)
          : required.equals(actual(jvm));
    }

    /**
     * One difference, or null when the JVM meets the setting: "GC: SerialGC, needs ParallelGC
     * (-XX:+UseParallelGC)".
     */
    String difference(JvmReading jvm) {
      if (meets(jvm)) {
        return null;
      }
      String actual = actual(jvm);
      return label + ": " + (actual == null ? "not readable in this JVM" : actual) + ", needs "
          + required + " (" + String.join(" ", jvmArgs) + ")";
    }
  }

  /** The heap, fixed: committed at start, resident as far as it is used. */
  static final long HEAP_MB = 1024;
  /** The young generation, fixed. */
  static final long YOUNG_MB = 64;
  /**
   * The packages whose code a request runs through, compiled early; as HotSpot's method
   * patterns match them, a prefix of the class name (sub-packages included).
   */
  static final List<String> EARLY_PACKAGES =
      List.of("dev.gatlingllm", "io.netty", "io.gatling", "scala", "com.fasterxml.jackson");
  /** Their compile thresholds' scaling: a fiftieth of the usual calls. */
  static final double EARLY_SCALING = 0.02;

  /**
   * The flags of early compilation: one compile command per package (HotSpot multiplies a
   * method's thresholds by it), and {@code quiet}, without which the JVM prints each command
   * at every start.
   */
  static List<String> earlyCompileArgs() {
    List<String> args = new ArrayList<>(List.of("-XX:CompileCommand=quiet"));
    for (String pkg : EARLY_PACKAGES) {
      args.add("-XX:CompileCommand=CompileThresholdScaling," + pkg + ".*::*,"
          + stripZeros(EARLY_SCALING));
    }
    return args;
  }

  /**
   * The scaling in effect for each early package, in {@link #EARLY_PACKAGES}' order; a value
   * is null where the JVM does not tell.
   */
  static Map<String, Double> earlyScalings(JvmReading jvm) {
    Map<String, Double> scalings = new LinkedHashMap<>();
    EARLY_PACKAGES.forEach(pkg -> scalings.put(pkg, jvm.compileScaling(pkg)));
    return scalings;
  }

  /**
   * Early packages' scalings for people: "0.02" when all have the same, else each package's
   * ("dev.gatlingllm 0.02, io.netty 1, ..."), "?" where unknown; null when none is known.
   */
  private static String describe(Map<String, Double> scalings) {
    if (scalings.values().stream().allMatch(Objects::isNull)) {
      return null;
    }
    Map<String, String> values = new LinkedHashMap<>();
    scalings.forEach((pkg, v) -> values.put(pkg, v == null ? "?" : stripZeros(v)));
    if (values.values().stream().distinct().count() == 1) {
      return values.values().iterator().next();
    }
    List<String> each = new ArrayList<>();
    values.forEach((pkg, v) -> each.add(pkg + " " + v));
    return String.join(", ", each);
  }

  private JvmSettings() {}

  /** Every setting, in the order of {@link #jvmArgs()}. */
  public static List<Setting> all() {
    return List.of(Setting.values());
  }

  /** The flags, in order: what {@code <jvmArgs>} and a forked {@code java} get. */
  public static List<String> jvmArgs() {
    return Arrays.stream(Setting.values()).flatMap(s -> s.jvmArgs().stream()).toList();
  }

  /**
   * The block to paste into the {@code gatling-maven-plugin}'s {@code <configuration>}: the
   * one the README shows and the warning prints.
   */
  public static String mavenBlock() {
    StringBuilder block = new StringBuilder("<jvmArgs>\n");
    for (String arg : jvmArgs()) {
      block.append("  <jvmArg>").append(arg).append("</jvmArg>\n");
    }
    return block.append("</jvmArgs>").toString();
  }

  /** Megabytes ("64 MB", "5.3 MB"), or null for an unknown value. */
  static String megabytes(Long bytes) {
    if (bytes == null) {
      return null;
    }
    return bytes % MB == 0 ? bytes / MB + " MB"
        : String.format(Locale.ROOT, "%.1f MB", bytes / (double) MB);
  }

  private static boolean atLeast(Long actual, long needed) {
    return actual != null && actual >= needed;
  }

  /** 0.02, not 0.020000000000000000416; 1, not 1.0. */
  static String stripZeros(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
