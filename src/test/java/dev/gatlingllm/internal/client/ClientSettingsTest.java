package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Client settings checked when they are made, and base URLs as the client reads them. */
class ClientSettingsTest {

  private static final Target T = Target.parse("http://127.0.0.1:8000");
  private static final Duration S = Duration.ofSeconds(1);

  @Test
  void everyTimeoutMustBeZeroOrPositive() {
    Duration neg = Duration.ofMillis(-1);
    assertEquals("connectTimeout must be zero (none) or positive, got PT-0.001S",
        assertThrows(IllegalArgumentException.class,
            () -> new ClientConfig(T, neg, S, S, S, S)).getMessage());
    assertEquals("firstTokenTimeout must be zero (none) or positive, got PT-0.001S",
        assertThrows(IllegalArgumentException.class,
            () -> new ClientConfig(T, S, neg, S, S, S)).getMessage());
    assertEquals("idleTimeout must be zero (none) or positive, got PT-0.001S",
        assertThrows(IllegalArgumentException.class,
            () -> new ClientConfig(T, S, S, neg, S, S)).getMessage());
    assertEquals("requestTimeout must be zero (none) or positive, got PT-0.001S",
        assertThrows(IllegalArgumentException.class,
            () -> new ClientConfig(T, S, S, S, neg, S)).getMessage());
    assertEquals("keepAliveTimeout must be zero (none) or positive, got null",
        assertThrows(IllegalArgumentException.class,
            () -> new ClientConfig(T, S, S, S, S, null)).getMessage());
  }

  @Test
  void zeroTimeoutsAreAllowed() {
    ClientConfig c = new ClientConfig(T, S, Duration.ZERO, Duration.ZERO, Duration.ZERO,
        Duration.ZERO);
    assertTrue(c.requestTimeout().isZero());
  }

  @Test
  void aRequestPrintsHeaderNamesButNeverTheirValues() {
    LlmRequest r = new LlmRequest("gen", "/v1/completions",
        new DefaultHttpHeaders().add("Authorization", "Bearer sk-secret"), new byte[12], 3, 0);
    assertEquals("LlmRequest{gen /v1/completions, headers=[Authorization], 12 bytes}",
        r.toString());
    assertFalse(r.toString().contains("sk-secret"));
  }

  @Test
  void targetsPrintAsTheirBaseUrl() {
    assertEquals("https://api.example.com/v1", Target.parse("https://api.example.com/v1/").toString());
    assertEquals("http://127.0.0.1:8000", Target.parse("http://127.0.0.1:8000").toString());
    assertEquals("https://h:8443", Target.parse("HTTPS://h:8443").toString());
    assertEquals("http://[::1]/p", Target.parse("http://[::1]:80/p").toString(),
        "IPv6 keeps its brackets, the default port goes");
  }

  @Test
  void defaultPortsAreLeftOutOfTheHostHeader() {
    assertEquals("h", Target.parse("http://h:80").hostHeader());
    assertEquals("h", Target.parse("https://h:443").hostHeader());
    assertEquals("h:443", Target.parse("http://h:443").hostHeader());
    assertEquals("h:80", Target.parse("https://h:80").hostHeader());
  }

  @Test
  void anExplicitPortZeroFallsBackToTheSchemesDefault() {
    // URI reports a missing port as -1; 0 is no port a client can connect to either.
    assertEquals(80, Target.parse("http://h:0").port());
    assertEquals(1, Target.parse("http://h:1").port());
  }

  @Test
  void endpointsWithoutLeadingSlashAndRepeatedPrefixes() {
    Target t = Target.parse("http://h:1/v1");
    assertEquals("/v1/completions", t.path("v1/completions"));
    assertEquals("/v1/models", t.path("/models"));
    // Only a whole path segment counts as a repeat of the prefix.
    assertEquals("/v1/v1x/a", t.path("/v1x/a"));
  }

  @Test
  void badBaseUrlsSayWhatIsWrong() {
    assertEquals("baseUrl is required, e.g. http://127.0.0.1:8000",
        assertThrows(IllegalArgumentException.class, () -> Target.parse(null)).getMessage());
    assertEquals("baseUrl 'http:///x' has no host",
        assertThrows(IllegalArgumentException.class, () -> Target.parse("http:///x")).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Target.parse("http://h:1/a b"))
        .getMessage().startsWith("baseUrl 'http://h:1/a b' is not a valid URL: "));
    assertEquals("baseUrl 'ftp://h' must start with http:// or https://",
        assertThrows(IllegalArgumentException.class, () -> Target.parse("ftp://h")).getMessage());
  }
}
