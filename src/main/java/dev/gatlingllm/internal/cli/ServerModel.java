package dev.gatlingllm.internal.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.http.AuxHttp;
import dev.gatlingllm.internal.http.AuxHttpException;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * The model of a command line without {@code --model}: the first of the server's
 * {@code GET /v1/models}, as current vLLM takes it. Its {@code id} is the name requests send,
 * its {@code root} (the model the server loaded) names the tokenizer and the result file.
 *
 * @param id   the served name, sent as {@code model}
 * @param root the model behind it; the id when the server gives no root
 */
record ServerModel(String id, String root) {

  /** Finds the model of a server: the drop-in's own, or a test's stand-in. */
  @FunctionalInterface
  interface Lookup {
    /**
     * @throws IllegalArgumentException saying why no model could be had
     */
    ServerModel first(String baseUrl, Map<String, String> headers, boolean insecureTls);
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** Asks the server, as {@link Lookup} does. */
  static ServerModel first(String baseUrl, Map<String, String> headers, boolean insecureTls) {
    String url = baseUrl + "/v1/models";
    byte[] body;
    try {
      body = AuxHttp.get(URI.create(url)).headers(headers).insecureTls(insecureTls)
          .timeout(TIMEOUT).send().requireOk().body();
    } catch (AuxHttpException e) {
      throw new IllegalArgumentException("--model was not given and the first model could not "
          + "be fetched from " + url + ": " + e.getMessage() + "; check that the server is "
          + "running and the URL is right, or give --model", e);
    }
    return parse(body, url);
  }

  static ServerModel parse(byte[] body, String url) {
    JsonNode first;
    try {
      first = JSON.readTree(body).path("data").path(0);
    } catch (IOException e) {
      throw new IllegalArgumentException("--model was not given and " + url + " did not answer "
          + "JSON: " + e.getMessage(), e);
    }
    String id = first.path("id").asText("");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("--model was not given and no model was found on the "
          + "server (" + url + " lists none); make sure the server has a model loaded, or give "
          + "--model");
    }
    String root = first.path("root").asText("");
    return new ServerModel(id, root.isEmpty() ? id : root);
  }
}
