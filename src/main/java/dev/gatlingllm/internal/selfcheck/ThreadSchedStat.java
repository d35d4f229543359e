package dev.gatlingllm.internal.selfcheck;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * One thread's scheduler figures from Linux's {@code /proc/thread-self/schedstat}: the time
 * it has spent running on a CPU and the time it has spent runnable but waiting for one, in
 * nanoseconds since it started. Whatever else passed, it was not runnable: blocked in a call,
 * or asleep (in {@code epoll}, say) until something woke it.
 *
 * <p>Opened by the thread it describes (the file names the calling thread) and read by that
 * thread only. One read is one {@code pread} of a few bytes, about 2 µs, with no allocation.
 * Where the file does not exist (not Linux, or a kernel without scheduler statistics) there is
 * no instance; a read that fails closes it and every later read says so.
 */
final class ThreadSchedStat {

  private static final Path FILE = Path.of("/proc/thread-self/schedstat");

  private FileChannel channel;
  private final ByteBuffer buffer = ByteBuffer.allocate(96);

  private ThreadSchedStat(FileChannel channel) {
    this.channel = channel;
  }

  /** The calling thread's figures, or null where the platform has none. */
  static ThreadSchedStat ofCurrentThread() {
    try {
      ThreadSchedStat stat = new ThreadSchedStat(FileChannel.open(FILE));
      return stat.read(new long[2]) ? stat : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Puts the running time into {@code into[0]} and the waiting time into {@code into[1]}.
   *
   * @return false when they could not be read (then never again)
   */
  boolean read(long[] into) {
    if (channel == null) {
      return false;
    }
    try {
      buffer.clear();
      channel.read(buffer, 0);
      buffer.flip();
      if (parse(buffer, into)) {
        return true;
      }
    } catch (IOException | RuntimeException e) {
      // fall through: unreadable from now on
    }
    close();
    return false;
  }

  /**
   * The first two decimal numbers of {@code text} ("run wait slices\n") into {@code into}.
   *
   * @return false unless both are there, each ended by a space
   */
  static boolean parse(ByteBuffer text, long[] into) {
    for (int field = 0; field < 2; field++) {
      long value = 0;
      int digits = 0;
      boolean ended = false;
      while (!ended && text.hasRemaining()) {
        byte b = text.get();
        if (b >= '0' && b <= '9' && digits < 18) {
          value = value * 10 + (b - '0');
          digits++;
        } else if (b == ' ' && digits > 0) {
          ended = true;
        } else {
          return false;
        }
      }
      if (!ended) {
        return false;
      }
      into[field] = value;
    }
    return true;
  }

  void close() {
    FileChannel open = channel;
    channel = null;
    if (open != null) {
      try {
        open.close();
      } catch (IOException e) {
        // nothing to do: it was only read
      }
    }
  }
}
