package dev.gatlingllm.client;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;
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
public final class SseDecoder {

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
  /** One processor for all reads (no lambda per read); it reads the current read's time. */
  private long feedNanos;
  private final ByteProcessor byteProcessor = b -> {
    accept(b, this.feedNanos);
    return true;
  };

  public SseDecoder(Listener listener) {
    this.listener = listener;
  }

  /** Feeds the bytes of one read; {@code readNanos} is when they were read off the socket. */
  public void feed(ByteBuf buf, long readNanos) {
    feedNanos = readNanos;
    buf.forEachByte(buf.readerIndex(), buf.readableBytes(), byteProcessor);
    buf.readerIndex(buf.writerIndex());
  }

  /** Feeds a byte array slice; used by tests and by callers without a ByteBuf. */
  public void feed(byte[] bytes, int offset, int length, long readNanos) {
    for (int i = offset; i < offset + length; i++) {
      accept(bytes[i], readNanos);
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

  private void accept(byte b, long readNanos) {
    if (skipNextLf) {
      skipNextLf = false;
      if (b == LF) {
        return;
      }
    }
    if (b == LF || b == CR) {
      skipNextLf = b == CR;
      endOfLine(readNanos);
      return;
    }
    if (lineLength == line.length) {
      if (lineLength >= MAX_EVENT_BYTES) {
        throw new IllegalStateException("SSE line longer than " + MAX_EVENT_BYTES + " bytes");
      }
      line = Arrays.copyOf(line, lineLength * 2);
    }
    line[lineLength++] = b;
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
