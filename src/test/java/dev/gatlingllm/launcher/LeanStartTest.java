package dev.gatlingllm.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.gatling.commons.util.GatlingVersion$;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the launcher turns off before a run: set only where the user did not, and read. */
class LeanStartTest {

  private Properties saved;

  @BeforeEach
  void save() {
    saved = (Properties) System.getProperties().clone();
  }

  @AfterEach
  void restore() {
    System.setProperties(saved);
    ConfigFactory.invalidateCaches();
  }

  @Test
  void gatlingReadsTheTlsSettingsAsSetWhenTheUserGaveNone() {
    System.getProperties().stringPropertyNames().stream()
        .filter(name -> name.startsWith("gatling.ssl.")).forEach(System::clearProperty);
    Map<String, String> before = LeanStart.beforeGatling();

    // each was unset before: the caller clears them again when the run ends
    assertEquals(3, before.size(), before.toString());
    before.values().forEach(value -> assertNull(value));
    // Typesafe Config, as Gatling loads it, sees a boolean and a list of two protocols
    Config config = ConfigFactory.systemProperties();
    assertFalse(config.getBoolean("gatling.ssl.useOpenSsl"));
    assertEquals(List.of("TLSv1.3", "TLSv1.2"),
        config.getStringList("gatling.ssl.enabledProtocols"));
  }

  @Test
  void aUsersTlsSettingLeavesAllOfThemToTheUser() {
    System.setProperty("gatling.ssl.useOpenSsl", "true");
    System.clearProperty("gatling.ssl.enabledProtocols.0");

    assertTrue(LeanStart.beforeGatling().isEmpty());
    assertEquals("true", System.getProperty("gatling.ssl.useOpenSsl"));
    assertNull(System.getProperty("gatling.ssl.enabledProtocols.0"));
  }

  @Test
  void nettysJfrEventsAreOffUnlessTheUserSaidOtherwise() {
    System.clearProperty(LeanStart.NETTY_JFR);
    LeanStart.beforeCommands();
    assertEquals("false", System.getProperty(LeanStart.NETTY_JFR));

    System.setProperty(LeanStart.NETTY_JFR, "true");
    LeanStart.beforeCommands();
    assertEquals("true", System.getProperty(LeanStart.NETTY_JFR));
  }

  @Test
  void theBundledGatlingsReleaseCheckIsAnsweredWithNone() throws ReflectiveOperationException {
    // A Gatling run earlier in this JVM (the suite's) may have asked already: start unasked.
    Field computed = GatlingVersion$.class.getDeclaredField("bitmap$0");
    computed.setAccessible(true);
    computed.setBoolean(null, false);
    assertTrue(LeanStart.skipLatestReleaseCheck(),
        "GatlingVersion.LatestRelease is no longer where the launcher expects it");
    // the lazy value is filled: Gatling's Runner reads None and asks nobody
    assertTrue(GatlingVersion$.MODULE$.LatestRelease().isEmpty());
    // a second start in the same JVM finds it filled and leaves it
    assertTrue(LeanStart.skipLatestReleaseCheck());
    assertTrue(GatlingVersion$.MODULE$.LatestRelease().isEmpty());
  }
}
