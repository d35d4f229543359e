package dev.gatlingllm.sim;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A request as the simulator received it (with {@link SimulatorConfig#recordRequests()}), for
 * tests that compare what a client sends field by field.
 *
 * @param method  HTTP method
 * @param path    path without the query string
 * @param headers header values by lower-case name, in the order received
 * @param body    the raw body
 * @param receivedNanos {@link System#nanoTime()} when the whole request was read: comparable
 *                with the client's times when the simulator runs in its JVM
 */
public record RecordedRequest(String method, String path, Map<String, List<String>> headers,
    byte[] body, long receivedNanos) {

  /** The single value of a header (any case), or null. */
  public String header(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** The body as UTF-8 text. */
  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
