package dev.gatlingllm.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.client.Target;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
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
    HttpURLConnection c = null;
    try {
      c = (HttpURLConnection) uri.toURL().openConnection();
      if (insecureTls && c instanceof HttpsURLConnection https) {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        https.setSSLSocketFactory(context.getSocketFactory());
        https.setHostnameVerifier((host, session) -> true);
      }
      c.setConnectTimeout((int) timeout.toMillis());
      c.setReadTimeout((int) timeout.toMillis());
      headers.forEach(c::setRequestProperty);
      int code = c.getResponseCode();
      if (code != 200) {
        LOG.debug("{} answered HTTP {}: the model name is not checked", uri, code);
        return Optional.empty();
      }
      byte[] body;
      try (InputStream in = c.getInputStream()) {
        body = in.readNBytes(MAX_BODY);
      }
      return parse(body);
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      LOG.debug("{} could not be read ({}): the model name is not checked", uri, e.toString());
      return Optional.empty();
    } finally {
      if (c != null) {
        c.disconnect();
      }
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
