package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.Unpooled;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzzes {@link SseDecoder} against a reference: a plain, whole-buffer reading of the SSE
 * framing rules (lines end with CRLF, LF or CR; {@code :} starts a comment; {@code data}
 * lines join with LF; a blank line dispatches; at the end a pending event is dispatched and a
 * half line dropped). The fuzzer picks the bytes and where the reads end, so the check is:
 * whatever the read boundaries, the same events come out, each stamped with the read that
 * held the end of its blank line, and the decoder's buffers stay within twice the input.
 *
 * <p>Runs as a regression test over {@code SseFramingFuzzTestInputs/} with the unit tests;
 * fuzzes with {@code JAZZER_FUZZ=1} (the surefire execution {@code fuzz-sse}, and the long
 * run of docs/reliability.md through {@link #fuzzerTestOneInput}).
 */
class SseFramingFuzzTest {

  /** One event as the decoder or the reference saw it: its data and the read that ended it. */
  private record Event(String data, long read) {}

  @FuzzTest(maxDuration = "5s")
  @DictionaryFile(resourcePath = "/dev/gatlingllm/internal/client/sse.dict")
  void framingDoesNotDependOnReadBoundaries(FuzzedDataProvider data) {
    check(data);
  }

  /** Entry point of Jazzer's command line (the long run). */
  public static void fuzzerTestOneInput(FuzzedDataProvider data) {
    check(data);
  }

  static void check(FuzzedDataProvider data) {
    int reads = data.consumeInt(1, 12);
    int[] cuts = new int[reads - 1];
    for (int i = 0; i < cuts.length; i++) {
      cuts[i] = data.consumeInt(0, 4096);
    }
    boolean viaByteBuf = data.consumeBoolean();
    byte[] stream = data.consumeRemainingAsBytes();
    // Read boundaries: sorted cut positions within the stream (empty reads allowed).
    int[] bounds = new int[reads + 1];
    for (int i = 0; i < cuts.length; i++) {
      bounds[i + 1] = Math.min(cuts[i], stream.length);
    }
    Arrays.sort(bounds, 1, reads);
    bounds[reads] = stream.length;

    List<Event> got = new ArrayList<>();
    SseDecoder decoder = new SseDecoder((bytes, length, nanos) ->
        got.add(new Event(new String(bytes, 0, length, StandardCharsets.ISO_8859_1), nanos)));
    for (int r = 0; r < reads; r++) {
      int from = bounds[r];
      int length = bounds[r + 1] - from;
      if (viaByteBuf) {
        decoder.feed(Unpooled.wrappedBuffer(stream, from, length), r);
      } else {
        decoder.feed(stream, from, length, r);
      }
    }
    decoder.endOfStream(reads);

    assertEquals(reference(stream, bounds), got);
    int bound = Math.max(1024, 2 * stream.length);
    for (String buffer : new String[] {"line", "data", "scratch"}) {
      assertTrue(capacity(decoder, buffer) <= bound,
          buffer + " buffer of " + capacity(decoder, buffer) + " bytes for " + stream.length
              + " bytes of input");
    }
  }

  /** The framing rules applied to the whole stream at once; reads only stamp the events. */
  private static List<Event> reference(byte[] s, int[] bounds) {
    List<Event> events = new ArrayList<>();
    StringBuilder pending = null;
    int i = 0;
    while (i < s.length) {
      int eol = i;
      while (eol < s.length && s[eol] != '\n' && s[eol] != '\r') {
        eol++;
      }
      if (eol == s.length) {
        break; // a half line at the end is dropped
      }
      String line = new String(s, i, eol - i, StandardCharsets.ISO_8859_1);
      int next = s[eol] == '\r' && eol + 1 < s.length && s[eol + 1] == '\n' ? eol + 2 : eol + 1;
      if (line.isEmpty()) {
        if (pending != null) {
          events.add(new Event(pending.toString(), readOf(eol, bounds)));
          pending = null;
        }
      } else if (!line.startsWith(":")) {
        int colon = line.indexOf(':');
        String name = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
          value = value.substring(1);
        }
        if (name.equals("data")) {
          pending = pending == null ? new StringBuilder(value) : pending.append('\n').append(value);
        }
      }
      i = next;
    }
    if (pending != null) {
      events.add(new Event(pending.toString(), bounds.length - 1));
    }
    return events;
  }

  /** The read holding byte {@code position}. */
  private static long readOf(int position, int[] bounds) {
    for (int r = 0; r + 1 < bounds.length; r++) {
      if (position < bounds[r + 1]) {
        return r;
      }
    }
    throw new AssertionError("position " + position + " past the stream");
  }

  private static final java.util.Map<String, Field> BUFFERS = new java.util.HashMap<>();

  private static int capacity(SseDecoder decoder, String field) {
    try {
      Field f = BUFFERS.get(field);
      if (f == null) {
        f = SseDecoder.class.getDeclaredField(field);
        f.setAccessible(true);
        BUFFERS.put(field, f);
      }
      byte[] buffer = (byte[]) f.get(decoder);
      return buffer == null ? 0 : buffer.length; // allocated when first needed
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("SseDecoder has no byte[] " + field, e);
    }
  }
}
