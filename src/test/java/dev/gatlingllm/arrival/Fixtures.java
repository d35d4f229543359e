package dev.gatlingllm.arrival;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** The arrival test resources (see src/test/resources/arrival/make_fixtures.py). */
public final class Fixtures {

  private Fixtures() {}

  public static JsonNode json() {
    try (InputStream in = Fixtures.class.getResourceAsStream("/arrival/fixtures.json")) {
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path path(String name) {
    URL url = Fixtures.class.getResource("/arrival/" + name);
    if (url == null) {
      throw new IllegalStateException("missing test resource arrival/" + name);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
