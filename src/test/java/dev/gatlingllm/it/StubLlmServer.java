package dev.gatlingllm.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A minimal OpenAI-like completions server for what the simulator cannot do: it records the
 * headers of every request exactly as they arrived (every value of a repeated header), and it
 * streams {@code max_tokens} tokens (" the", one GPT-2 token each) without ever sending
 * {@code usage}, like servers that ignore {@code stream_options}.
 */
final class StubLlmServer implements AutoCloseable {

  private static final Pattern MAX_TOKENS = Pattern.compile("\"max_tokens\"\\s*:\\s*(\\d+)");

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final Duration ttft;
  private final Duration itl;
  private final int tokensPerChunk;
  private final List<Map<String, List<String>>> requests = new CopyOnWriteArrayList<>();

  /** Answers at once, one chunk per token. */
  StubLlmServer() {
    this(Duration.ZERO, Duration.ZERO, 1);
  }

  /** Waits {@code ttft} for the first chunk, then {@code itl} between chunks. */
  StubLlmServer(Duration ttft, Duration itl, int tokensPerChunk) {
    this.ttft = ttft;
    this.itl = itl;
    this.tokensPerChunk = tokensPerChunk;
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(threads);
    server.createContext("/", this::answer);
    server.start();
  }

  private void answer(HttpExchange exchange) throws IOException {
    // names lower-cased, so that "accept" and "Accept" land under one key
    Map<String, List<String>> headers = new TreeMap<>();
    exchange.getRequestHeaders().forEach((name, values) -> headers.merge(name.toLowerCase(),
        List.copyOf(values), (a, b) -> Stream.concat(a.stream(), b.stream()).toList()));
    headers.put(":path", List.of(exchange.getRequestURI().getPath()));
    requests.add(headers);
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Matcher max = MAX_TOKENS.matcher(body);
    int tokens = max.find() ? Integer.parseInt(max.group(1)) : 1;

    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
      pause(ttft);
      for (int sent = 0; sent < tokens; sent += tokensPerChunk) {
        if (sent > 0) {
          pause(itl);
        }
        String text = " the".repeat(Math.min(tokensPerChunk, tokens - sent));
        out.write(("data: {\"choices\":[{\"index\":0,\"text\":\"" + text + "\"}]}\n\n")
            .getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
      out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
    threads.shutdownNow();
  }
}
