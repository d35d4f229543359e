package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request encoded for several servers: each server's head followed by the shared rest is
 * exactly the request encoded for that server alone.
 */
class EncodedRequestReplicasTest {

  private static final List<Target> TARGETS = List.of(Target.parse("http://127.0.0.1:8001"),
      Target.parse("https://replica-b.example/v1"), Target.parse("http://[::1]:9000/proxy"));

  private static LlmRequest request(HttpHeaders headers) {
    return new LlmRequest("gen", "/v1/completions", headers,
        "{\"prompt\":\"é\"}".getBytes(StandardCharsets.UTF_8), 3, LlmRequest.NOT_SCHEDULED);
  }

  private static byte[] whole(EncodedRequest e, int target) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(e.head(target));
    out.writeBytes(e.bytes());
    return out.toByteArray();
  }

  @Test
  void eachServersBytesAreThoseOfThatServerAlone() {
    LlmRequest r = request(new DefaultHttpHeaders().add("x-request-id", "id-1"));
    EncodedRequest several = EncodedRequest.encode(r, TARGETS);
    assertTrue(several.perTarget());
    for (int t = 0; t < TARGETS.size(); t++) {
      assertArrayEquals(EncodedRequest.encode(r, TARGETS.get(t)).bytes(), whole(several, t),
          "target " + t);
    }
    // written out for the second: its prefix /v1 is already the endpoint's, its port the default
    assertEquals("POST /v1/completions HTTP/1.1\r\nhost: replica-b.example\r\n",
        new String(several.head(1), StandardCharsets.US_ASCII));
    assertEquals("POST /proxy/v1/completions HTTP/1.1\r\nhost: [::1]:9000\r\n",
        new String(several.head(2), StandardCharsets.US_ASCII));
  }

  @Test
  void aRequestsOwnHostHeaderGoesToEveryServerInItsPlace() {
    LlmRequest r = request(new DefaultHttpHeaders().add("Host", "gateway.example")
        .add("x-request-id", "id-2"));
    EncodedRequest several = EncodedRequest.encode(r, TARGETS);
    for (int t = 0; t < TARGETS.size(); t++) {
      assertArrayEquals(EncodedRequest.encode(r, TARGETS.get(t)).bytes(), whole(several, t),
          "target " + t);
      assertFalse(new String(several.head(t), StandardCharsets.US_ASCII).contains("host"));
    }
  }

  @Test
  void oneServerIsOneArrayAsBefore() {
    LlmRequest r = request(new DefaultHttpHeaders());
    EncodedRequest one = EncodedRequest.encode(r, TARGETS.subList(0, 1));
    assertFalse(one.perTarget());
    assertArrayEquals(EncodedRequest.encode(r, TARGETS.get(0)).bytes(), one.bytes());
  }
}
