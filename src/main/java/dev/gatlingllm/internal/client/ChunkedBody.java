package dev.gatlingllm.internal.client;

/**
 * The chunked transfer coding of one HTTP/1.1 response body, decoded over a byte array with
 * the chunks' data handed on in place, for an event stream.
 *
 * <p>Why not Netty's codec: it turns every chunk into a message (a retained slice of the read
 * buffer, an object, a trip through the pipeline) that the SSE framing then copies out again.
 * On a busy stream load, where nearly every chunk is one token, that was about a tenth of
 * the event loops' CPU (perf, docs/client-overhead.md). Here the framing is a few comparisons
 * per chunk, and the data goes straight to the SSE decoder.
 *
 * <p>It reads what Netty's decoder reads, to the byte, and fails where it fails (held to it by
 * a differential test): chunk-size lines and the CRLF after each chunk's data must be CRLF (a
 * bare LF is an error, as in Netty with its default strict line parsing), sizes are
 * hexadecimal and fit an {@code int}, chunk extensions follow RFC 9112's grammar, a chunk-size
 * line over 4 KiB is an error. Where the two differ it is on purpose: a bare CR in a
 * chunk-size line, or a control byte other than white space after the size, is an error here
 * (RFC 9112 section 2.2; Netty reads past it); bytes 0x80-0xFF in a quoted extension value
 * are accepted (RFC 9112's obs-text; Netty's validator fails on them); trailer fields are
 * skipped unread, with a limit of 8 KiB of their own (Netty's limit also counts the head).
 * Extensions and trailers carry nothing an LLM stream needs.
 *
 * <p>One instance per connection, reset for each body; not thread-safe.
 */
final class ChunkedBody {

  /** Receives each piece of chunk data; the array is only valid during the call. */
  @FunctionalInterface
  interface Sink {
    void data(byte[] bytes, int offset, int length, long readNanos);
  }

  /** What {@link #feed} returns while the body has not ended. */
  static final int MORE = -1;

  /** Netty's default limit for an HTTP line, which a chunk-size line is. */
  static final int MAX_SIZE_LINE = 4096;
  /** Netty's default limit for a header section, here for the trailer section's content. */
  static final int MAX_TRAILER = 8192;

  /** Thrown for bytes that are not chunked coding; preallocated, no stack trace. */
  static final class Malformed extends Exception {
    private Malformed() {
      super("invalid chunked encoding", null, false, false);
    }
  }

  private static final Malformed MALFORMED = new Malformed();

  private static final int SIZE_START = 0; // before the first byte of a chunk-size line
  private static final int SIZE_DIGITS = 1; // in the hex digits
  private static final int SIZE_REST = 2; // after the digits: extensions, up to CR
  private static final int SIZE_LF = 3; // the LF that ends the chunk-size line
  private static final int DATA = 4;
  private static final int DATA_CR = 5; // the CRLF after a chunk's data
  private static final int DATA_LF = 6;
  private static final int TRAILER_START = 7; // at the start of a trailer line
  private static final int TRAILER_LINE = 8; // in a trailer line, up to CR
  private static final int TRAILER_LF = 9; // the LF that ends a trailer line
  private static final int END_LF = 10; // the LF of the empty line that ends the body
  private static final int DONE = 11;

  // After the size, until the line's CR: chunk extensions, checked as Netty checks them.
  private static final int EXT_NONE = 0; // white space or digits after the size, no ';' yet
  private static final int EXT_LOOSE = 1; // something else after the size, no ';' yet
  private static final int EXT_NAME = 2;
  private static final int EXT_VALUE_START = 3;
  private static final int EXT_TOKEN = 4;
  private static final int EXT_QUOTED = 5;
  private static final int EXT_ESCAPE = 6;
  private static final int EXT_QUOTED_END = 7;

  private int state = SIZE_START;
  private int extension;
  private long size;
  private int lineBytes;
  private int trailerBytes;

  /** Gets ready for the next body. */
  void reset() {
    state = SIZE_START;
    size = 0;
    lineBytes = 0;
    trailerBytes = 0;
  }

