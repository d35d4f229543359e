package dev.gatlingllm.internal.selfcheck;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client JVM's settings against {@link JvmSettings}: what was read, and each setting that
 * is not what the timings need. A JVM's settings are fixed for its life, so it is read once
 * ({@link #thisJvm()}), said once before the first run ({@link #beforeTheRun()}) and recorded
 * with every run's self-check.
 *
 * @param reading     the JVM's settings
 * @param differences one sentence per setting it does not meet, in {@link JvmSettings}' order
 */
public record JvmCheck(JvmReading reading, List<String> differences) {

  /** System property: {@code true} refuses a run whose JVM differs, instead of warning. */
  public static final String STRICT_PROPERTY = "llm.strictJvm";
  /** Start of the console line a CI log can grep for; it ends with {@code ok} when they are. */
  public static final String LINE_PREFIX = "JVM settings: ";

  private static final Logger LOG = LoggerFactory.getLogger(JvmCheck.class);
  private static final AtomicBoolean SAID = new AtomicBoolean();

  public JvmCheck {
    Objects.requireNonNull(reading, "reading");
    differences = List.copyOf(differences);
  }

  /** Compares {@code reading} with every setting of {@link JvmSettings}. */
  public static JvmCheck of(JvmReading reading) {
    List<String> differences = new ArrayList<>();
    for (JvmSettings.Setting setting : JvmSettings.all()) {
      String difference = setting.difference(reading);
      if (difference != null) {
        differences.add(difference);
      }
    }
    return new JvmCheck(reading, differences);
  }

  /** This JVM's check, read on the first call. */
  public static JvmCheck thisJvm() {
    return ThisJvm.CHECK;
  }

  /** Holder: read on first use, once. */
  private static final class ThisJvm {
    static final JvmCheck CHECK = of(JvmReading.ofThisJvm());
  }

  /**
   * At the start of a run, before its warm-up: the first time in this JVM, warns (with the
   * block to paste) when the settings differ and prints the {@value #LINE_PREFIX} line.
   * With {@code -D}{@value #STRICT_PROPERTY}{@code =true} a JVM that differs refuses every
   * run instead.
   *
   * @throws IllegalStateException naming the differences, in strict mode
   */
  public static void beforeTheRun() {
    JvmCheck check = thisJvm();
    if (SAID.compareAndSet(false, true)) {
      if (!check.ok()) {
        LOG.warn(check.warning());
      }
      System.out.println(check.consoleLine());
      System.out.flush();
    }
    if (strict(System.getProperty(STRICT_PROPERTY)) && !check.ok()) {
      throw new IllegalStateException(check.refusal());
    }
  }

  /**
   * The value of {@code -D}{@value #STRICT_PROPERTY}: absent is false; anything but true or
   * false is refused rather than read as false, which would turn the gate off unseen.
   */
  static boolean strict(String value) {
    if (value == null || value.equalsIgnoreCase("false")) {
      return false;
    }
    if (value.equalsIgnoreCase("true")) {
      return true;
    }
    throw new IllegalArgumentException("-D" + STRICT_PROPERTY + " must be true or false, got '"
        + value + "'");
  }

  /** Whether every setting is what the timings need. */
  public boolean ok() {
    return differences.isEmpty();
  }

  /** {@code "ok"} or {@code "differs"}. */
  public String verdict() {
    return ok() ? "ok" : "differs";
  }

  /**
   * One line for the console: "JVM settings: C1 only, ParallelGC, heap 1024 MB fixed (young 64
   * MB), metaspace 256 MB, early compilation 0.02, Netty leak detection disabled: ok",
   * or ending "N differ from what the timings need (see above)".
   */
  public String consoleLine() {
    JvmReading r = reading;
    String heap = r.initialHeapBytes() != null && r.initialHeapBytes().equals(r.maxHeapBytes())
        ? "heap " + mb(r.maxHeapBytes()) + " MB fixed"
        : "heap " + mb(r.initialHeapBytes()) + "-" + mb(r.maxHeapBytes()) + " MB";
    heap += " (young " + mb(r.youngBytes()) + " MB)"
        + (Boolean.TRUE.equals(r.alwaysPreTouch()) ? ", pre-touched" : "");
    String settings = String.join(", ", known(r.compiler()), known(r.gc()), heap,
        "metaspace " + mb(r.metaspaceSizeBytes()) + " MB",
        "early compilation " + known(JvmSettings.Setting.EARLY_COMPILE.actual(r)),
        "Netty leak detection " + known(r.leakDetection()));
    return LINE_PREFIX + settings + ": " + (ok() ? "ok"
        : differences.size() + (differences.size() == 1 ? " differs" : " differ")
            + " from what the timings need (see above)");
  }

  /**
   * The warning: each difference, then the block to paste into the gatling-maven-plugin's
   * configuration.
   */
  public String warning() {
    StringBuilder out = new StringBuilder("this JVM's settings differ from what the client's"
        + " timings need; its own pauses and compiling will show as TTFT and ITL error:\n");
    for (String difference : differences) {
      out.append("  - ").append(difference).append('\n');
    }
    out.append("Put this into the gatling-maven-plugin's <configuration> in pom.xml (README,"
        + " \"The JVM gatling:test runs in\"):\n")
        .append(JvmSettings.mavenBlock());
    return out.toString();
  }

  /** The message a strict run is refused with. */
  String refusal() {
    return "-D" + STRICT_PROPERTY + "=true: refusing the run, this JVM's settings differ from"
        + " what the client's timings need: " + String.join("; ", differences)
        + " (the <jvmArgs> block to paste is in the README, \"The JVM gatling:test runs in\")";
  }

  /**
   * The object written under {@code client_self_check.jvm}: each setting's value (sizes in
   * MB, {@code null} where the JVM does not tell), the verdict and the differences.
   */
  public Map<String, Object> toJson() {
    JvmReading r = reading;
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("compiler", r.compiler());
    json.put("gc", r.gc());
    json.put("initial_heap_mb", mbValue(r.initialHeapBytes()));
    json.put("max_heap_mb", mbValue(r.maxHeapBytes()));
    json.put("young_mb", mbValue(r.youngBytes()));
    json.put("always_pre_touch", r.alwaysPreTouch());
    json.put("compile_threshold_scaling", r.compileThresholdScaling());
    json.put("early_compilation", JvmSettings.earlyScalings(r));
    json.put("metaspace_size_mb", mbValue(r.metaspaceSizeBytes()));
    json.put("netty_leak_detection", r.leakDetection());
    json.put("verdict", verdict());
    json.put("differences", differences);
    return json;
  }

  private static String known(String value) {
    return value == null ? "unknown" : value;
  }

  private static String mb(Long bytes) {
    Double value = mbValue(bytes);
    if (value == null) {
      return "?";
    }
    return value == Math.rint(value) ? Long.toString(value.longValue()) : value.toString();
  }

  /** MB with one decimal, or null. */
  private static Double mbValue(Long bytes) {
    return bytes == null ? null : Math.round(bytes / 104857.6) / 10.0;
  }
}
