package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.RequestRecord;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The binary form of one {@link RequestRecord} in the record log: variable-length integers
 * (LEB128, zigzag for values that may be negative), times as differences from the start, and
 * chunk offsets as differences from the previous chunk, so a token costs 1 to 2 bytes. Every
 * field of the record is kept. Fields added later (the conversation turn, the client queue
 * time, the request class, then behind a second set of flags the connection phases, the reuse
 * of the connection and a cancel) are flagged and written last, so records written before them
 * still read, with the field's default (0, or -1 for a phase: not measured), and the log's
 * format version stays 1.
 */
public final class RecordCodec {

  private static final int HAS_ERROR = 1;
  private static final int HAS_TEXT = 2;
  private static final int HAS_REQUEST_ID = 4;
  private static final int SUCCESS = 8;
  private static final int HAS_TURN = 16;
  private static final int HAS_CLIENT_QUEUE = 32;
  private static final int HAS_CLASS = 64;
  /**
   * The flags byte is full: a second set of flags (a varint, so it can grow again) follows the
   * request class, then the fields it announces.
   */
  private static final int HAS_MORE_FLAGS = 128;
  /** More flags: the connection phases (DNS, connect, TLS, written, head) follow. */
  private static final int HAS_PHASES = 1;
  private static final int CONNECTION_REUSED = 2;
  private static final int CANCELLED = 4;

  private RecordCodec() {}

  /** Appends the record's bytes to {@code out}. */
  public static void encode(RequestRecord r, ByteArrayOutputStream out) {
    writeString(out, r.name());
    writeSigned(out, r.startNanos());
    writeSigned(out, r.startNanos() - r.scheduledNanos());
    writeSigned(out, r.ttftNanos());
    writeSigned(out, r.latencyNanos());
    writeSigned(out, r.endNanos() - r.startNanos());
    writeSigned(out, r.ttfcNanos());
    int[] chunks = r.chunkMicros();
    writeUnsigned(out, chunks.length);
    int previous = 0;
    for (int c : chunks) {
      writeSigned(out, (long) c - previous);
      previous = c;
    }
    writeSigned(out, r.promptTokens());
    writeSigned(out, r.usagePromptTokens());
    writeSigned(out, r.outputTokens());
    writeUnsigned(out, r.httpStatus());
    writeUnsigned(out, r.reasoningChunks());
    int flags = (r.success() ? SUCCESS : 0) | (r.error() != null ? HAS_ERROR : 0)
        | (r.generatedText() != null ? HAS_TEXT : 0) | (r.requestId() != null ? HAS_REQUEST_ID : 0)
        | (r.turn() != 0 ? HAS_TURN : 0) | (r.clientQueueNanos() != 0 ? HAS_CLIENT_QUEUE : 0)
        | (r.requestClass() != null ? HAS_CLASS : 0);
    boolean phases = r.dnsNanos() != -1 || r.connectNanos() != -1 || r.tlsNanos() != -1
        || r.writtenNanos() != -1 || r.headNanos() != -1;
    int more = (phases ? HAS_PHASES : 0) | (r.connectionReused() ? CONNECTION_REUSED : 0)
        | (r.cancelled() ? CANCELLED : 0);
    out.write(flags | (more != 0 ? HAS_MORE_FLAGS : 0));
    if (r.error() != null) {
      writeString(out, r.error());
    }
    if (r.generatedText() != null) {
      writeString(out, r.generatedText());
    }
    if (r.requestId() != null) {
      writeString(out, r.requestId());
    }
    if (r.turn() != 0) {
      writeUnsigned(out, r.turn());
    }
    if (r.clientQueueNanos() != 0) {
      writeSigned(out, r.clientQueueNanos());
    }
    if (r.requestClass() != null) {
      writeString(out, r.requestClass());
    }
    if (more != 0) {
      writeUnsigned(out, more);
    }
    if (phases) {
      writeSigned(out, r.dnsNanos());
      writeSigned(out, r.connectNanos());
      writeSigned(out, r.tlsNanos());
      writeSigned(out, r.writtenNanos());
      writeSigned(out, r.headNanos());
    }
  }

