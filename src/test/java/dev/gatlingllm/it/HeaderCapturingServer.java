package dev.gatlingllm.it;

import com.sun.net.httpserver.Headers;
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

/**
 * An OpenAI-like streaming server that records the headers of every request exactly as they
 * arrived (every value of a repeated header), and answers with a one-chunk stream.
 */
final class HeaderCapturingServer implements AutoCloseable {

  private static final byte[] STREAM = ("data: {\"choices\":[{\"index\":0,\"text\":\" ok\"}]}\n\n"
      + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);

  private final HttpServer server;
  private final List<Map<String, List<String>>> requests = new CopyOnWriteArrayList<>();

  HeaderCapturingServer() {
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", this::answer);
    server.start();
  }

  private void answer(HttpExchange exchange) throws IOException {
    // names lower-cased, so that "accept" and "Accept" land under one key
    Map<String, List<String>> headers = new TreeMap<>();
    Headers received = exchange.getRequestHeaders();
    received.forEach((name, values) -> headers.merge(name.toLowerCase(), List.copyOf(values),
        (a, b) -> java.util.stream.Stream.concat(a.stream(), b.stream()).toList()));
    headers.put(":path", List.of(exchange.getRequestURI().getPath()));
    exchange.getRequestBody().readAllBytes();
    requests.add(headers);
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, STREAM.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(STREAM);
    }
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Headers of each request received, names lower-cased, plus the path under ":path". */
  List<Map<String, List<String>>> requests() {
    return List.copyOf(requests);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
