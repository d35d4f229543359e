package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseDecoderTest {

  /** A stream like vLLM's: several events, multi-byte UTF-8, a keep-alive, usage and [DONE]. */
  private static final String STREAM =
      ": keep-alive\n\n"
          + "data: {\"choices\":[{\"index\":0,\"text\":\" héllo\"}]}\n\n"
          + "data: {\"choices\":[{\"index\":0,\"text\":\" wörld 😀\"}]}\n\n"
          + "event: message\nid: 7\nretry: 10\n"
          + "data: {\"choices\":[],\"usage\":{\"completion_tokens\":2}}\n\n"
          + "data: [DONE]\n\n";

  private static final List<String> EXPECTED = List.of(
      "{\"choices\":[{\"index\":0,\"text\":\" héllo\"}]}",
      "{\"choices\":[{\"index\":0,\"text\":\" wörld 😀\"}]}",
      "{\"choices\":[],\"usage\":{\"completion_tokens\":2}}",
      "[DONE]");

  private record Event(String data, long nanos) {}

  private static List<Event> decode(byte[] bytes, int... splits) {
    List<Event> events = new ArrayList<>();
    SseDecoder decoder = new SseDecoder((data, length, nanos) ->
        events.add(new Event(new String(data, 0, length, StandardCharsets.UTF_8), nanos)));
    int from = 0;
    long read = 0;
    for (int split : splits) {
      decoder.feed(Unpooled.wrappedBuffer(bytes, from, split - from), ++read);
      from = split;
    }
    decoder.feed(Unpooled.wrappedBuffer(bytes, from, bytes.length - from), ++read);
    decoder.endOfStream(++read);
    return events;
  }

  private static List<String> data(List<Event> events) {
    return events.stream().map(Event::data).toList();
  }

  @Test
  void sameEventsWhateverSingleSplitPosition() {
    byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
    for (int split = 0; split <= bytes.length; split++) {
      assertEquals(EXPECTED, data(decode(bytes, split)), "split at byte " + split);
    }
  }

  @Test
  void sameEventsWhateverPairOfSplitPositions() {
    byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
    for (int a = 0; a <= bytes.length; a++) {
      for (int b = a; b <= bytes.length; b++) {
        assertEquals(EXPECTED, data(decode(bytes, a, b)), "splits at " + a + " and " + b);
      }
    }
  }

  @Test
  void sameEventsFedOneByteAtATime() {
    byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
    int[] splits = new int[bytes.length - 1];
    for (int i = 0; i < splits.length; i++) {
      splits[i] = i + 1;
    }
    assertEquals(EXPECTED, data(decode(bytes, splits)));
  }

  @Test
  void crlfAndLoneCrLineEndingsAreEquivalentToLf() {
    String crlf = STREAM.replace("\n", "\r\n");
    String cr = STREAM.replace("\n", "\r");
    for (String variant : List.of(crlf, cr)) {
      byte[] bytes = variant.getBytes(StandardCharsets.UTF_8);
      for (int split = 0; split <= bytes.length; split++) {
        assertEquals(EXPECTED, data(decode(bytes, split)), "split at " + split);
      }
    }
  }

  @Test
  void eventTakesTheTimestampOfTheReadThatCompletedIt() {
    byte[] bytes = "data: a\n\ndata: b\n\n".getBytes(StandardCharsets.UTF_8);
    // read 1 = "data: a\n\ndata: b\n", read 2 = "\n": event a completes in read 1, b in read 2.
    List<Event> events = decode(bytes, bytes.length - 1);
    assertEquals(List.of(new Event("a", 1), new Event("b", 2)), events);
  }

  @Test
  void severalEventsInOneReadShareItsTimestamp() {
    byte[] bytes = "data: a\n\ndata: b\n\ndata: c\n\n".getBytes(StandardCharsets.UTF_8);
    List<Event> events = decode(bytes);
    assertEquals(List.of(new Event("a", 1), new Event("b", 1), new Event("c", 1)), events);
  }

  @Test
  void commentsAndUnknownFieldsDispatchNothing() {
    byte[] bytes = ": ping\n\n:\n\nevent: x\nid: 1\n\nfoo: bar\n\n".getBytes(StandardCharsets.UTF_8);
    assertTrue(decode(bytes).isEmpty());
  }

  @Test
  void multipleDataLinesAreJoinedWithNewline() {
    byte[] bytes = "data: {\"a\":\ndata: 1}\n\n".getBytes(StandardCharsets.UTF_8);
    assertEquals(List.of("{\"a\":\n1}"), data(decode(bytes)));
  }

  @Test
  void dataWithoutSpaceAndEmptyDataAreKept() {
    byte[] bytes = "data:x\n\ndata\n\ndata:  two spaces\n\n".getBytes(StandardCharsets.UTF_8);
    assertEquals(List.of("x", "", " two spaces"), data(decode(bytes)));
  }

  @Test
  void finalEventWithoutBlankLineIsDeliveredAtEndButHalfLineIsDropped() {
    assertEquals(List.of("[DONE]"), data(decode("data: [DONE]\n".getBytes(StandardCharsets.UTF_8))));
    assertEquals(List.of("a"),
        data(decode("data: a\n\ndata: {\"trunc".getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void consumesTheWholeBuffer() {
    ByteBuf buf = Unpooled.copiedBuffer("data: a\n\nda", StandardCharsets.UTF_8);
    new SseDecoder((d, l, n) -> {}).feed(buf, 0);
    assertEquals(0, buf.readableBytes());
  }
}
