package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.action.Backends;
import dev.gatlingllm.internal.action.BuilderAccess;
import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Responses API answers ({@code /v1/responses}): the events decoded one by one, and a whole
 * stream fed to an {@link Exchange} at hand-picked read times, so that TTFT, ITLs and latency
 * are exact.
 */
class ResponsesEventsTest {

  /** The Responses API's reader, as its row of the backend table gives it. */
  private static final ChunkReader RESPONSES =
      BuilderAccess.api(Backends.resolve("openai-responses")).reader();

  private static final String CREATED = "{\"type\":\"response.created\",\"sequence_number\":0,"
      + "\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"in_progress\","
      + "\"error\":null,\"output\":[],\"usage\":null}}";
  private static final String ITEM_ADDED = "{\"type\":\"response.output_item.added\","
      + "\"sequence_number\":1,\"output_index\":0,\"item\":{\"type\":\"message\",\"id\":\"m1\","
      + "\"role\":\"assistant\",\"content\":[]}}";
  private static final String TEXT_DONE = "{\"type\":\"response.output_text.done\","
      + "\"sequence_number\":9,\"item_id\":\"m1\",\"output_index\":0,\"content_index\":0,"
      + "\"text\":\" one two three\"}";
  private static final String COMPLETED = "{\"type\":\"response.completed\","
      + "\"sequence_number\":10,\"response\":{\"id\":\"resp_1\",\"object\":\"response\","
      + "\"status\":\"completed\",\"error\":null,\"output\":[{\"type\":\"message\","
      + "\"content\":[{\"type\":\"output_text\",\"text\":\" one two three\"}]}],"
      + "\"usage\":{\"input_tokens\":7,\"input_tokens_details\":{\"cached_tokens\":0},"
      + "\"output_tokens\":3,\"output_tokens_details\":{\"reasoning_tokens\":0},"
      + "\"total_tokens\":10}}}";

  private static String delta(String text) {
    // the delta before the type, as a server may order them: the reader must not mind
    return "{\"delta\":\"" + text + "\",\"type\":\"response.output_text.delta\","
        + "\"sequence_number\":3,\"item_id\":\"m1\",\"output_index\":0,\"content_index\":0}";
  }

  private static ChunkFields parse(String json) throws Exception {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    ChunkFields out = new ChunkFields();
    RESPONSES.read(bytes, bytes.length, out);
    return out;
  }

  /**
   * Each API reads its own stream: the OpenAI chunk reader (completions, chat) takes no
   * Responses event for content, and the Responses reader still reads a chat-shaped error.
   */
  @Test
  void theChatReaderDoesNotReadResponsesEvents() throws Exception {
    byte[] bytes = delta(" one").getBytes(StandardCharsets.UTF_8);
    ChunkFields chat = new ChunkFields();
    ChunkReader.OPENAI.read(bytes, bytes.length, chat);
    assertFalse(chat.hasChoices);
    assertNull(chat.text);
    assertEquals("overloaded", parse("{\"error\":{\"message\":\"overloaded\"}}").error);
  }

  @Test
  void aTextDeltaIsAContentChunk() throws Exception {
    ChunkFields f = parse(delta(" one"));
    assertTrue(f.hasChoices);
    assertEquals(" one", f.text);
    assertFalse(f.reasoning);
    assertNull(f.error);
  }

  @Test
  void anEmptyDeltaAndTheLifecycleEventsCarryNothing() throws Exception {
    for (String event : List.of(delta(""), CREATED, ITEM_ADDED, TEXT_DONE)) {
      ChunkFields f = parse(event);
      assertFalse(f.hasChoices, event);
      assertNull(f.text, event);
      assertNull(f.error, event);
      assertEquals(-1, f.completionTokens, event);
    }
  }

  @Test
  void theCompletedEventGivesTheUsageButNotItsRepeatedText() throws Exception {
    ChunkFields f = parse(COMPLETED);
    assertFalse(f.hasChoices);
    assertNull(f.text);
    assertEquals(7, f.promptTokens);
    assertEquals(3, f.completionTokens);
    assertNull(f.error);
  }

  @Test
  void aReasoningDeltaCountsAsAReasoningChunk() throws Exception {
    ChunkFields f = parse("{\"type\":\"response.reasoning_text.delta\",\"delta\":\" hmm\"}");
    assertTrue(f.hasChoices);
    assertTrue(f.reasoning);
    assertNull(f.text);
  }

  @Test
  void failedAndErrorEventsCarryTheirMessages() throws Exception {
    assertEquals("The model overloaded", parse("{\"type\":\"response.failed\",\"response\":"
        + "{\"status\":\"failed\",\"error\":{\"code\":\"server_error\",\"message\":"
        + "\"The model overloaded\"},\"usage\":null}}").error);
    assertEquals("response failed",
        parse("{\"type\":\"response.failed\",\"response\":{\"error\":null}}").error);
    assertEquals("bad things", parse("{\"type\":\"error\",\"code\":\"x\",\"message\":"
        + "\"bad things\",\"param\":null}").error);
    assertEquals("error event", parse("{\"type\":\"error\"}").error);
  }