  /**
   * Decodes {@code bytes[offset, offset + length)}, the next bytes of the body, handing every
   * piece of chunk data to {@code sink}.
   *
   * @return {@link #MORE} while the body goes on, else the index just past its last byte
   *     (bytes from there on belong to no response)
   * @throws Malformed when the bytes are not chunked coding; the decoder is then unusable
   */
  int feed(byte[] bytes, int offset, int length, long readNanos, Sink sink) throws Malformed {
    int i = offset;
    int end = offset + length;
    while (i < end) {
      byte b = bytes[i];
      switch (state) {
        case SIZE_START -> {
          lineLength(1);
          if (b == ' ' || b == '\t') {
            i++; // leading white space, as Netty allows
          } else {
            hexDigit(b); // at least one digit
            state = SIZE_DIGITS;
            i++;
          }
        }
        case SIZE_DIGITS -> {
          int digit = hex(b);
          if (b != '\r') {
            lineLength(1); // a line's limit counts its content, not its CRLF, as Netty's
          }
          if (digit >= 0) {
            size = size * 16 + digit;
            if (size > Integer.MAX_VALUE) {
              throw MALFORMED;
            }
          } else if (b == '\r') {
            state = SIZE_LF;
          } else if (b == ';' || b == ' ' || b == '\t') {
            state = SIZE_REST;
            extension = b == ';' ? EXT_NAME : EXT_NONE;
          } else {
            throw MALFORMED;
          }
          i++;
        }
        case SIZE_REST -> {
          if (b == '\r') {
            if (extension == EXT_VALUE_START || extension == EXT_QUOTED
                || extension == EXT_ESCAPE) {
              throw MALFORMED; // an extension cut short
            }
            state = SIZE_LF;
          } else if (b == '\n') {
            throw MALFORMED; // a bare LF ends no line here
          } else {
            lineLength(1);
            extension(b);
          }
          i++;
        }
        case SIZE_LF -> {
          expect(b, '\n');
          lineBytes = 0;
          state = size == 0 ? TRAILER_START : DATA;
          i++;
        }
        case DATA -> {
          int n = (int) Math.min(size, end - i);
          sink.data(bytes, i, n, readNanos);
          size -= n;
          i += n;
          if (size == 0) {
            state = DATA_CR;
          }
        }
        case DATA_CR -> {
          expect(b, '\r');
          state = DATA_LF;
          i++;
        }
        case DATA_LF -> {
          expect(b, '\n');
          state = SIZE_START;
          i++;
        }
        case TRAILER_START -> {
          if (b == '\n') {
            throw MALFORMED;
          }
          if (b == '\r') {
            state = END_LF;
          } else {
            trailerLength(1);
            state = TRAILER_LINE;
          }
          i++;
        }
        case TRAILER_LINE -> {
          int cr = indexOf(bytes, i, end, (byte) '\r');
          int stop = cr < 0 ? end : cr;
          if (indexOf(bytes, i, stop, (byte) '\n') >= 0) {
            throw MALFORMED;
          }
          trailerLength(stop - i);
          if (cr >= 0) {
            state = TRAILER_LF;
            i = cr + 1;
          } else {
            i = end;
          }
        }
        case TRAILER_LF -> {
          expect(b, '\n');
          state = TRAILER_START;
          i++;
        }
        case END_LF -> {
          expect(b, '\n');
          state = DONE;
          return i + 1;
        }
        default -> throw MALFORMED; // DONE: reset() was not called
      }
    }
    return MORE;
  }

  /**
   * One byte of a chunk-size line after the size. Netty ignores what follows the size unless
   * the line holds a {@code ;}; then the whole line must be a size and RFC 9112 extensions
   * ({@code ;name}, {@code ;name=token}, {@code ;name="quoted"}, white space around them).
   * The same rules here, one byte at a time.
   */
  private void extension(byte b) throws Malformed {
    int c = b & 0xFF;
    extension = switch (extension) {
      case EXT_NONE, EXT_LOOSE -> {
        if (c == ';') {
          if (extension == EXT_LOOSE) {
            throw MALFORMED;
          }
          yield EXT_NAME;
        }
        yield hex(b) >= 0 || c == ' ' || c == '\t' ? extension : EXT_LOOSE;
      }
      case EXT_NAME -> {
        if (c == '=') {
          yield EXT_VALUE_START;
        }
        if (c == ' ' || c == '\t' || visible(c)) {
          yield EXT_NAME;
        }
        throw MALFORMED;
      }
      case EXT_VALUE_START -> {
        if (c == ' ' || c == '\t') {
          yield EXT_VALUE_START;
        }
        if (c == '"') {
          yield EXT_QUOTED;
        }
        if (visible(c)) {
          yield EXT_TOKEN;
        }
        throw MALFORMED;
      }
      case EXT_TOKEN -> {
        if (c == ';') {
          yield EXT_NAME;
        }
        if (visible(c)) {
          yield EXT_TOKEN;
        }
        throw MALFORMED;
      }
      case EXT_QUOTED -> {
        if (c == '\\') {
          yield EXT_ESCAPE;
        }
        if (c == '"') {
          yield EXT_QUOTED_END;
        }
        if (c == '\t' || c == ' ' || c == '!' || c >= 0x23 && c != 0x7F) {
          yield EXT_QUOTED;
        }
        throw MALFORMED;
      }
      case EXT_ESCAPE -> {
        if (c == '\t' || c == ' ' || c >= 0x21 && c != 0x7F) {
          yield EXT_QUOTED;
        }
        throw MALFORMED;
      }
      default -> { // EXT_QUOTED_END
        if (c == ' ' || c == '\t') {
          yield EXT_QUOTED_END;
        }
        if (c == ';') {
          yield EXT_NAME;
        }
        throw MALFORMED;
      }
    };
  }

  /**
   * A visible ASCII byte but for the separators {@code (),/:<=>?@[\]{}}: what Netty lets
   * into an extension's name and token value ({@code "} and {@code ;} included; where they
   * mean something the caller has looked at them first).
   */
  private static boolean visible(int c) {
    return c >= 0x21 && c <= 0x7E && "(),/:<=>?@[\\]{}".indexOf(c) < 0;
  }

  private void hexDigit(byte b) throws Malformed {
    int digit = hex(b);
    if (digit < 0) {
      throw MALFORMED; // an empty or non-hexadecimal chunk size
    }
    size = digit;
  }

  private void lineLength(int more) throws Malformed {
    lineBytes += more;
    if (lineBytes > MAX_SIZE_LINE) {
      throw MALFORMED;
    }
  }

  private void trailerLength(int more) throws Malformed {
    trailerBytes += more;
    if (trailerBytes > MAX_TRAILER) {
      throw MALFORMED;
    }
  }

  private static void expect(byte b, char wanted) throws Malformed {
    if (b != wanted) {
      throw MALFORMED;
    }
  }

  private static int hex(byte b) {
    if (b >= '0' && b <= '9') {
      return b - '0';
    }
    if (b >= 'a' && b <= 'f') {
      return b - 'a' + 10;
    }
    if (b >= 'A' && b <= 'F') {
      return b - 'A' + 10;
    }
    return -1;
  }

  private static int indexOf(byte[] bytes, int from, int to, byte wanted) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == wanted) {
        return i;
      }
    }
    return -1;
  }
}
