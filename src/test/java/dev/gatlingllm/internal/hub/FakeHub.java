package dev.gatlingllm.internal.hub;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback HTTP server standing in for the Hugging Face Hub in tests: each path answers
 * with a fixed response, and every request is recorded with its Authorization header.
 */
public final class FakeHub implements AutoCloseable {

  /** One recorded request. {@code authorization} is null when none was sent. */
  public record Request(String rawPath, String authorization) {}

  /** A canned response: status, body and optional headers. */
  public record Response(int status, byte[] body, Map<String, String> headers) {
    public static Response ok(byte[] body) {
      return new Response(200, body, Map.of());
    }

    public static Response redirect(String location) {
      return new Response(302, new byte[0], Map.of("Location", location));
    }

    public static Response status(int status, String hubMessage) {
      return new Response(status, "{}".getBytes(), Map.of("X-Error-Message", hubMessage));
    }
  }

  private final HttpServer server;
  private final Map<String, Response> routes = new ConcurrentHashMap<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();

  public FakeHub() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  /** The base URL, {@code http://127.0.0.1:<port>}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The same server under another host name, to test cross-host redirects. */
  public String otherHostUrl() {
    return "http://localhost:" + server.getAddress().getPort();
  }

  /** Answers requests whose raw path (without query) equals {@code rawPath}. */
  public FakeHub route(String rawPath, Response response) {
    routes.put(rawPath, response);
    return this;
  }

  public List<Request> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getRawPath();
    requests.add(new Request(path, exchange.getRequestHeaders().getFirst("Authorization")));
    Response response = routes.getOrDefault(path,
        new Response(404, "not here".getBytes(), Map.of("X-Error-Message", "Entry not found")));
    response.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
    exchange.sendResponseHeaders(response.status(),
        response.body().length == 0 ? -1 : response.body().length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(response.body());
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
