package dev.gatlingllm.bench;

import dev.gatlingllm.internal.client.ClientConfig;
import dev.gatlingllm.internal.client.LlmClient;
import dev.gatlingllm.internal.client.LlmRequest;
import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * Holds {@code streams} concurrent streamed requests open against the embedded simulator for a
 * given time, re-issuing each as it ends, through the plugin's own client ({@link LlmClient}:
 * connection pool, pipeline, exchanges, timeouts), and samples what a leak would grow: heap
 * after a full GC, open file descriptors, established and TIME_WAIT connections to the server,
 * and live threads.
 *
 * <p>Records are counted and dropped: the record store keeps every record by design (its
 * bytes per token are measured by {@code RecordStoreMemoryBench}), so keeping them here would
 * hide a leak behind intended growth.
 *
 * <p>Run: {@code ./mvnw -B -q test-compile exec:java
 * -Dexec.mainClass=dev.gatlingllm.bench.SoakBenchmark}. Settings (system properties):
 * {@code soak.streams} (1000), {@code soak.duration} (ISO-8601 or seconds, default PT1H),
 * {@code soak.interval} (PT1M), {@code soak.tokens} (300 per request), {@code soak.itlMs}
 * (100), {@code soak.loops} (client event loops, 2). Exit status 1 when the numbers are not
 * flat (see {@link Sample#flatAgainst}) or a request failed.
 */
public final class SoakBenchmark {

  /** One row of the table. */
  public record Sample(double minutes, long heapAfterGcBytes, long fds, long established,
      long timeWait, int threads, long completed, long failed, int inFlight, long stallMillis) {

    /**
     * The growth allowed between the first sample (taken once all streams are open) and any
     * later one: heap within {@code heapSlackBytes}, descriptors and connections within 2 % of
     * the stream count (a stream being re-issued can be between two connections), threads
     * within 2. Only growth counts: fewer threads is a pool winding down (in a test JVM that
     * ran other classes first, their idle pool threads time out during the soak), never a leak.
     */
    public String flatAgainst(Sample base, int streams, long heapSlackBytes) {
      long slack = Math.max(4, streams / 50);
      if (heapAfterGcBytes - base.heapAfterGcBytes > heapSlackBytes) {
        return "heap grew from " + mib(base.heapAfterGcBytes) + " to " + mib(heapAfterGcBytes);
      }
      if (fds - base.fds > slack) {
        return "file descriptors grew from " + base.fds + " to " + fds;
      }
      if (established - base.established > slack) {
        return "connections grew from " + base.established + " to " + established;
      }
      // Netty's global executor thread comes and goes with its (rare) tasks.
      if (threads - base.threads > 2) {
        return "threads grew from " + base.threads + " to " + threads;
      }
      return null;
    }
  }

  /** What a finished soak saw. */
  public record Outcome(List<Sample> samples, Map<String, Long> errors) {}

  /**
   * No first-token, idle or request timeout: run with {@code nice -n 19} on a shared machine,
   * the JVM can get no CPU at all for minutes (seen: a 24 MB full GC that took 59 s of wall
   * time, and a 4-minute gap between two samples), and a stream that times out for that is the
   * machine's doing, not a leak. A stream that hangs for real shows as completions that stop
   * growing; the "stall" column says how long the JVM itself was kept from running.
   */
  private static final Duration STARVED = Duration.ZERO;

  private SoakBenchmark() {}

  public static void main(String[] args) throws Exception {
    int streams = Integer.getInteger("soak.streams", 1000);
    Duration duration = duration(System.getProperty("soak.duration", "PT1H"));
    Duration interval = duration(System.getProperty("soak.interval", "PT1M"));
    int tokens = Integer.getInteger("soak.tokens", 300);
    long itlMs = Long.getLong("soak.itlMs", 100);
    int loops = Integer.getInteger("soak.loops", 2);
    System.out.printf("soak: %d streams for %s, sampled every %s; %d tokens per request at "
        + "%d ms ITL (%.1f s per stream), %d client event loops, %d cores%n", streams, duration,
        interval, tokens, itlMs, (50 + tokens * itlMs) / 1000.0, loops,
        Runtime.getRuntime().availableProcessors());
    Outcome outcome = run(streams, duration, interval, tokens, itlMs, loops, true);
    String verdict = verdict(outcome, streams, 32L << 20);
    System.out.println(verdict == null ? "FLAT: no growth beyond the tolerance, no failed request"
        : "NOT FLAT: " + verdict);
    System.exit(verdict == null ? 0 : 1);
  }

  /** Null when the samples are flat and nothing failed, else what is wrong. */
  public static String verdict(Outcome outcome, int streams, long heapSlackBytes) {
    if (!outcome.errors().isEmpty()) {
      return "failed requests: " + outcome.errors();
    }
    List<Sample> samples = outcome.samples();
    Sample base = samples.get(0);
    Sample low = null;
    for (Sample s : samples) {
      String why = s.flatAgainst(base, streams, heapSlackBytes);
      if (why != null) {
        return String.format("at %.1f min: %s", s.minutes(), why);
      }
      // Between a stream's end and its next request it is not in flight. Streams that started
      // together end together, so a sample can fall in the gap of a whole wave, and on a
      // starved machine that gap stretches (seen: 75 of 200 open, 200 again at the next
      // sample). A stream that stopped being re-issued stays closed: two samples in a row.
      boolean fewOpen = s.inFlight() < streams * 3 / 4;
      if (fewOpen && low != null) {
        return String.format("at %.1f and %.1f min only %d and %d of %d streams were open",
            low.minutes(), s.minutes(), low.inFlight(), s.inFlight(), streams);
      }
      low = fewOpen ? s : null;
    }
    if (low != null && low == samples.get(samples.size() - 1)) {
      return String.format("at %.1f min (the last sample) only %d of %d streams were open",
          low.minutes(), low.inFlight(), streams);
    }
    return null;
  }

  /**
   * Runs the soak; the first sample is taken once every stream has had its first request
   * answered, so connection set-up and class loading are behind it.
   */
  public static Outcome run(int streams, Duration duration, Duration interval, int tokens,
      long itlMs, int loops, boolean print) throws Exception {
    SimulatorConfig config = SimulatorConfig.builder().maxRunning(streams * 2)
        .ttft(Duration.ofMillis(50)).itl(Duration.ofMillis(itlMs)).build();
    boolean epoll = Epoll.isAvailable() && !Boolean.getBoolean("soak.nio");
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(loops,
        new DefaultThreadFactory("soak-client"),
        epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    List<Sample> samples = new ArrayList<>();
    Map<String, Long> errors = new ConcurrentHashMap<>();
    Watchdog watchdog = new Watchdog();
    watchdog.start();
    try (Simulator sim = Simulator.start(config);
         LlmClient client = new LlmClient(epoll ? EpollSocketChannel::new : NioSocketChannel::new,
             new ClientConfig(Target.parse(sim.baseUrl()), Duration.ofSeconds(30),
                 STARVED, STARVED, Duration.ZERO, Duration.ofSeconds(60)))) {
      byte[] body = ("{\"model\":\"sim-model\",\"prompt\":\"soak\",\"stream\":true,"
          + "\"max_tokens\":" + tokens + ",\"ignore_eos\":true,"
          + "\"stream_options\":{\"include_usage\":true}}").getBytes(StandardCharsets.UTF_8);
      LongAdder completed = new LongAdder();
      LongAdder failed = new LongAdder();
      AtomicLong firstRound = new AtomicLong(streams);
      Streams streams0 = new Streams(client, body, tokens, completed, failed, errors, firstRound,
          new AtomicBoolean(), new AtomicInteger());
      // Staggered over one stream's length, so that streams end and restart all the time
      // rather than in waves of a thousand.
      long streamNanos = TimeUnit.MILLISECONDS.toNanos(50 + tokens * itlMs);
      for (int i = 0; i < streams; i++) {
        EventLoop loop = group.next();
        loop.schedule(() -> streams0.issue(loop), streamNanos * i / streams, TimeUnit.NANOSECONDS);
      }
      long warmDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60 + tokens * itlMs / 500);
      while (firstRound.get() > 0 && System.nanoTime() < warmDeadline) {
        Thread.sleep(50);
      }
      long t0 = System.nanoTime();
      long stopAt = t0 + duration.toNanos(); // the duration counts from the first sample
      watchdog.takeMaxStallMillis();
      if (print) {
        System.out.printf("%7s %10s %6s %6s %9s %8s %10s %7s %9s %9s%n", "min", "heap MiB",
            "fds", "conns", "time-wait", "threads", "completed", "failed", "in flight",
            "stall ms");
      }
      while (true) {
        Sample s = sample(sim, (System.nanoTime() - t0) / 60e9, completed.sum(), failed.sum(),
            watchdog.takeMaxStallMillis());
        samples.add(s);
        if (print) {
          System.out.printf("%7.1f %10.1f %6d %6d %9d %8d %10d %7d %9d %9d%n", s.minutes(),
              s.heapAfterGcBytes() / 1048576.0, s.fds(), s.established(), s.timeWait(),
              s.threads(), s.completed(), s.failed(), s.inFlight(), s.stallMillis());
        }
        long next = t0 + interval.toNanos() * samples.size();
        if (next > stopAt) {
          break;
        }
        TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
      }
      // Let the streams in flight end on their own, so that closing finds none.
      streams0.stopping().set(true);
      long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10 + tokens * itlMs / 500);
      while (streams0.open().get() > 0 && System.nanoTime() < drainDeadline) {
        Thread.sleep(20);
      }
    } finally {
      watchdog.interrupt();
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
    return new Outcome(samples, errors);
  }

  /**
   * Sleeps 100 ms at a time and keeps the longest oversleep: how long this JVM was kept from
   * running (CPU starvation, a GC pause). Started and ended with the soak, so the thread count
   * of the samples includes it throughout.
   */
  private static final class Watchdog extends Thread {
    private final AtomicLong maxStallNanos = new AtomicLong();

    Watchdog() {
      super("soak-watchdog");
      setDaemon(true);
    }

    long takeMaxStallMillis() {
      return maxStallNanos.getAndSet(0) / 1_000_000;
    }

    @Override
    public void run() {
      while (!isInterrupted()) {
        long before = System.nanoTime();
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        }
        long over = System.nanoTime() - before - 100_000_000L;
        maxStallNanos.accumulateAndGet(over, Math::max);
      }
    }
  }

  /** The streams' shared state: issues a request and, when it ends, the next one. */
  private record Streams(LlmClient client, byte[] body, int tokens, LongAdder completed,
      LongAdder failed, Map<String, Long> errors, AtomicLong firstRound, AtomicBoolean stopping,
      AtomicInteger open) {

    void issue(EventLoop loop) {
      open.incrementAndGet();
      LlmRequest request = new LlmRequest("soak", "/v1/completions", new DefaultHttpHeaders(),
          body, 1, LlmRequest.NOT_SCHEDULED);
      client.send(loop, request, record -> done(loop, record));
    }

    private void done(EventLoop loop, RequestRecord record) {
      if (record.success() && record.outputTokens() == tokens) {
        completed.increment();
      } else {
        failed.increment();
        errors.merge(record.success() ? "wrong token count " + record.outputTokens()
            : String.valueOf(record.error()), 1L, Long::sum);
      }
      if (firstRound.get() > 0) {
        firstRound.decrementAndGet();
      }
      open.decrementAndGet();
      if (!stopping.get()) {
        issue(loop);
      }
    }
  }

  private static Sample sample(Simulator sim, double minutes, long completed, long failed,
      long stallMillis) throws IOException {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    System.gc();
    System.gc();
    long heap = memory.getHeapMemoryUsage().getUsed();
    long fds;
    try (Stream<Path> list = Files.list(Path.of("/proc/self/fd"))) {
      fds = list.count();
    }
    long[] conns = connections(sim.port());
    return new Sample(minutes, heap, fds, conns[0], conns[1],
        ManagementFactory.getThreadMXBean().getThreadCount(), completed, failed, sim.inFlight(),
        stallMillis);
  }

  /**
   * Client-side sockets to the server's port, established and in TIME_WAIT, from the kernel's
   * table (the simulator runs in this JVM, so counting descriptors alone would count both ends).
   */
  static long[] connections(int port) throws IOException {
    String remote = String.format(":%04X", port);
    long established = 0;
    long timeWait = 0;
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      Path path = Path.of(table);
      if (!Files.exists(path)) {
        continue;
      }
      for (String line : Files.readAllLines(path)) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 4 || !f[2].endsWith(remote)) {
          continue;
        }
        if (f[3].equals("01")) {
          established++;
        } else if (f[3].equals("06")) {
          timeWait++;
        }
      }
    }
    return new long[] {established, timeWait};
  }

  private static Duration duration(String text) {
    return text.startsWith("P") ? Duration.parse(text) : Duration.ofSeconds(Long.parseLong(text));
  }

  private static String mib(long bytes) {
    return String.format("%.1f MiB", bytes / 1048576.0);
  }
}
