package dev.gatlingllm.internal.client;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A request as the bytes that go on the wire: request line, headers and body in one array,
 * built before the request's slot so that sending it is one write.
 *
 * <p>Why not Netty's {@code HttpRequestEncoder} at send time: at 1,000 req/s on one core a
 * profile put the encoder (headers, request line, a second buffer and a promise combiner for
 * the body) at about a third of a send's CPU, all of it between the request's clock start
 * and its bytes leaving, and all of it delaying the next send due. A paced request is now
 * encoded in the lead its user is let go with (1 ms before its slot).
 *
 * <p>The bytes are what Netty's encoder writes for the same request: {@code POST <path>
 * HTTP/1.1}, the headers in their order (a character up to U+00FF as its one byte, any other
 * as {@code ?}, an {@link AsciiString}'s bytes as they are), an empty line, the body. The
 * headers are validated as Netty validates them: {@link DefaultHttpHeaders} with validation.
 */
public final class EncodedRequest {

  private static final byte[] METHOD = ascii("POST ");
  private static final byte[] VERSION = ascii(" HTTP/1.1\r\n");
  private static final AsciiString HOST = HttpHeaderNames.HOST;

  private final LlmRequest request;
  private final byte[] bytes;
  /** For several servers: each one's request line and Host header; null for one server. */
  private final byte[][] heads;

  private EncodedRequest(LlmRequest request, byte[] bytes, byte[][] heads) {
    this.request = request;
    this.bytes = bytes;
    this.heads = heads;
  }

  /**
   * Encodes {@code request} for {@code target}: the client's default headers (host, JSON
   * content type, content length, accept, user agent), each replaced by the request's own
   * header of that name (names ignore case), then what its API adds
   * ({@link ChunkReader#addRequestHeaders}).
   *
   * @throws IllegalArgumentException a header name or value that HTTP does not allow
   */
  static EncodedRequest encode(LlmRequest request, Target target) {
    return encode(request, List.of(target));
  }

  /**
   * Encodes {@code request} for any of {@code targets}, which the client chooses among when it
   * sends: what differs between servers (the request line, whose path has the server's
   * prefix, and the Host header) once per server, the rest (the other headers and the body)
   * once for all, after what its API adds ({@link ChunkReader#addRequestHeaders}). For one
   * server the bytes are one array, as they always were; for several,
   * a server's head followed by the shared rest are the bytes encoding for that server alone
   * would give, since the Host header comes first either way.
   */
  static EncodedRequest encode(LlmRequest request, List<Target> targets) {
    HttpHeaders headers = new DefaultHttpHeaders()
        .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
        .set(HttpHeaderNames.CONTENT_LENGTH, request.body().length)
        .set(HttpHeaderNames.ACCEPT, "application/json, text/event-stream")
        .set(HttpHeaderNames.USER_AGENT, "gatling-llm")
        .setAll(request.headers());
    request.reader().addRequestHeaders(headers);
    // a Host header of the request's own (or its API's) replaces the client's, after the others
    boolean ownHost = headers.contains(HttpHeaderNames.HOST);
    byte[] body = request.body();
    int restSize = 2 + body.length;
    for (Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iteratorCharSequence();
        it.hasNext(); ) {
      Map.Entry<CharSequence, CharSequence> h = it.next();
      restSize += h.getKey().length() + h.getValue().length() + 4;
    }
    byte[][] heads = new byte[targets.size()][];
    for (int t = 0; t < heads.length; t++) {
      heads[t] = head(request, targets.get(t), ownHost);
    }
    int offset = heads.length == 1 ? heads[0].length : 0;
    byte[] out = new byte[offset + restSize];
    if (heads.length == 1) {
      System.arraycopy(heads[0], 0, out, 0, offset);
    }
    int at = offset;
    for (Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iteratorCharSequence();
        it.hasNext(); ) {
      Map.Entry<CharSequence, CharSequence> h = it.next();
      at = header(out, at, h.getKey(), h.getValue());
    }
    out[at++] = '\r';
    out[at++] = '\n';
    System.arraycopy(body, 0, out, at, body.length);
    return new EncodedRequest(request, out, heads.length == 1 ? null : heads);
  }

  /** {@code POST <path> HTTP/1.1}, then the Host header unless the request brings its own. */
  private static byte[] head(LlmRequest request, Target target, boolean ownHost) {
    String uri = target.path(request.path());
    String host = target.hostHeader();
    byte[] out = new byte[METHOD.length + uri.length() + VERSION.length
        + (ownHost ? 0 : HOST.length() + host.length() + 4)];
    System.arraycopy(METHOD, 0, out, 0, METHOD.length);
    int at = put(out, METHOD.length, uri);
    System.arraycopy(VERSION, 0, out, at, VERSION.length);
    at += VERSION.length;
    if (!ownHost) {
      header(out, at, HOST, host);
    }
    return out;
  }

  private static int header(byte[] out, int at, CharSequence name, CharSequence value) {
    at = put(out, at, name);
    out[at++] = ':';
    out[at++] = ' ';
    at = put(out, at, value);
    out[at++] = '\r';
    out[at++] = '\n';
    return at;
  }

  /** The request these bytes encode. */
  public LlmRequest request() {
    return request;
  }

  /**
   * The whole request as sent to the one server; for several, what follows a server's
   * {@link #head}. Not a copy, never modify it.
   */
  byte[] bytes() {
    return bytes;
  }

  /** Whether it was encoded for several servers: then a server's bytes are its head and {@link #bytes()}. */
  boolean perTarget() {
    return heads != null;
  }

  /** The request line and Host header for server {@code target}, when {@link #perTarget()}. */
  byte[] head(int target) {
    return heads[target];
  }

  private static int put(byte[] out, int at, CharSequence s) {
    if (s instanceof AsciiString a) {
      a.copy(0, out, at, a.length());
      return at + a.length();
    }
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      out[at++] = c <= 0xFF ? (byte) c : (byte) '?';
    }
    return at;
  }

  private static byte[] ascii(String s) {
    byte[] b = new byte[s.length()];
    put(b, 0, s);
    return b;
  }

  /** The bytes stay out: header values carry the API key. */
  @Override
  public String toString() {
    return "EncodedRequest{" + request + ", " + bytes.length + " bytes}";
  }
}
