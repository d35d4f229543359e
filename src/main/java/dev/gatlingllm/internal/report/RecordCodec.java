package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.RequestRecord;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The binary form of one {@link RequestRecord} in the record log: variable-length integers
 * (LEB128, zigzag for values that may be negative), times as differences from the start, and
 * chunk offsets as differences from the previous chunk, so a token costs 1 to 2 bytes. Every
 * field of the record is kept. Fields added later (the conversation turn, the client queue
 * time, the request class, what the answer said beyond its text: reasoning tokens, tool calls,
 * the schema check; the cached prompt tokens; the audio clip's length; the connection's
 * phases, its reuse and a cancel; the base URL a request went to, for a run against several
 * replicas) are flagged and written
 * last, in the order of their flags, so records written before them still read, with the
 * field's default, and the log's format version stays 1. The flags are a variable-length
 * integer: one byte, as they always were, while no flag above 64 is set; a new field takes the
 * next bit.
 */
public final class RecordCodec {

  private static final int HAS_ERROR = 1;
  private static final int HAS_TEXT = 2;
  private static final int HAS_REQUEST_ID = 4;
  private static final int SUCCESS = 8;
  private static final int HAS_TURN = 16;
  private static final int HAS_CLIENT_QUEUE = 32;
  private static final int HAS_CLASS = 64;
  private static final int HAS_ANSWER_KINDS = 1 << 7;
  private static final int HAS_CACHED_TOKENS = 1 << 8;
  private static final int HAS_AUDIO = 1 << 9;
  /** The connection phases (DNS, connect, TLS, written, head) follow. */
  private static final int HAS_PHASES = 1 << 10;
  private static final int CONNECTION_REUSED = 1 << 11;
  private static final int CANCELLED = 1 << 12;
  /** The request went to another base URL than the first: its index follows. */
  private static final int HAS_TARGET = 1 << 13;

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
        | (r.requestClass() != null ? HAS_CLASS : 0)
        | (answerKinds(r) ? HAS_ANSWER_KINDS : 0)
        | (r.cachedTokens() >= 0 ? HAS_CACHED_TOKENS : 0)
        | (r.inputAudioSeconds() != 0 ? HAS_AUDIO : 0)
        | (phases(r) ? HAS_PHASES : 0) | (r.connectionReused() ? CONNECTION_REUSED : 0)
        | (r.cancelled() ? CANCELLED : 0) | (r.target() != 0 ? HAS_TARGET : 0);
    writeUnsigned(out, flags);
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
    if (answerKinds(r)) {
      writeSigned(out, r.reasoningTokens());
      writeSigned(out, r.toolCallNanos());
      writeUnsigned(out, r.toolCalls());
      writeUnsigned(out, r.toolCallsParsed());
      writeSigned(out, r.schemaCheck());
    }
    if (r.cachedTokens() >= 0) {
      writeUnsigned(out, r.cachedTokens());
    }
    if (r.inputAudioSeconds() != 0) {
      // whole microseconds: a clip's length needs no more
      writeSigned(out, Math.round(r.inputAudioSeconds() * 1e6));
    }
    if (phases(r)) {
      writeSigned(out, r.dnsNanos());
      writeSigned(out, r.connectNanos());
      writeSigned(out, r.tlsNanos());
      writeSigned(out, r.writtenNanos());
      writeSigned(out, r.headNanos());
    }
    if (r.target() != 0) {
      writeUnsigned(out, r.target());
    }
  }

  /** Whether any connection phase was measured (each is -1 when not). */
  private static boolean phases(RequestRecord r) {
    return r.dnsNanos() != -1 || r.connectNanos() != -1 || r.tlsNanos() != -1
        || r.writtenNanos() != -1 || r.headNanos() != -1;
  }

  /** Whether the record holds any answer figure beyond the defaults of an older record. */
  private static boolean answerKinds(RequestRecord r) {
    return r.reasoningTokens() != -1 || r.toolCallNanos() != -1 || r.toolCalls() != 0
        || r.toolCallsParsed() != 0 || r.schemaCheck() != RequestRecord.SCHEMA_NOT_ASKED;
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
    int flags = in.uint();
    String error = (flags & HAS_ERROR) != 0 ? in.string() : null;
    String text = (flags & HAS_TEXT) != 0 ? in.string() : null;
    String requestId = (flags & HAS_REQUEST_ID) != 0 ? in.string() : null;
    int turn = (flags & HAS_TURN) != 0 ? in.uint() : 0;
    long clientQueue = (flags & HAS_CLIENT_QUEUE) != 0 ? in.signed() : 0;
    // a few class names repeat over every record: one String each, not one per record
    String requestClass = (flags & HAS_CLASS) != 0 ? in.string().intern() : null;
    boolean kinds = (flags & HAS_ANSWER_KINDS) != 0;
    int reasoningTokens = kinds ? in.intSigned() : -1;
    long toolCallNanos = kinds ? in.signed() : -1;
    int toolCalls = kinds ? in.uint() : 0;
    int toolCallsParsed = kinds ? in.uint() : 0;
    int schemaCheck = kinds ? in.intSigned() : RequestRecord.SCHEMA_NOT_ASKED;
    int cachedTokens = (flags & HAS_CACHED_TOKENS) != 0 ? in.uint() : -1;
    double audioSeconds = (flags & HAS_AUDIO) != 0 ? in.signed() / 1e6 : 0;
    boolean phases = (flags & HAS_PHASES) != 0;
    long dns = phases ? in.signed() : -1;
    long connect = phases ? in.signed() : -1;
    long tls = phases ? in.signed() : -1;
    long written = phases ? in.signed() : -1;
    long head = phases ? in.signed() : -1;
    int target = (flags & HAS_TARGET) != 0 ? in.uint() : 0;
    if (in.pos != in.end) {
      throw new IllegalArgumentException((in.end - in.pos) + " bytes left after the record");
    }
    return RequestRecord.builder(name).scheduledNanos(scheduled).startNanos(start).ttftNanos(ttft)
        .latencyNanos(latency).endNanos(end).chunkMicros(chunks).promptTokens(promptTokens)
        .usagePromptTokens(usagePromptTokens).outputTokens(outputTokens).httpStatus(httpStatus)
        .success((flags & SUCCESS) != 0).error(error).generatedText(text).requestId(requestId)
        .ttfcNanos(ttfc).reasoningChunks(reasoningChunks).turn(turn).clientQueueNanos(clientQueue)
        .requestClass(requestClass).reasoningTokens(reasoningTokens).toolCallNanos(toolCallNanos)
        .toolCalls(toolCalls).toolCallsParsed(toolCallsParsed).schemaCheck(schemaCheck)
        .cachedTokens(cachedTokens).inputAudioSeconds(audioSeconds)
        .connectionReused((flags & CONNECTION_REUSED) != 0).dnsNanos(dns).connectNanos(connect)
        .tlsNanos(tls).writtenNanos(written).headNanos(head)
        .cancelled((flags & CANCELLED) != 0).target(target).build();
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
