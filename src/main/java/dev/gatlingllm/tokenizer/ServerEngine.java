package dev.gatlingllm.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatlingllm.internal.http.AuxHttp;
import dev.gatlingllm.internal.http.AuxHttpException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The served model's own tokenizer, through vLLM's {@code POST /tokenize}
 * ({@code {"model", "prompt", "add_special_tokens"}} → {@code {"tokens", "count"}}) and
 * {@code POST /detokenize} ({@code {"model", "tokens"}} → {@code {"prompt"}}), each call a
 * blocking {@link AuxHttp} request on the caller's thread (never an event loop's: output
 * tokens are counted on {@code OutputTokens}' counting thread).
 *
 * <p>The server does not list its vocabulary, so the ids synthetic prompts are drawn from
 * are those it gives the shipped sonnet ({@link #SEED_PATH}): English prose whose words are
 * ordinary tokens of any model's vocabulary. Every such id is one the server itself produced
 * for plain text, so it is a regular (never a special or unused) token and decodes to text;
 * an id guessed from a range could be a control token or past the vocabulary, which the
 * server would refuse. {@link #vocabSize()} is the number of those ids and no special ids are
 * known.
 */
final class ServerEngine implements TokenizerEngine {

  /** The seed text in the working directory; else {@link #SEED_RESOURCE} on the classpath. */
  static final Path SEED_PATH = Path.of("datasets", "sonnet", "sonnet.txt");
  static final String SEED_RESOURCE = "sonnet/sonnet.txt";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(120);

  private final URI tokenize;
  private final URI detokenize;
  private final String model;
  private final Map<String, String> headers;
  private final boolean insecureTls;
  private final int specialTokensAdded;
  private volatile int[] regularIds;

  private ServerEngine(String baseUrl, String model, Map<String, String> headers,
      boolean insecureTls) {
    String root = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.tokenize = URI.create(root + "/tokenize");
    this.detokenize = URI.create(root + "/detokenize");
    this.model = model;
    this.headers = Map.copyOf(headers);
    this.insecureTls = insecureTls;
    this.specialTokensAdded = probe();
  }

  /**
   * The server's tokenizer once it has answered a {@code /tokenize} and a {@code /detokenize}
   * for {@code model}.
   *
   * @throws IllegalStateException saying why not (HTTP 404, connection refused, ...)
   */
  static ServerEngine connect(String baseUrl, String model, Map<String, String> headers,
      boolean insecureTls) {
    return new ServerEngine(baseUrl, model, headers, insecureTls);
  }

  /** @return how many special tokens the server adds to an empty prompt */
  private int probe() {
    JsonNode hello = call(tokenize, request("Hello world", false), PROBE_TIMEOUT);
    int[] ids = ids(hello, tokenize);
    String text = call(detokenize, idsRequest(ids), PROBE_TIMEOUT).path("prompt").asText(null);
    if (text == null) {
      throw new IllegalStateException(detokenize + " answered without a \"prompt\"");
    }
    return ids(call(tokenize, request("", true), PROBE_TIMEOUT), tokenize).length;
  }

  @Override
  public int[] encode(String text) {
    return ids(call(tokenize, request(text, false), CALL_TIMEOUT), tokenize);
  }

  @Override
  public int count(String text) {
    JsonNode answer = call(tokenize, request(text, false), CALL_TIMEOUT);
    return answer.path("count").canConvertToInt() ? answer.get("count").intValue()
        : ids(answer, tokenize).length;
  }

  @Override
  public int countWithSpecialTokens(String text) {
    return ids(call(tokenize, request(text, true), CALL_TIMEOUT), tokenize).length;
  }

  @Override
  public String decode(int[] ids) {
    JsonNode answer = call(detokenize, idsRequest(ids), CALL_TIMEOUT);
    JsonNode prompt = answer.get("prompt");
    if (prompt == null || !prompt.isTextual()) {
      throw new IllegalStateException(detokenize + " answered without a \"prompt\": "
          + excerpt(answer.toString()));
    }
    return prompt.textValue();
  }

  @Override
  public int vocabSize() {
    return regularTokenIds().length;
  }

  @Override
  public int[] specialTokenIds() {
    return new int[0];
  }

  @Override
  public int[] regularTokenIds() {
    int[] ids = regularIds;
    if (ids == null) {
      synchronized (this) {
        if (regularIds == null) {
          regularIds = java.util.Arrays.stream(encode(seedText())).sorted().distinct()
              .toArray();
        }
        ids = regularIds;
      }
    }
    return ids;
  }

  @Override
  public int numSpecialTokensToAdd() {
    return specialTokensAdded;
  }

  @Override
  public void close() {
    // no connection of its own: AuxHttp's calls share the JDK's keep-alive pool
  }

  @Override
  public String toString() {
    return AuxHttp.redact(tokenize) + " (model " + model + ")";
  }

  private ObjectNode request(String text, boolean specialTokens) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", model);
    body.put("prompt", text);
    body.put("add_special_tokens", specialTokens);
    return body;
  }

  private ObjectNode idsRequest(int[] ids) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", model);
    ArrayNode tokens = body.putArray("tokens");
    for (int id : ids) {
      tokens.add(id);
    }
    return body;
  }

  private JsonNode call(URI where, ObjectNode body, Duration timeout) {
    AuxHttp.Response answer;
    try {
      answer = AuxHttp.post(where, JSON.writeValueAsBytes(body), "application/json")
          .headers(headers).insecureTls(insecureTls).timeout(timeout).send();
    } catch (AuxHttpException e) {
      throw new IllegalStateException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (!answer.ok()) {
      throw new IllegalStateException(answer.method() + " " + answer.url() + " answered HTTP "
          + answer.status() + (answer.body().length == 0 ? "" : ": " + excerpt(answer.text())));
    }
    try {
      return JSON.readTree(answer.body());
    } catch (IOException e) {
      throw new IllegalStateException(answer.url() + " answered with no JSON: "
          + excerpt(answer.text()), e);
    }
  }

  private static int[] ids(JsonNode answer, URI where) {
    JsonNode tokens = answer.get("tokens");
    if (tokens == null || !tokens.isArray()) {
      throw new IllegalStateException(AuxHttp.redact(where) + " answered without a "
          + "\"tokens\" list: " + excerpt(answer.toString()));
    }
    int[] ids = new int[tokens.size()];
    for (int i = 0; i < ids.length; i++) {
      JsonNode id = tokens.get(i);
      if (!id.canConvertToInt()) {
        throw new IllegalStateException(AuxHttp.redact(where) + " answered a token id that "
            + "is not an integer: " + id);
      }
      ids[i] = id.intValue();
    }
    return ids;
  }

  static String seedText() {
    try {
      if (Files.isRegularFile(SEED_PATH)) {
        return Files.readString(SEED_PATH, StandardCharsets.UTF_8);
      }
      try (InputStream in = ServerEngine.class.getClassLoader()
          .getResourceAsStream(SEED_RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException("The seed text of the server tokenizer is missing: "
              + "neither " + SEED_PATH.toAbsolutePath() + " nor classpath resource "
              + SEED_RESOURCE + " exists");
        }
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the seed text " + SEED_PATH, e);
    }
  }

  private static String excerpt(String s) {
    String line = s.strip().replaceAll("\\s+", " ");
    return line.length() <= 200 ? line : line.substring(0, 200) + "...";
  }
}
