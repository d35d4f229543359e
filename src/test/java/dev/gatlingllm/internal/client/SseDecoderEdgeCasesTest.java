package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Framing cases the stream tests in {@link SseDecoderTest} do not reach: lines and events
 * larger than the decoder's initial buffers, the byte-array entry point, empty values after
 * longer lines, and the size limit that protects the heap from a server that never ends a line.
 */
class SseDecoderEdgeCasesTest {

  private static final int LIMIT = 16 * 1024 * 1024;

  private final List<String> events = new ArrayList<>();
  private final List<Long> times = new ArrayList<>();
  private final SseDecoder decoder = new SseDecoder((data, length, nanos) -> {
    events.add(new String(data, 0, length, StandardCharsets.UTF_8));
    times.add(nanos);
  });

  private void feed(String text, long nanos) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    decoder.feed(bytes, 0, bytes.length, nanos);
  }

  private static String repeat(char c, int n) {
    char[] chars = new char[n];
    Arrays.fill(chars, c);
    return new String(chars);
  }

  @Test
  void byteArraySliceFeedsOnlyItsRange() {
    // Garbage on both sides of the slice must not reach the decoder.
    byte[] bytes = "XXXdata: a\n\nYYY".getBytes(StandardCharsets.US_ASCII);
    decoder.feed(bytes, 3, 9, 42);
    assertEquals(List.of("a"), events);
    assertEquals(List.of(42L), times);
  }

  @Test
  void byteArraySplitAnywhereGivesTheSameEvents() {
    byte[] bytes = "data: one\r\n\r\ndata: two\n\n".getBytes(StandardCharsets.US_ASCII);
    decoder.feed(bytes, 0, 5, 1);
    decoder.feed(bytes, 5, 7, 2);
    decoder.feed(bytes, 12, bytes.length - 12, 3);
    assertEquals(List.of("one", "two"), events);
    // "one" was completed by the blank line of the second read, "two" by the third.
    assertEquals(List.of(2L, 3L), times);
  }

  @Test
  void aLineLongerThanTheInitialBufferIsKeptWhole() {
    // 512 bytes is the decoder's first line buffer; 5,000 forces several doublings.
    String big = repeat('x', 5_000);
    feed("data: " + big + "\n\n", 7);
    assertEquals(List.of(big), events);
  }

  @Test
  void aLineOfExactlyTheInitialBufferSizeIsKeptWhole() {
    String value = repeat('y', 512 - "data: ".length());
    feed("data: " + value + "\n", 1);
    feed("data: z\n\n", 2);
    assertEquals(List.of(value + "\nz"), events);
  }

  @Test
  void manyDataLinesAddUpToAnEventLargerThanItsInitialBuffer() {
    StringBuilder stream = new StringBuilder();
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String line = i + ":" + repeat((char) ('a' + i % 26), 60);
      lines.add(line);
      stream.append("data: ").append(line).append('\n');
    }
    feed(stream.append('\n').toString(), 3);
    assertEquals(List.of(String.join("\n", lines)), events);
    assertTrue(events.get(0).length() > 1024);
  }

  @Test
  void anEmptyValueAfterALongerLineStaysEmpty() {
    // "data:" has no value; the bytes after it in the line buffer belong to an older line.
    feed("data: x\n", 1);
    feed("data:\n", 1);
    feed("data:\n\n", 1);
    assertEquals(List.of("x\n\n"), events);
  }

  @Test
  void aDataFieldWithoutColonIsAnEmptyValue() {
    feed("data\n\n", 5);
    feed("data\ndata: b\n\n", 6);
    assertEquals(List.of("", "\nb"), events);
  }

  @Test
  void onlyOneSpaceAfterTheColonIsRemoved() {
    feed("data:  two spaces\n\n", 1);
    feed("data:no space\n\n", 2);
    assertEquals(List.of(" two spaces", "no space"), events);
  }

  @Test
  void fieldNamesThatStartLikeDataAreIgnored() {
    feed("dat: a\ndatum: b\ndata2: c\nData: d\n\n", 1);
    feed("date: e\ndaTa: f\ndAta: g\n\n", 1);
    assertEquals(List.of(), events);
  }

  @Test
  void aLineThatNeverEndsIsRefusedAtTheLimit() {
    byte[] line = new byte[LIMIT + 1];
    Arrays.fill(line, (byte) 'x');
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> decoder.feed(line, 0, line.length, 1));
    assertEquals("SSE line longer than 16777216 bytes", e.getMessage());
  }

  @Test
  void aLineJustUnderTheLimitIsAccepted() {
    byte[] line = new byte[LIMIT];
    Arrays.fill(line, (byte) 'x');
    System.arraycopy("data:".getBytes(StandardCharsets.US_ASCII), 0, line, 0, 5);
    decoder.feed(line, 0, line.length, 1);
    decoder.feed(new byte[] {'\n', '\n'}, 0, 2, 2);
    assertEquals(1, events.size());
    assertEquals(LIMIT - 5, events.get(0).length());
  }

  /** A data line whose value has {@code valueLength} bytes, newline included. */
  private static byte[] dataLine(int valueLength) {
    byte[] line = new byte[6 + valueLength + 1];
    Arrays.fill(line, (byte) 'v');
    System.arraycopy("data: ".getBytes(StandardCharsets.US_ASCII), 0, line, 0, 6);
    line[line.length - 1] = '\n';
    return line;
  }

  @Test
  void anEventOverTheLimitIsRefused() {
    // Each line is fine on its own; together with the joining newline they pass 16 MiB.
    byte[] first = dataLine(100);
    decoder.feed(first, 0, first.length, 1);
    byte[] second = dataLine(LIMIT - 100);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> decoder.feed(second, 0, second.length, 2));
    assertEquals("SSE event larger than 16777216 bytes", e.getMessage());
  }

  @Test
  void anEventOfExactlyTheLimitIsAccepted() {
    byte[] first = dataLine(100);
    byte[] second = dataLine(LIMIT - 101); // 100 + 1 (joining newline) + rest = 16 MiB
    decoder.feed(first, 0, first.length, 1);
    decoder.feed(second, 0, second.length, 2);
    decoder.feed(new byte[] {'\n'}, 0, 1, 3);
    assertEquals(1, events.size());
    assertEquals(LIMIT, events.get(0).length());
  }

  @Test
  void endOfStreamDropsAHalfLineSoTheNextStreamStartsClean() {
    feed("data: complete\ndata: half", 1);
    decoder.endOfStream(2);
    feed("data: next\n\n", 3);
    assertEquals(List.of("complete", "next"), events);
    assertEquals(List.of(2L, 3L), times);
  }

  @Test
  void endOfStreamWithNothingPendingDispatchesNothing() {
    feed("data: a\n\n: comment\n", 1);
    decoder.endOfStream(2);
    assertEquals(List.of("a"), events);
  }

  private void feedBuf(String text, long nanos) {
    decoder.feed(Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8)), nanos);
  }

  @Test
  void aCrEndingOneReadAndTheLfStartingTheNextAreOneLineEnd() {
    // Were the LF taken for a second line end, the blank line would cut the event in two.
    feedBuf("data: a\r", 1);
    feedBuf("\ndata: b\r\n\r\n", 2);
    assertEquals(List.of("a\nb"), events);
  }

  @Test
  void anEmptyReadKeepsAPendingCrLfPair() {
    feed("data: a\r", 1);
    decoder.feed(new byte[] {'\n'}, 0, 0, 2); // nothing read, whatever lies in the array
    feed("\ndata: b\n\n", 3);
    assertEquals(List.of("a\nb"), events);
  }

  @Test
  void aReadLargerThanTheScratchBufferIsReadWhole() {
    String big = repeat('x', 5000);
    feedBuf("data: " + big + "\n\ndata: " + big + "y\n\n", 1);
    assertEquals(List.of(big, big + "y"), events);
  }
}
