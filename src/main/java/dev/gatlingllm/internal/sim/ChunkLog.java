package dev.gatlingllm.internal.sim;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The server's own account of when it sent what: for each streamed request, when its request
 * reached the handler and when each content chunk was about to be handed to the socket, as
 * {@link System#nanoTime()} values. On Linux that clock is {@code CLOCK_MONOTONIC}, shared by
 * every process on the machine, so a client in another JVM can compare the times it measured
 * with these, chunk by chunk ({@code ClientTruthBenchmark} does).
 *
 * <p>Off by default ({@code --chunk-log}); {@code GET /debug/chunk-log} returns the requests
 * finished since the last call, one line each: {@code <x-request-id> <received> <write>...}.
 */
public final class ChunkLog {

  private final ConcurrentLinkedQueue<String> finished = new ConcurrentLinkedQueue<>();

  /** One request's times; filled on its connection's event loop. */
  static final class Entry {
    private final String requestId;
    private final long receivedNanos;
    private long[] writes = new long[64];
    private int count;

    Entry(String requestId, long receivedNanos) {
      this.requestId = requestId;
      this.receivedNanos = receivedNanos;
    }

    void wrote(long nanos) {
      if (count == writes.length) {
        writes = Arrays.copyOf(writes, count * 2);
      }
      writes[count++] = nanos;
    }
  }

  void add(Entry e) {
    StringBuilder line = new StringBuilder(24 + e.count * 16)
        .append(e.requestId == null ? "-" : e.requestId).append(' ').append(e.receivedNanos);
    for (int i = 0; i < e.count; i++) {
      line.append(' ').append(e.writes[i]);
    }
    finished.add(line.append('\n').toString());
  }

  /** Everything logged since the last drain. */
  String drain() {
    StringBuilder out = new StringBuilder();
    String line;
    while ((line = finished.poll()) != null) {
      out.append(line);
    }
    return out.toString();
  }
}
