package dev.gatlingllm.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A deliberately small HTTP/1.1 client over one raw socket, so tests control the
 * connection (reuse, pipelining, hanging up) and see every HTTP chunk with its arrival time.
 */
public final class TestClient implements AutoCloseable {

  static final ObjectMapper JSON = new ObjectMapper();

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  public TestClient(int port) {
    try {
      socket = new Socket();
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout(15_000);
      socket.setTcpNoDelay(true);
      in = new BufferedInputStream(socket.getInputStream());
      out = socket.getOutputStream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One received HTTP body chunk. */
  record Chunk(long nanos, String text) {}

  /** One SSE event: its data payload and when the chunk carrying it arrived. */
  public record Event(long nanos, String data) {
    JsonNode json() {
      try {
        return JSON.readTree(data);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * A response as read. {@code complete} is false when the connection ended before the
   * body did (the server hung up mid-stream).
   */
  public record Response(long startNanos, int status, Map<String, String> headers, List<Chunk> chunks,
      boolean complete) {

    public String body() {
      StringBuilder sb = new StringBuilder();
      chunks.forEach(c -> sb.append(c.text()));
      return sb.toString();
    }

    JsonNode json() {
      try {
        return JSON.readTree(body());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** The SSE events in order, each stamped with the arrival of the chunk holding it. */
    List<Event> events() {
      List<Event> events = new ArrayList<>();
      StringBuilder pending = new StringBuilder();
      for (Chunk c : chunks) {
        pending.append(c.text());
        int end;
        while ((end = pending.indexOf("\n\n")) >= 0) {
          String event = pending.substring(0, end);
          pending.delete(0, end + 2);
          if (!event.startsWith("data: ")) {
            throw new AssertionError("not an SSE data event: " + event);
          }
          events.add(new Event(c.nanos(), event.substring(6)));
        }
      }
      if (pending.length() > 0 && complete) {
        throw new AssertionError("stream ended inside an event: " + pending);
      }
      return events;
    }

    /** Events whose JSON has a non-empty {@code choices}: the content chunks. */
    public List<Event> contentEvents() {
      return events().stream()
          .filter(e -> !e.data().equals("[DONE]"))
          .filter(e -> e.json().path("choices").size() > 0)
          .filter(e -> !e.json().path("choices").get(0).path("delta").has("role"))
          .toList();
    }
  }

  Response post(String path, String body) {
    return exchange("POST", path, body, Map.of());
  }

  public Response get(String path) {
    return exchange("GET", path, null, Map.of());
  }

  public Response exchange(String method, String path, String body, Map<String, String> headers) {
    long start = System.nanoTime();
    write(method, path, body, headers);
    return read(start);
  }

  /** Writes a request without reading the answer (for pipelining and hang-up tests). */
  void write(String method, String path, String body, Map<String, String> headers) {
    byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    StringBuilder head = new StringBuilder()
        .append(method).append(' ').append(path).append(" HTTP/1.1\r\n")
        .append("host: 127.0.0.1\r\n");
    headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
    if (body != null) {
      head.append("content-type: application/json\r\n")
          .append("content-length: ").append(payload.length).append("\r\n");
    }
    head.append("\r\n");
    try {
      out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
      out.write(payload);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads the status line and headers only. */
  Response readHead(long startNanos) {
    try {
      String status = line();
      if (status == null) {
        throw new IOException("connection closed before a response");
      }
      Map<String, String> headers = new LinkedHashMap<>();
      String h;
      while ((h = line()) != null && !h.isEmpty()) {
        int colon = h.indexOf(':');
        headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
      }
      return new Response(startNanos, Integer.parseInt(status.split(" ")[1]), headers, List.of(), false);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Response read(long startNanos) {
    Response head = readHead(startNanos);
    List<Chunk> chunks = new ArrayList<>();
    boolean complete;
    try {
      if ("chunked".equalsIgnoreCase(head.header("transfer-encoding"))) {
        complete = readChunks(chunks);
      } else {
        int length = Integer.parseInt(head.headers().getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        complete = body.length == length;
        chunks.add(new Chunk(System.nanoTime(), new String(body, StandardCharsets.UTF_8)));
      }
    } catch (IOException e) {
      complete = false;
    }
    return new Response(startNanos, head.status(), head.headers(), chunks, complete);
  }

  private boolean readChunks(List<Chunk> chunks) throws IOException {
    while (true) {
      String sizeLine = line();
      if (sizeLine == null) {
        return false;
      }
      int size = Integer.parseInt(sizeLine.trim(), 16);
      if (size == 0) {
        return line() != null;
      }
      byte[] data = in.readNBytes(size);
      if (data.length < size) {
        return false;
      }
      chunks.add(new Chunk(System.nanoTime(), new String(data, StandardCharsets.UTF_8)));
      if (line() == null) {
        return false;
      }
    }
  }

  /** True when the server has closed the connection (read gives end of stream). */
  boolean serverClosed() {
    try {
      return in.read() == -1;
    } catch (IOException e) {
      return true;
    }
  }

  /** A CRLF-terminated line without the CRLF, or null at end of stream. */
  private String line() throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      if (b == '\n') {
        String s = buf.toString(StandardCharsets.US_ASCII);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
      }
      buf.write(b);
    }
    return null;
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
