package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TargetTest {

  @Test
  void parsesHostPortAndPrefix() {
    Target t = Target.parse("http://127.0.0.1:8000");
    assertEquals("127.0.0.1:8000", t.hostHeader());
    assertEquals("/v1/completions", t.path("/v1/completions"));
    Target prefixed = Target.parse("https://api.example.com/proxy/");
    assertEquals(443, prefixed.port());
    assertEquals("api.example.com", prefixed.hostHeader());
    assertEquals("/proxy/v1/chat/completions", prefixed.path("/v1/chat/completions"));
  }

  @Test
  void baseUrlEndingInV1IsNotDoubled() {
    assertEquals("/v1/completions", Target.parse("http://h:1/v1").path("/v1/completions"));
  }

  @Test
  void ipv6LiteralGetsOneSetOfBrackets() {
    Target t = Target.parse("http://[::1]:8000");
    assertEquals("::1", t.host());
    assertEquals("[::1]:8000", t.hostHeader());
  }

  @Test
  void badUrlsAreNamed() {
    assertEquals("baseUrl 'localhost:8000' must start with http:// or https://",
        assertThrows(IllegalArgumentException.class, () -> Target.parse("localhost:8000"))
            .getMessage());
    assertEquals("baseUrl is required, e.g. http://127.0.0.1:8000",
        assertThrows(IllegalArgumentException.class, () -> Target.parse(" ")).getMessage());
  }
}
