package dev.gatlingllm.bench;

import java.io.IOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor of {@link ClientTruthBenchmark}: the least a streaming client can do. One thread
 * blocks in {@code epoll} (a NIO selector) over C connections, stamps every read with
 * {@link System#nanoTime()}, counts SSE events that carry a token, and sends the next request
 * when a stream ends. No HTTP decoding beyond finding event boundaries, no JSON, no Gatling.
 *
 * <p>Whatever error this client shows is not any client's code: it is the machine (the
 * kernel's loopback path, and on a virtual machine the time an idle virtual CPU takes to be
 * woken when data arrives). The benchmark runs it on the same core and against the same
 * server as the plugin, so the plugin's figures can be read against it.
 *
 * <p>Arguments: base URL, concurrency, number of requests, output prefix (writes
 * {@code <prefix>-client.csv} in {@link ClientTruthSimulation}'s format and
 * {@code <prefix>.pid}), and optionally a rate in requests per second and the output length.
 * A warm-up of two rounds at the same concurrency runs first, unrecorded.
 *
 * <p>With a rate it is the floor of pacing: requests go out on a Poisson schedule (no cap, a
 * kept-alive connection when one is idle), from the same thread that reads the streams. It
 * waits in {@code epoll} until 1 ms before the next slot, then polls the sockets without
 * blocking until the slot: a client that spends a core to send on time. Its send lateness
 * is what this machine allows a one-core client with the same streams running.
 */
public final class FloorClient {

  private static final int DEFAULT_OUTPUT_TOKENS = 128;
  /** The pacing mode's schedule is the same in every run. */
  private static final long SCHEDULE_SEED = 1_000;
  private static final long WALL_LIMIT_NANOS = 300_000_000_000L;

  private final InetSocketAddress server;
  private final int outputTokens;
  private final byte[] body;
  private final List<String> lines = new ArrayList<>();

  private FloorClient(InetSocketAddress server, int outputTokens) {
    this.server = server;
    this.outputTokens = outputTokens;
    this.body = ("{\"model\":\"" + ClientTruthBenchmark.MODEL + "\",\"prompt\":\"" + "hello ".repeat(64)
        + "\",\"max_tokens\":" + outputTokens + ",\"stream\":true,\"ignore_eos\":true,"
        + "\"stream_options\":{\"include_usage\":true}}").getBytes(StandardCharsets.UTF_8);
  }

  public static void main(String[] args) throws IOException {
    URI base = URI.create(args[0]);
    int concurrency = Integer.parseInt(args[1]);
    int requests = Integer.parseInt(args[2]);
    Path out = Path.of(args[3]);
    Files.writeString(Path.of(out + ".pid"), Long.toString(ProcessHandle.current().pid()));
    double rate = args.length > 4 ? Double.parseDouble(args[4]) : Double.POSITIVE_INFINITY;
    int outputTokens = args.length > 5 ? Integer.parseInt(args[5]) : DEFAULT_OUTPUT_TOKENS;
    FloorClient client = new FloorClient(new InetSocketAddress(base.getHost(), base.getPort()),
        outputTokens);
    if (Double.isInfinite(rate)) {
      client.run("floor-warmup-", concurrency, 2 * concurrency, false);
      client.run("floor-", concurrency, requests, true);
    } else {
      client.paced("floor-warmup-", rate, Math.min(requests, (int) (2 * rate)), false);
      client.paced("floor-", rate, requests, true);
    }
    try (Writer w = Files.newBufferedWriter(Path.of(out + "-client.csv"))) {
      for (String line : client.lines) {
        w.write(line);
        w.write('\n');
      }
    }
  }

  /** One connection's stream in progress. */
  private static final class Stream {
    final SocketChannel channel;
    String id;
    long scheduled;
    long start;
    final long[] chunks;
    int count;
    final StringBuilder pending = new StringBuilder();

    Stream(SocketChannel channel, int outputTokens) {
      this.channel = channel;
      this.chunks = new long[outputTokens + 8];
    }
  }