  @Test
  void aNonStreamedResponseGivesItsTextAndUsage() throws Exception {
    ChunkFields f = parse("{\"id\":\"resp_2\",\"object\":\"response\",\"status\":\"completed\","
        + "\"output\":[{\"type\":\"reasoning\",\"summary\":[]},{\"type\":\"message\",\"content\":"
        + "[{\"type\":\"output_text\",\"text\":\" zero\",\"annotations\":[]},"
        + "{\"text\":\" one\",\"type\":\"output_text\"}]}],\"error\":null,"
        + "\"usage\":{\"input_tokens\":4,\"output_tokens\":2,\"total_tokens\":6}}");
    assertTrue(f.hasChoices);
    assertEquals(" zero one", f.text);
    assertTrue(f.reasoning);
    assertEquals(4, f.promptTokens);
    assertEquals(2, f.completionTokens);
    assertNull(f.error);
  }

  @Test
  void aChatChunkWithAnUnrelatedTypeMemberStaysAChatChunk() throws Exception {
    ChunkFields f = parse("{\"type\":\"chunk\",\"choices\":[{\"delta\":{\"content\":\"x\"}}]}");
    assertTrue(f.hasChoices);
    assertEquals("x", f.text);
  }

  @Test
  void theScannerLeavesResponsesBodiesToJackson() {
    ChunkFields out = new ChunkFields();
    for (String json : List.of(delta(" a"), COMPLETED, "{\"output\":[]}")) {
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      assertFalse(ChunkScanner.scan(bytes, bytes.length, out), json);
    }
  }

  /**
   * Read times 0.100 s (created), 0.250 s (output item), 0.300, 0.330, 0.345 s (deltas),
   * 0.350 s (done), 0.360 s (completed), 0.370 s (end), the request started at 0: TTFT is the
   * first delta, 300 ms; the ITLs are 30 and 15 ms; the latency is the last delta, 345 ms.
   */
  @Test
  void aStreamIsTimedLikeChatChunks() {
    List<RequestRecord> records = new ArrayList<>();
    long start = 1_000_000_000L;
    Exchange exchange = new Exchange(new LlmRequest("resp", "/v1/responses",
        new DefaultHttpHeaders(), new byte[0], 7, LlmRequest.NOT_SCHEDULED, false, RESPONSES),
        start,
        new ClientConfig(Target.parse("http://127.0.0.1:1"), Duration.ofSeconds(1),
            Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(4)),
        (ex, record, reusable) -> records.add(record));
    DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    head.headers().set("content-type", "text/event-stream; charset=utf-8");
    exchange.onResponseHead(head, start + ms(50));
    event(exchange, CREATED, start + ms(100));
    event(exchange, ITEM_ADDED, start + ms(250));
    event(exchange, delta(" one"), start + ms(300));
    event(exchange, delta(" two"), start + ms(330));
    event(exchange, delta(" three"), start + ms(345));
    event(exchange, TEXT_DONE, start + ms(350));
    event(exchange, COMPLETED, start + ms(360));
    exchange.onEndOfChunkedBody(start + ms(370), true);

    assertEquals(1, records.size());
    RequestRecord r = records.get(0);
    assertTrue(r.success(), r.error());
    assertEquals(300.0, r.ttftMillis());
    assertEquals(345.0, r.latencyMillis());
    assertArrayEquals(new int[] {300_000, 330_000, 345_000}, r.chunkMicros());
    assertEquals(30.0, r.itlMillis(0));
    assertEquals(15.0, r.itlMillis(1));
    assertEquals(3, r.outputTokens());
    assertEquals(7, r.usagePromptTokens());
    assertEquals(" one two three", r.generatedText());
  }

  @Test
  void aFailedEventFailsTheRequestWithItsMessage() {
    List<RequestRecord> records = new ArrayList<>();
    long start = 5_000L;
    Exchange exchange = new Exchange(new LlmRequest("resp", "/v1/responses",
        new DefaultHttpHeaders(), new byte[0], 7, LlmRequest.NOT_SCHEDULED, false, RESPONSES),
        start,
        new ClientConfig(Target.parse("http://127.0.0.1:1"), Duration.ofSeconds(1),
            Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(4)),
        (ex, record, reusable) -> records.add(record));
    DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    head.headers().set("content-type", "text/event-stream");
    exchange.onResponseHead(head, start + ms(1));
    event(exchange, delta(" one"), start + ms(2));
    event(exchange, "{\"type\":\"response.failed\",\"response\":{\"error\":{\"message\":"
        + "\"out of memory\"}}}", start + ms(3));

    assertEquals(1, records.size());
    assertFalse(records.get(0).success());
    assertEquals("error event: out of memory", records.get(0).error());
  }

  private static void event(Exchange exchange, String json, long nanos) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.onEvent(bytes, bytes.length, nanos);
  }

  private static long ms(long millis) {
    return millis * 1_000_000L;
  }
}
