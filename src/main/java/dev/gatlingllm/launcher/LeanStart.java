package dev.gatlingllm.launcher;

import com.typesafe.config.ConfigFactory;
import java.lang.reflect.Field;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the launcher's JVM would do at start for nothing, turned off before it happens. Each was
 * found in the classes a 10-request {@code bench serve} run loads, with the stack that loaded
 * them (docs/client-overhead.md, "What a short run no longer loads"); none is read by the
 * request path, and none is one of the JVM settings the timings need ({@code JvmSettings}).
 * A value the user gives ({@code -D...} in {@code JAVA_OPTS}) wins over each.
 */
final class LeanStart {

  /**
   * Netty's JFR events: on, Netty's buffer allocator registers its allocation events with the
   * Flight Recorder the first time it allocates (JFR's metadata, generated event handlers:
   * about 120 classes) although no recording runs. A user recording them sets it to true.
   */
  static final String NETTY_JFR = "io.netty.jfr.enabled";

  /**
   * Gatling's TLS settings, read only by Gatling's own HTTP module, which a {@code bench serve}
   * run does not use (the plugin's client builds its own TLS context, for https targets only).
   * Left to their defaults, reading them extracts and loads netty-tcnative's native library
   * and starts the JDK's TLS to list the protocols it supports; given, neither happens. The
   * protocols are the ones of Gatling's list that every Java 17+ enables.
   */
  static final Map<String, String> GATLING_TLS = Map.of("gatling.ssl.useOpenSsl", "false",
      // a list in system properties, as Typesafe Config reads one
      "gatling.ssl.enabledProtocols.0", "TLSv1.3", "gatling.ssl.enabledProtocols.1", "TLSv1.2");

  private LeanStart() {}

  /** Before any command runs: what every command's JVM can go without. */
  static void beforeCommands() {
    setUnlessGiven(NETTY_JFR, "false");
  }

  /**
   * Before Gatling starts in this JVM: its TLS settings (when the user set none of them), and
   * its check for a newer Gatling release skipped.
   *
   * @return the properties set, with their values before (null: unset), for the caller to put
   *     back when the run ends
   */
  static Map<String, String> beforeGatling() {
    Map<String, String> before = new LinkedHashMap<>();
    boolean userTls = System.getProperties().stringPropertyNames().stream()
        .anyMatch(name -> name.startsWith("gatling.ssl."));
    if (!userTls) {
      GATLING_TLS.forEach((key, value) -> {
        before.put(key, System.getProperty(key));
        System.setProperty(key, value);
      });
    }
    // Typesafe Config keeps the system properties it read first: a JVM that ran Gatling before
    // (a test) must see these
    ConfigFactory.invalidateCaches();
    skipLatestReleaseCheck();
    return before;
  }

  /**
   * Gatling 3.16 asks Maven Central for its latest release at the start of every run (its
   * cached answer lives 86 s, a failure 3.6 s: seconds given as milliseconds): an HTTPS
   * request with a one-second timeout, the JDK's TLS and its XML preferences (a DOM parser,
   * and Saxon found as the transformer that writes them back), before the first request. The launcher ships its own
   * Gatling, which a user does not upgrade apart, so the answer is set to "none" instead: the
   * lazy value the check fills ({@code GatlingVersion.LatestRelease}). A Gatling that renamed
   * it runs its check as before.
   *
   * @return whether the check is skipped
   */
  static boolean skipLatestReleaseCheck() {
    try {
      Class<?> version = Class.forName("io.gatling.commons.util.GatlingVersion$");
      Field latest = version.getDeclaredField("LatestRelease");
      Field computed = version.getDeclaredField("bitmap$0");
      if (latest.getType() != scala.Option.class || computed.getType() != boolean.class) {
        return false;
      }
      latest.setAccessible(true);
      computed.setAccessible(true);
      synchronized (version.getField("MODULE$").get(null)) {
        if (!computed.getBoolean(null)) {
          latest.set(null, scala.None$.MODULE$);
          computed.setBoolean(null, true);
        }
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }

  private static void setUnlessGiven(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
