package dev.gatlingllm.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.client.Target;
import dev.gatlingllm.http.AuxHttp;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The model names a server's {@code GET /v1/models} lists, fetched once before the run for the
 * compliance check. A server without that endpoint, or one that answers something else, is
 * not an error: the model is then not checked.
 */
final class ServedModels {

  private static final Logger LOG = LoggerFactory.getLogger(ServedModels.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_BODY = 1 << 20;

  private ServedModels() {}

  /** The listed ids, or empty when the server lists none (logged at debug level). */
  static Optional<Set<String>> fetch(Target target, Map<String, String> headers,
      boolean insecureTls, Duration timeout) {
    URI uri = URI.create((target.tls() ? "https://" : "http://") + target.hostHeader()
        + target.path("/v1/models"));
    try {
      AuxHttp.Response answer = AuxHttp.get(uri).headers(headers).connectTimeout(timeout)
          .timeout(timeout).maxBody(MAX_BODY).insecureTls(insecureTls).send();
      if (answer.status() != 200) {
        LOG.debug("{} answered HTTP {}: the model name is not checked", answer.url(),
            answer.status());
        return Optional.empty();
      }
      return parse(answer.body());
    } catch (IOException | RuntimeException e) {
      LOG.debug("{} could not be read ({}): the model name is not checked", AuxHttp.redact(uri),
          e.toString());
      return Optional.empty();
    }
  }

  /** The {@code data[].id} of an OpenAI model list; empty when the body is not one. */
  static Optional<Set<String>> parse(byte[] body) {
    try {
      JsonNode data = JSON.readTree(body).path("data");
      Set<String> ids = new LinkedHashSet<>();
      for (JsonNode model : data) {
        if (model.path("id").isTextual()) {
          ids.add(model.get("id").textValue());
        }
      }
      return ids.isEmpty() ? Optional.empty() : Optional.of(ids);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
