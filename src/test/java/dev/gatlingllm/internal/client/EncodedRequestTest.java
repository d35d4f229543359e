package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bytes a request goes out as are the bytes Netty's {@link HttpRequestEncoder} wrote for
 * it before requests were encoded ahead of their slot: the same request line, the same
 * headers in the same order, the same body, for fixed cases and for generated ones.
 */
class EncodedRequestTest {

  /** What the client wrote before: Netty's encoder over the request it used to build. */
  private static byte[] nettyBytes(LlmRequest request, Target target) {
    FullHttpRequest http = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
        target.path(request.path()), Unpooled.wrappedBuffer(request.body()));
    http.headers()
        .set(HttpHeaderNames.HOST, target.hostHeader())
        .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
        .set(HttpHeaderNames.CONTENT_LENGTH, request.body().length)
        .set(HttpHeaderNames.ACCEPT, "application/json, text/event-stream")
        .set(HttpHeaderNames.USER_AGENT, "gatling-llm")
        .setAll(request.headers());
    EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestEncoder());
    ch.writeOutbound(http);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
      byte[] bytes = new byte[b.readableBytes()];
      b.readBytes(bytes);
      out.writeBytes(bytes);
      b.release();
    }
    ch.finishAndReleaseAll();
    return out.toByteArray();
  }

  private static LlmRequest request(String path, HttpHeaders headers, String body) {
    return new LlmRequest("gen", path, headers, body.getBytes(StandardCharsets.UTF_8), 3,
        LlmRequest.NOT_SCHEDULED);
  }

  @Test
  void aPlainRequestIsTheRequestLineTheDefaultHeadersAndTheBody() {
    Target target = Target.parse("http://127.0.0.1:8000");
    LlmRequest r = request("/v1/completions", new DefaultHttpHeaders(), "{\"prompt\":\"é\"}");

    String wire = new String(EncodedRequest.encode(r, target).bytes(), StandardCharsets.UTF_8);

    assertEquals("POST /v1/completions HTTP/1.1\r\n"
        + "host: 127.0.0.1:8000\r\n"
        + "content-type: application/json\r\n"
        + "content-length: 15\r\n"
        + "accept: application/json, text/event-stream\r\n"
        + "user-agent: gatling-llm\r\n"
        + "\r\n"
        + "{\"prompt\":\"é\"}", wire);
    assertArrayEquals(nettyBytes(r, target), EncodedRequest.encode(r, target).bytes());
  }

  @Test
  void theRequestsOwnHeadersReplaceTheDefaultsAndKeepNettysByteRules() {
    Target target = Target.parse("https://api.example.com/v1");
    HttpHeaders own = new DefaultHttpHeaders()
        .set("Content-Type", "application/x-ndjson")
        .set("Authorization", "Bearer sk-secret")
        .set("x-request-id", "benchmark-7")
        .set("x-note", "caf\u00e9 \u2603") // Netty writes U+00E9 as its byte, U+2603 as '?'
        .set(AsciiString.of("x-ascii"), AsciiString.of("raw"))
        .add("x-many", "1").add("x-many", "2");
    LlmRequest r = request("/v1/chat/completions", own, "{}");

    byte[] ours = EncodedRequest.encode(r, target).bytes();

    assertArrayEquals(nettyBytes(r, target), ours);
    String wire = new String(ours, StandardCharsets.ISO_8859_1);
    assertFalse(wire.contains("application/json\r\n"), wire);
    assertEquals(true, wire.startsWith("POST /v1/chat/completions HTTP/1.1\r\nhost: api.example.com\r\n"), wire);
    assertEquals(true, wire.contains("x-note: caf\u00e9 ?\r\n"), wire);
  }

  @Test
  void generatedRequestsEncodeAsNettyEncodesThem() {
    Random random = new Random(20261123);
    String[] paths = {"/v1/completions", "v1/completions", "/v1/chat/completions", "/pooling"};
    String[] bases = {"http://127.0.0.1:8000", "http://localhost", "https://h.example:8443/v1",
        "http://[::1]:9000/api"};
    for (int i = 0; i < 2_000; i++) {
      HttpHeaders headers = new DefaultHttpHeaders();
      int n = random.nextInt(6);
      for (int h = 0; h < n; h++) {
        String name = random.nextBoolean()
            ? new String[] {"Host", "Accept", "User-Agent", "Content-Length"}[random.nextInt(4)]
            : "x-h" + random.nextInt(5);
        headers.add(name, text(random, 12));
      }
      StringBuilder body = new StringBuilder();
      for (int c = random.nextInt(3_000); c > 0; c--) {
        body.append((char) (0x20 + random.nextInt(0x3000)));
      }
      Target target = Target.parse(bases[random.nextInt(bases.length)]);
      LlmRequest r = request(paths[random.nextInt(paths.length)], headers, body.toString());

      assertArrayEquals(nettyBytes(r, target), EncodedRequest.encode(r, target).bytes(),
          "request " + i);
    }
  }

  /** Printable ASCII, tabs and now and then a character above U+007F. */
  private static String text(Random random, int max) {
    StringBuilder s = new StringBuilder("v");
    for (int c = random.nextInt(max); c > 0; c--) {
      int kind = random.nextInt(20);
      s.append(kind == 0 ? (char) (0x80 + random.nextInt(0x700)) : kind == 1 ? '\t'
          : (char) (0x21 + random.nextInt(0x5e)));
    }
    return s.toString();
  }

  @Test
  void aHeaderValueHttpDoesNotAllowIsRefusedBeforeAnythingIsSent() {
    HttpHeaders headers = new DefaultHttpHeaders(false).add("x-bad", "a\r\nInjected: yes");
    LlmRequest r = request("/v1/completions", headers, "{}");

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> EncodedRequest.encode(r, Target.parse("http://127.0.0.1:8000")));
    assertEquals(true, e.getMessage() != null && !e.getMessage().isBlank());
  }
}
