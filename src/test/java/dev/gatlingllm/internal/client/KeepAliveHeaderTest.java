package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The parameters of a {@code Keep-Alive} header, as servers write them and as they garble them. */
class KeepAliveHeaderTest {

  @ParameterizedTest(name = "[{0}] timeout {1}, max {2}")
  @CsvSource(delimiter = '|', value = {
      // llama.cpp's server (cpp-httplib), Apache
      "timeout=5, max=100      | 5  | 100",
      "timeout=5, max=99       | 5  | 99",
      // either alone, either order, no spaces, odd case and spacing
      "timeout=15              | 15 | -1",
      "max=3                   | -1 | 3",
      "max=3,timeout=2         | 2  | 3",
      "Timeout = 7 , MAX=8     | 7  | 8",
      // a quoted value, as the grammar allows
      "timeout=\"4\", max=\"10\" | 4  | 10",
      // parameters we do not know are skipped, and so are bare words
      "foo=bar, timeout=6      | 6  | -1",
      "keep-alive, max=2       | -1 | 2",
      // not whole numbers: ignored, not guessed
      "timeout=5.5, max=-1     | -1 | -1",
      "timeout=, max=abc       | -1 | -1",
      "timeout                 | -1 | -1",
      "maxi=4, xtimeout=3      | -1 | -1",
      "max=0                   | -1 | 0",
      // absurd values are capped, never overflow
      "max=99999999999999999999999 | -1 | 1000000000",
  })
  void readsTheParameters(String header, long timeout, long max) {
    assertEquals(timeout, KeepAliveHeader.param(header, "timeout"), "timeout");
    assertEquals(max, KeepAliveHeader.param(header, "max"), "max");
  }

  @ParameterizedTest(name = "[{0}] max {1}")
  @CsvSource(delimiter = '|', value = {"'' | -1", "' ' | -1", "',' | -1", "'=,=' | -1",
      "', , max=1 ,' | 1"})
  void emptyOrBrokenHeadersSayNothingAndDoNotThrow(String header, long max) {
    assertEquals(-1, KeepAliveHeader.param(header, "timeout"));
    assertEquals(max, KeepAliveHeader.param(header, "max"));
  }
}
