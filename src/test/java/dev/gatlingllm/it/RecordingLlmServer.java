package dev.gatlingllm.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An OpenAI-like server that records every request as it arrived (method, path, headers with
 * lower-cased names, JSON body) and accepts any model name, so that what the benchmark sends
 * can be compared field by field with what vLLM sends. Streams {@code max_tokens} (chat:
 * {@code max_completion_tokens}) one-token chunks and a usage event; answers the profiler
 * endpoints with 200, and GET requests (the plugin's {@code /metrics} scrape) with 404, unrecorded.
 */
final class RecordingLlmServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One request as received. */
  record Received(String method, String path, Map<String, String> headers, JsonNode body) {
    String header(String name) {
      return headers.get(name);
    }
  }

  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(8);
  private final List<Received> received = new CopyOnWriteArrayList<>();

  /** Listens on a free port now. */
  RecordingLlmServer() {
    this(0);
  }

  /** Listens on {@code port} now (0: any free port). */
  RecordingLlmServer(int port) {
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(threads);
    server.createContext("/", this::answer);
    server.start();
  }

  private void answer(HttpExchange exchange) throws IOException {
    if (exchange.getRequestMethod().equals("GET")) {
      // no Prometheus /metrics here: the plugin's scraper stops at the 404
      exchange.sendResponseHeaders(404, -1);
      exchange.close();
      return;
    }
    Map<String, String> headers = new TreeMap<>();
    exchange.getRequestHeaders().forEach((name, values) ->
        headers.put(name.toLowerCase(), String.join(",", values)));
    byte[] raw = exchange.getRequestBody().readAllBytes();
    JsonNode body = raw.length == 0 ? null : JSON.readTree(raw);
    String path = exchange.getRequestURI().getPath();
    received.add(new Received(exchange.getRequestMethod(), path, headers, body));
    if (path.endsWith("_profile")) {
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
      return;
    }
    boolean chat = path.endsWith("chat/completions");
    JsonNode max = body == null ? null
        : body.get(chat ? "max_completion_tokens" : "max_tokens");
    int tokens = max == null ? 1 : max.asInt();
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
      for (int i = 0; i < tokens; i++) {
        String choice = chat ? "{\"index\":0,\"delta\":{\"content\":\" the\"}}"
            : "{\"index\":0,\"text\":\" the\"}";
        out.write(("data: {\"choices\":[" + choice + "]}\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
      out.write(("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":"
          + tokens + "}}\n\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** Every request received, in arrival order. */
  List<Received> received() {
    return List.copyOf(received);
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
