package dev.gatlingllm.internal.client;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Incremental Server-Sent Events framing over raw bytes.
 *
 * <p>Bytes may arrive split anywhere (inside a line, inside a UTF-8 sequence, between
 * {@code \r} and {@code \n}); several events may arrive in one read. Lines end with
 * {@code \n}, {@code \r\n} or a lone {@code \r}; comment lines ({@code :}) and fields other
 * than {@code data} are ignored; a blank line dispatches the accumulated {@code data} lines
 * (joined by {@code \n}) together with the read timestamp of the bytes that completed the
 * event. Work is byte-level and allocation-free per event: the listener gets a view of an
 * internal buffer that it must not keep.
 *
 * <p>Not thread-safe: one decoder per response, driven from the channel's event loop.
 */
final class SseDecoder {

  /** Receives each complete event's data. The array is only valid during the call. */
  @FunctionalInterface
  public interface Listener {
    void onEvent(byte[] data, int length, long readNanos);
  }

  private static final byte CR = '\r';
  private static final byte LF = '\n';
  private static final int MAX_EVENT_BYTES = 16 * 1024 * 1024;

  private final Listener listener;
  private byte[] line = new byte[512];
  private int lineLength;
  private byte[] data = new byte[512];
  private int dataLength;
  private boolean hasData;
  private boolean skipNextLf;
  /** The bytes of the current read, copied out of Netty's buffer to be scanned as an array. */
  private byte[] scratch;

  public SseDecoder(Listener listener) {
    this.listener = listener;
  }

  /**
   * Feeds the bytes of one read; {@code readNanos} is when they were read off the socket.
   *
   * <p>The bytes are copied into an array in one bulk copy and scanned there. Walking the
   * buffer with a {@code ByteProcessor} instead cost two virtual calls per byte, which the
   * client JVM's C1 compiler does not inline: that was about an eighth of the client's CPU on
   * a busy stream load (measured with perf, docs/client-overhead.md).
   */
  public void feed(ByteBuf buf, long readNanos) {
    int n = buf.readableBytes();
    if (scratch == null || scratch.length < n) {
      scratch = new byte[Math.max(n, scratch == null ? 1024 : scratch.length * 2)];
    }
    buf.readBytes(scratch, 0, n);
    feed(scratch, 0, n, readNanos);
  }

  /** Feeds a byte array slice; the array is not kept. */
  public void feed(byte[] bytes, int offset, int length, long readNanos) {
    int i = offset;
    int end = offset + length;
    if (skipNextLf && i < end) {
      skipNextLf = false;
      if (bytes[i] == LF) {
        i++;
      }
    }
    while (i < end) {
      int eol = i;
      while (eol < end && bytes[eol] != LF && bytes[eol] != CR) {
        eol++;
      }
      appendLine(bytes, i, eol - i);
      if (eol == end) {
        return;
      }
      endOfLine(readNanos);
      if (bytes[eol] == CR) {
        if (eol + 1 == end) {
          skipNextLf = true;
        } else if (bytes[eol + 1] == LF) {
          eol++;
        }
      }
      i = eol + 1;
    }
  }

  /**
   * The stream ended. A final event whose data lines are complete but that lacks the blank
   * line is still dispatched (servers that end with a single {@code \n} after {@code [DONE]}
   * are common); a half-received line is dropped.
   */
  public void endOfStream(long readNanos) {
    if (hasData) {
      dispatch(readNanos);
    }
    lineLength = 0;
  }

  private void appendLine(byte[] bytes, int from, int count) {
    if (count == 0) {
      return;
    }
    int needed = lineLength + count;
    if (needed > line.length) {
      if (needed > MAX_EVENT_BYTES) {
        throw new IllegalStateException("SSE line longer than " + MAX_EVENT_BYTES + " bytes");
      }
      line = Arrays.copyOf(line, Math.min(MAX_EVENT_BYTES, Math.max(needed, line.length * 2)));
    }
    System.arraycopy(bytes, from, line, lineLength, count);
    lineLength = needed;
  }

  private void endOfLine(long readNanos) {
    int length = lineLength;
    lineLength = 0;
    if (length == 0) {
      if (hasData) {
        dispatch(readNanos);
      }
      return;
    }
    if (line[0] == ':') {
      return; // comment / keep-alive
    }
    int colon = indexOf(line, length, (byte) ':');
    int nameLength = colon < 0 ? length : colon;
    if (nameLength != 4 || line[0] != 'd' || line[1] != 'a' || line[2] != 't' || line[3] != 'a') {
      return; // event:, id:, retry: and unknown fields carry nothing we measure
    }
    int valueStart = colon < 0 ? length : colon + 1;
    if (valueStart < length && line[valueStart] == ' ') {
      valueStart++;
    }
    appendData(valueStart, length - valueStart);
  }

  private void appendData(int from, int length) {
    int needed = dataLength + length + (hasData ? 1 : 0);
    if (needed > data.length) {
      if (needed > MAX_EVENT_BYTES) {
        throw new IllegalStateException("SSE event larger than " + MAX_EVENT_BYTES + " bytes");
      }
      data = Arrays.copyOf(data, Math.max(needed, data.length * 2));
    }
    if (hasData) {
      data[dataLength++] = LF;
    }
    System.arraycopy(line, from, data, dataLength, length);
    dataLength += length;
    hasData = true;
  }

  private void dispatch(long readNanos) {
    int length = dataLength;
    dataLength = 0;
    hasData = false;
    listener.onEvent(data, length, readNanos);
  }

  private static int indexOf(byte[] bytes, int length, byte b) {
    for (int i = 0; i < length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