  private void run(String prefix, int concurrency, int requests, boolean record)
      throws IOException {
    long deadline = System.nanoTime() + WALL_LIMIT_NANOS;
    try (Selector selector = Selector.open()) {
      int sent = 0;
      int done = 0;
      List<Stream> streams = new ArrayList<>();
      for (int i = 0; i < Math.min(concurrency, requests); i++) {
        SocketChannel ch = SocketChannel.open(server);
        ch.configureBlocking(false);
        Stream s = new Stream(ch, outputTokens);
        ch.register(selector, SelectionKey.OP_READ, s);
        streams.add(s);
      }
      for (Stream s : streams) {
        send(s, prefix + sent++, 0);
      }
      ByteBuffer buf = ByteBuffer.allocate(1 << 16);
      while (done < requests) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("floor client: " + done + " of " + requests
              + " requests in " + WALL_LIMIT_NANOS / 1_000_000_000L + " s");
        }
        selector.select(1_000);
        for (SelectionKey key : selector.selectedKeys()) {
          Stream s = (Stream) key.attachment();
          if (read(s, buf, record)) {
            done++;
            if (sent < requests) {
              send(s, prefix + sent++, 0);
            }
          }
        }
        selector.selectedKeys().clear();
      }
      for (Stream s : streams) {
        s.channel.close();
      }
    }
  }

  /**
   * Sends {@code requests} on a Poisson schedule at {@code rate} per second and reads their
   * streams, all on this thread: epoll until 1 ms before the next slot, then non-blocking
   * polls until it is due.
   */
  private void paced(String prefix, double rate, int requests, boolean record)
      throws IOException {
    long deadline = System.nanoTime() + WALL_LIMIT_NANOS;
    java.util.Random random = new java.util.Random(SCHEDULE_SEED);
    long[] slots = new long[requests];
    long t = System.nanoTime() + 200_000_000L;
    for (int i = 0; i < requests; i++) {
      t += (long) (-Math.log(1 - random.nextDouble()) / rate * 1e9);
      slots[i] = t;
    }
    try (Selector selector = Selector.open()) {
      java.util.ArrayDeque<Stream> idle = new java.util.ArrayDeque<>();
      List<Stream> all = new ArrayList<>();
      // Enough connections for the streams in flight (rate x their length, with room), opened
      // before the first slot: a connect is no part of a send's lateness here.
      int open = (int) Math.min(requests, Math.max(16, rate * (0.05 + outputTokens * 0.01) * 2));
      for (int i = 0; i < open; i++) {
        idle.add(open(selector, all));
      }
      ByteBuffer buf = ByteBuffer.allocate(1 << 16);
      int sent = 0;
      int done = 0;
      while (done < requests) {
        long now = System.nanoTime();
        if (now > deadline) {
          throw new IllegalStateException("floor client: " + done + " of " + requests
              + " paced requests in " + WALL_LIMIT_NANOS / 1_000_000_000L + " s");
        }
        while (sent < requests && slots[sent] <= now) {
          Stream s = idle.isEmpty() ? open(selector, all) : idle.poll();
          send(s, prefix + sent, slots[sent]);
          sent++;
          now = System.nanoTime();
        }
        long wait = sent < requests ? slots[sent] - now : 1_000_000_000L;
        if (wait > 1_000_000L) {
          selector.select(Math.max(1, (wait - 1_000_000L) / 1_000_000L));
        } else {
          selector.selectNow();
        }
        for (SelectionKey key : selector.selectedKeys()) {
          Stream s = (Stream) key.attachment();
          if (read(s, buf, record)) {
            done++;
            idle.add(s);
          }
        }
        selector.selectedKeys().clear();
      }
      for (Stream s : all) {
        s.channel.close();
      }
    }
  }

  private Stream open(Selector selector, List<Stream> all) throws IOException {
    SocketChannel ch = SocketChannel.open(server);
    ch.configureBlocking(false);
    Stream s = new Stream(ch, outputTokens);
    ch.register(selector, SelectionKey.OP_READ, s);
    all.add(s);
    return s;
  }

  /**
   * Reads what the stream's socket holds, stamped now; true when that ended the stream (its
   * line is then recorded if {@code record}).
   */
  private boolean read(Stream s, ByteBuffer buf, boolean record) throws IOException {
    long now = System.nanoTime();
    buf.clear();
    if (s.channel.read(buf) < 0) {
      throw new IllegalStateException("the server closed a connection");
    }
    s.pending.append(new String(buf.array(), 0, buf.position(), StandardCharsets.ISO_8859_1));
    if (!events(s, now)) {
      return false;
    }
    if (record) {
      lines.add(line(s));
    }
    return true;
  }

  /** Takes the complete events off the stream's buffer; true once it saw {@code [DONE]}. */
  private static boolean events(Stream s, long now) {
    int end;
    while ((end = s.pending.indexOf("\n\n")) >= 0) {
      String event = s.pending.substring(0, end);
      s.pending.delete(0, end + 2);
      if (event.contains("\"text\"") && !event.contains("\"choices\":[]")
          && !event.contains("\"choices\": []") && s.count < s.chunks.length) {
        s.chunks[s.count++] = now;
      }
      if (event.contains("[DONE]")) {
        s.pending.setLength(0);
        return true;
      }
    }
    return false;
  }

  /** Sends the stream's next request; {@code scheduled} 0 means it is due now (unpaced). */
  private void send(Stream s, String id, long scheduled) throws IOException {
    s.id = id;
    s.count = 0;
    s.pending.setLength(0);
    String head = "POST /v1/completions HTTP/1.1\r\nHost: " + server.getHostString() + "\r\n"
        + "Content-Type: application/json\r\nx-request-id: " + id + "\r\nContent-Length: "
        + body.length + "\r\n\r\n";
    ByteBuffer request = ByteBuffer.allocate(head.length() + body.length);
    request.put(head.getBytes(StandardCharsets.ISO_8859_1)).put(body).flip();
    s.start = System.nanoTime();
    s.scheduled = scheduled == 0 ? s.start : scheduled;
    while (request.hasRemaining()) {
      s.channel.write(request);
    }
  }

  /** id, scheduled, start, TTFT ns, success, chunk offsets in µs: the plugin rungs' format. */
  private static String line(Stream s) {
    StringBuilder b = new StringBuilder().append(s.id).append(',').append(s.scheduled).append(',')
        .append(s.start).append(',').append(s.count == 0 ? -1 : s.chunks[0] - s.start)
        .append(',').append(s.count > 0).append(',');
    for (int i = 0; i < s.count; i++) {
      b.append(i == 0 ? "" : ";").append((s.chunks[i] - s.start) / 1_000);
    }
    return b.toString();
  }
}