  /**
   * Reads one record from exactly {@code bytes[offset, offset + length)}.
   *
   * @throws IllegalArgumentException when the bytes are not one whole record
   */
  public static RequestRecord decode(byte[] bytes, int offset, int length) {
    Reader in = new Reader(bytes, offset, offset + length);
    String name = in.string();
    long start = in.signed();
    long scheduled = start - in.signed();
    long ttft = in.signed();
    long latency = in.signed();
    long end = start + in.signed();
    long ttfc = in.signed();
    int[] chunks = new int[in.count()];
    long previous = 0;
    for (int i = 0; i < chunks.length; i++) {
      previous += in.signed();
      chunks[i] = Math.toIntExact(previous);
    }
    int promptTokens = in.intSigned();
    int usagePromptTokens = in.intSigned();
    int outputTokens = in.intSigned();
    int httpStatus = in.uint();
    int reasoningChunks = in.uint();
    int flags = in.next();
    String error = (flags & HAS_ERROR) != 0 ? in.string() : null;
    String text = (flags & HAS_TEXT) != 0 ? in.string() : null;
    String requestId = (flags & HAS_REQUEST_ID) != 0 ? in.string() : null;
    int turn = (flags & HAS_TURN) != 0 ? in.uint() : 0;
    long clientQueue = (flags & HAS_CLIENT_QUEUE) != 0 ? in.signed() : 0;
    // a few class names repeat over every record: one String each, not one per record
    String requestClass = (flags & HAS_CLASS) != 0 ? in.string().intern() : null;
    long more = (flags & HAS_MORE_FLAGS) != 0 ? in.unsigned() : 0;
    boolean phases = (more & HAS_PHASES) != 0;
    long dns = phases ? in.signed() : -1;
    long connect = phases ? in.signed() : -1;
    long tls = phases ? in.signed() : -1;
    long written = phases ? in.signed() : -1;
    long head = phases ? in.signed() : -1;
    if (in.pos != in.end) {
      throw new IllegalArgumentException((in.end - in.pos) + " bytes left after the record");
    }
    return RequestRecord.builder(name).scheduledNanos(scheduled).startNanos(start).ttftNanos(ttft)
        .latencyNanos(latency).endNanos(end).chunkMicros(chunks).promptTokens(promptTokens)
        .usagePromptTokens(usagePromptTokens).outputTokens(outputTokens).httpStatus(httpStatus)
        .success((flags & SUCCESS) != 0).error(error).generatedText(text).requestId(requestId)
        .ttfcNanos(ttfc).reasoningChunks(reasoningChunks).turn(turn).clientQueueNanos(clientQueue)
        .requestClass(requestClass).connectionReused((more & CONNECTION_REUSED) != 0)
        .dnsNanos(dns).connectNanos(connect).tlsNanos(tls).writtenNanos(written).headNanos(head)
        .cancelled((more & CANCELLED) != 0).build();
  }

  private static void writeString(ByteArrayOutputStream out, String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    writeUnsigned(out, utf8.length);
    out.write(utf8, 0, utf8.length);
  }

  private static void writeSigned(ByteArrayOutputStream out, long v) {
    writeUnsigned(out, (v << 1) ^ (v >> 63));
  }

  private static void writeUnsigned(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static final class Reader {
    private final byte[] bytes;
    private final int end;
    private int pos;

    Reader(byte[] bytes, int pos, int end) {
      this.bytes = bytes;
      this.pos = pos;
      this.end = end;
    }

    int next() {
      if (pos >= end) {
        throw new IllegalArgumentException("record ends early");
      }
      return bytes[pos++] & 0xFF;
    }

    long unsigned() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = next();
        v |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw new IllegalArgumentException("integer longer than 64 bits");
    }

    long signed() {
      long v = unsigned();
      return (v >>> 1) ^ -(v & 1);
    }

    int intSigned() {
      return Math.toIntExact(signed());
    }

    int uint() {
      return Math.toIntExact(unsigned());
    }

    /** A count of items of at least one byte each: never more than the bytes left. */
    int count() {
      long v = unsigned();
      if (v > end - pos) {
        throw new IllegalArgumentException("count " + v + " runs past the record");
      }
      return (int) v;
    }

    String string() {
      int n = count();
      String s = new String(bytes, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }
  }
}
