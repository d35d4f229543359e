package dev.gatlingllm.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses one response body that came with a {@code Content-Encoding} (gzip or deflate),
 * read by read, so that a compressed event stream is timed and framed like a plain one.
 *
 * <p>The client asks for no encoding, so only a misbehaving server or proxy sends one. It is
 * set up per response, when the head says so, instead of a decompressor in every pipeline:
 * that would add a handler hop to every chunk of every plain stream. Each read is inflated as
 * it arrives, and everything its bytes decode to is handed over before the next read: the
 * chunks keep their read time, and what a cut body yields does not depend on where the reads
 * ended. Output goes out in pieces of at most {@value #MAX_PIECE} bytes, so a compression bomb
 * costs time, not memory: the SSE framing's own limits apply to what comes out.
 *
 * <p>This is {@link Inflater} driven directly rather than Netty's {@code JdkZlibDecoder}: that
 * one stops inflating when a read's input is used up, even when the inflater still holds
 * output (left for the next read, and lost if none comes), and with a bounded buffer it fails
 * a read that inflates to more than the bound instead of handing it over in pieces (both found
 * while fixing a finding of ResponsePathFuzzTest; InflatingTest holds them).
 *
 * <p>Not thread-safe: one per response, on its event loop.
 */
final class Inflating implements AutoCloseable {

  static final int MAX_PIECE = 64 * 1024;
  /** A gzip header is 10 bytes plus optional fields; a longer one is not a real one. */
  private static final int MAX_GZIP_HEADER = 64 * 1024;
  private static final int GZIP_TRAILER = 8;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;
  private static final int FHCRC = 2;

  private enum Stage { HEADER, BODY, TRAILER, DONE }

  private final boolean gzip;
  private final CRC32 crc;
  private Inflater inflater;
  private Stage stage = Stage.HEADER;
  /** Read bytes not used yet: part of a header or trailer, or input the inflater left. */
  private byte[] held = new byte[0];
  private byte[] out;

  private Inflating(boolean gzip) {
    this.gzip = gzip;
    this.crc = gzip ? new CRC32() : null;
  }

  /** The decoder for a {@code Content-Encoding} value, or null when it is not one we read. */
  static Inflating forEncoding(String encoding) {
    return switch (encoding.toLowerCase(Locale.ROOT)) {
      case "gzip", "x-gzip" -> new Inflating(true);
      case "deflate" -> new Inflating(false);
      default -> null;
    };
  }

  /**
   * Inflates {@code compressed} (not released: the caller owns it) and hands each piece of
   * output to {@code sink}, which must not keep it.
   *
   * @throws IllegalStateException when the bytes are not a body of this encoding, with a
   *     message that says what is wrong
   */
  void inflate(ByteBuf compressed, Consumer<ByteBuf> sink) {
    if (stage == Stage.DONE || !compressed.isReadable()) {
      return; // bytes after the end of the (first) member are ignored, as Netty's decoder does
    }
    byte[] bytes = new byte[held.length + compressed.readableBytes()];
    System.arraycopy(held, 0, bytes, 0, held.length);
    compressed.getBytes(compressed.readerIndex(), bytes, held.length, bytes.length - held.length);
    held = new byte[0];
    int at = 0;
    if (stage == Stage.HEADER) {
      at = start(bytes);
      if (at < 0) {
        held = bytes; // the header is not complete yet
        return;
      }
    }
    if (stage == Stage.BODY) {
      at = body(bytes, at, sink);
    }
    if (stage == Stage.TRAILER) {
      trailer(bytes, at);
    }
  }

  /** Where the compressed data begins in {@code bytes}, or -1 when more bytes are needed. */
  private int start(byte[] bytes) {
    if (!gzip) {
      if (bytes.length < 2) {
        return -1;
      }
      // RFC 1950 says "deflate" is zlib-wrapped; some servers send raw deflate: tell them apart
      // by the zlib header's check bits, as browsers do.
      int cmfFlg = (bytes[0] & 0xff) << 8 | bytes[1] & 0xff;
      boolean zlib = (bytes[0] & 0x0f) == 8 && cmfFlg % 31 == 0;
      inflater = new Inflater(!zlib);
      stage = Stage.BODY;
      return 0;
    }
    int length = gzipHeaderLength(bytes);
    if (length < 0 && bytes.length > MAX_GZIP_HEADER) {
      throw new IllegalStateException("gzip header longer than " + MAX_GZIP_HEADER + " bytes");
    }
    if (length >= 0) {
      inflater = new Inflater(true);
      stage = Stage.BODY;
    }
    return length;
  }

  /** The length of the gzip header (RFC 1952) at the start of {@code b}, -1 if cut short. */
  private static int gzipHeaderLength(byte[] b) {
    if (b.length >= 1 && (b[0] & 0xff) != 0x1f || b.length >= 2 && (b[1] & 0xff) != 0x8b) {
      throw new IllegalStateException("not in gzip format");
    }
    if (b.length >= 3 && b[2] != 8) {
      throw new IllegalStateException("unsupported gzip compression method " + (b[2] & 0xff));
    }
    if (b.length < 10) {
      return -1;
    }
    int flags = b[3] & 0xff;
    if ((flags & 0xe0) != 0) {
      throw new IllegalStateException("reserved gzip header flags set");
    }
    int at = 10;
    if ((flags & FEXTRA) != 0) {
      if (b.length < at + 2) {
        return -1;
      }
      at += 2 + ((b[at] & 0xff) | (b[at + 1] & 0xff) << 8);
    }
    for (int field : new int[] {FNAME, FCOMMENT}) {
      if ((flags & field) != 0) {
        while (at < b.length && b[at] != 0) {
          at++;
        }
        if (at >= b.length) {
          return -1;
        }
        at++; // the terminating zero
      }
    }
    if ((flags & FHCRC) != 0) {
      if (b.length < at + 2) {
        return -1;
      }
      CRC32 headerCrc = new CRC32();
      headerCrc.update(b, 0, at);
      if ((headerCrc.getValue() & 0xffff) != ((b[at] & 0xff) | (b[at + 1] & 0xff) << 8)) {
        throw new IllegalStateException("gzip header CRC does not match the header");
      }
      at += 2;
    }
    return at <= b.length ? at : -1;
  }

  /** Inflates {@code bytes} from {@code at}; returns where the bytes after the body begin. */
  private int body(byte[] bytes, int at, Consumer<ByteBuf> sink) {
    if (out == null) {
      // Sized to the first read rather than to the bound: a small body (an error, a short
      // stream) then costs a small buffer, not 64 KiB; it grows when a round fills it.
      out = new byte[Math.min(MAX_PIECE, Math.max(1024, 4 * (bytes.length - at)))];
    }
    Inflater current = inflater;
    current.setInput(ByteBuffer.wrap(bytes, at, bytes.length - at));
    try {
      // Until the inflater has nothing more to give for this input: it can hold output after
      // taking the last input byte, and that output belongs to this read. Each round gives
      // output or takes input, so the loop ends.
      while (true) {
        long taken = current.getBytesRead();
        int n = current.inflate(out);
        if (n > 0) {
          if (crc != null) {
            crc.update(out, 0, n);
          }
          sink.accept(Unpooled.wrappedBuffer(out, 0, n));
          if (inflater == null) {
            return bytes.length; // the sink's owner is done with the body and closed us
          }
          if (n == out.length && out.length < MAX_PIECE) {
            out = new byte[Math.min(MAX_PIECE, out.length * 2)];
          }
        }
        if (current.finished()) {
          stage = gzip ? Stage.TRAILER : Stage.DONE;
          break;
        }
        if (current.needsDictionary()) {
          throw new IllegalStateException("deflate stream needs a preset dictionary");
        }
        if (n == 0 && current.getBytesRead() == taken) {
          break; // everything this input decodes to is out; the rest needs more input
        }
      }
    } catch (DataFormatException e) {
      throw new IllegalStateException("invalid " + (gzip ? "gzip" : "deflate") + " data: "
          + e.getMessage());
    }
    int rest = bytes.length - current.getRemaining();
    if (stage == Stage.BODY && rest < bytes.length) {
      held = Arrays.copyOfRange(bytes, rest, bytes.length); // input the inflater did not take yet
    }
    return rest;
  }

  private void trailer(byte[] bytes, int at) {
    int available = bytes.length - at;
    if (available < GZIP_TRAILER) {
      held = Arrays.copyOfRange(bytes, at, bytes.length);
      return;
    }
    long expectedCrc = littleEndian(bytes, at);
    long expectedSize = littleEndian(bytes, at + 4);
    long size = inflater.getBytesWritten() & 0xffffffffL; // ISIZE is the length modulo 2^32
    if (expectedCrc != crc.getValue() || expectedSize != size) {
      throw new IllegalStateException("gzip trailer does not match the data (CRC or length)");
    }
    stage = Stage.DONE;
  }

  private static long littleEndian(byte[] b, int at) {
    return (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16
        | (b[at + 3] & 0xffL) << 24;
  }

  /**
   * Frees the inflater's native memory. Never throws: a body that was cut or broken has been
   * reported by then (or counted as complete, like any close-delimited body), and an exception
   * here, thrown from inside the exchange's completion, once left the request finished but
   * never reported: a virtual user that never came back and a run that never ended (found by
   * ResponsePathFuzzTest).
   */
  @Override
  public void close() {
    stage = Stage.DONE;
    if (inflater != null) {
      inflater.end();
      inflater = null;
    }
  }
}
