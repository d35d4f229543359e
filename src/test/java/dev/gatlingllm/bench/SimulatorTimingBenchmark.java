package dev.gatlingllm.bench;

import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.sim.SimulatorConfig.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How precisely the simulator keeps its configured TTFT and ITL, per transport, concurrency
 * and event-loop thread count. A Netty epoll client on its own thread timestamps every HTTP
 * chunk on arrival (as the plugin's client does) and reports the error against the plan:
 * observed TTFT minus the configured TTFT, observed inter-chunk gap minus the ITL. The
 * server's own view (how late its timers fired) comes from its /metrics; "srv" and "cli"
 * are the CPU use of the server's and the client's event-loop threads over the run.
 *
 * <p>Run: {@code ./mvnw -B -q test-compile exec:java
 * -Dexec.mainClass=dev.gatlingllm.bench.SimulatorTimingBenchmark}. With
 * {@code -Dexec.args="EPOLL 1 1024"} (transport, server threads, concurrent streams) it runs
 * only that case, three times in a row, to show how much of the error is JIT warm-up.
 * {@code -Dbench.ttftMs}, {@code -Dbench.itlMs} and {@code -Dbench.tokens} change the
 * request shape (defaults 20, 5, 100).
 */
public final class SimulatorTimingBenchmark {

  private static final long TTFT_MS = Long.getLong("bench.ttftMs", 20);
  private static final long ITL_MS = Long.getLong("bench.itlMs", 5);
  private static final int TOKENS = Integer.getInteger("bench.tokens", 100);

  private SimulatorTimingBenchmark() {}

  public static void main(String[] args) throws Exception {
    System.out.printf("cores=%d, ttft=%d ms, itl=%d ms, %d tokens per request, errors in microseconds%n",
        Runtime.getRuntime().availableProcessors(), TTFT_MS, ITL_MS, TOKENS);
    System.out.printf("%-6s %3s %5s %7s %5s %5s | %26s | %33s | %19s%n", "", "", "", "", "", "",
        "TTFT error (obs - cfg)", "ITL error (obs - cfg)", "server timer late");
    System.out.printf("%-6s %3s %5s %7s %5s %5s | %8s %8s %8s | %8s %8s %8s %8s | %9s %9s%n",
        "transp", "thr", "conc", "chunk/s", "srv", "cli", "p50", "p99", "max", "mean", "p50", "p99", "max", "mean", "max");
    run(Transport.EPOLL, 1, 64, 3, false); // JIT warm-up, not printed
    if (args.length == 3) {
      for (int i = 0; i < 3; i++) {
        run(Transport.valueOf(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]), 1, true);
      }
      return;
    }
    for (Transport t : new Transport[] {Transport.NIO, Transport.EPOLL}) {
      for (int concurrency : new int[] {1, 16, 64, 256}) {
        run(t, 1, concurrency, Math.max(2, 20 / concurrency), true);
      }
    }
    // Capacity: past the point where one loop thread (and the client) can keep up.
    for (int threads : new int[] {1, 2}) {
      run(Transport.EPOLL, threads, 1024, 1, true);
    }
  }

  private static void run(Transport transport, int threads, int concurrency, int rounds,
      boolean print) throws Exception {
    SimulatorConfig config = SimulatorConfig.builder().transport(transport).ioThreads(threads)
        .maxRunning(100_000).ttft(Duration.ofMillis(TTFT_MS)).itl(Duration.ofMillis(ITL_MS)).build();
    EventLoopGroup clientGroup = new MultiThreadIoEventLoopGroup(1,
        new DefaultThreadFactory("bench-client"), EpollIoHandler.newFactory());
    try (Simulator sim = Simulator.start(config)) {
      int requests = concurrency * rounds;
      long[] ttftErr = new long[requests];
      long[] itlErr = new long[requests * (TOKENS - 1)];
      int[] counters = new int[2];
      CountDownLatch done = new CountDownLatch(concurrency);
      long started = System.nanoTime();
      long serverCpu0 = cpuNanos("gatling-llm-sim");
      long clientCpu0 = cpuNanos("bench-client");
      for (int c = 0; c < concurrency; c++) {
        Bootstrap b = new Bootstrap().group(clientGroup).channel(EpollSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new HttpClientCodec(),
                    new StreamTimer(rounds, ttftErr, itlErr, counters, done));
              }
            });
        b.connect("127.0.0.1", sim.port()).sync();
      }
      if (!done.await(120, TimeUnit.SECONDS)) {
        throw new IllegalStateException("benchmark did not finish");
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      double serverCpu = (cpuNanos("gatling-llm-sim") - serverCpu0) / 1e9 / seconds * 100;
      double clientCpu = (cpuNanos("bench-client") - clientCpu0) / 1e9 / seconds * 100;
      String metrics = fetch(sim.baseUrl() + "/metrics");
      double lateSum = value(metrics, "gatling_llm_sim_timer_lateness_seconds_sum");
      double lateCount = value(metrics, "gatling_llm_sim_timer_lateness_seconds_count");
      double lateMax = value(metrics, "gatling_llm_sim_timer_lateness_max_seconds");
      if (print) {
        Arrays.sort(ttftErr, 0, counters[0]);
        Arrays.sort(itlErr, 0, counters[1]);
        System.out.printf("%-6s %3d %5d %7.0f %4.0f%% %4.0f%% | %8d %8d %8d | %8.0f %8d %8d %8d | %9.0f %9.0f%n",
            sim.transport(), threads, concurrency, requests * (double) TOKENS / seconds,
            serverCpu, clientCpu,
            pct(ttftErr, counters[0], 50), pct(ttftErr, counters[0], 99), ttftErr[counters[0] - 1] / 1000,
            Arrays.stream(itlErr, 0, counters[1]).average().orElse(0) / 1000,
            pct(itlErr, counters[1], 50), pct(itlErr, counters[1], 99), itlErr[counters[1] - 1] / 1000,
            lateSum / lateCount * 1e6, lateMax * 1e6);
      }
    } finally {
      clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
  }

  /** CPU time used so far by the live threads whose name starts with {@code prefix}. */
  private static long cpuNanos(String prefix) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long total = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith(prefix)) {
        total += Math.max(0, mx.getThreadCpuTime(t.getId()));
      }
    }
    return total;
  }

  /** Nearest-rank percentile, in microseconds. */
  private static long pct(long[] sorted, int n, double p) {
    int i = (int) Math.min(n - 1, Math.max(0, Math.ceil(p / 100 * n) - 1));
    return sorted[i] / 1000;
  }

  private static double value(String metrics, String name) {
    for (String line : metrics.split("\n")) {
      if (line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(name.length() + 1));
      }
    }
    throw new IllegalStateException("no metric " + name);
  }

  private static String fetch(String url) throws Exception {
    var conn = URI.create(url).toURL().openConnection();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(conn.getInputStream(), StandardCharsets.UTF_8))) {
      StringBuilder sb = new StringBuilder();
      r.lines().forEach(l -> sb.append(l).append('\n'));
      return sb.toString();
    }
  }

  /** Sends {@code rounds} streaming requests one after the other on its connection. */
  private static final class StreamTimer extends SimpleChannelInboundHandler<HttpObject> {
    private static final byte[] BODY = ("{\"prompt\":\"bench\",\"max_tokens\":" + TOKENS
        + ",\"stream\":true}").getBytes(StandardCharsets.UTF_8);

    private final long[] ttftErr;
    private final long[] itlErr;
    /** [0] = TTFT samples, [1] = ITL samples; all handlers run on the one client thread. */
    private final int[] counters;
    private final CountDownLatch done;
    private int roundsLeft;
    private long start;
    private long previous;
    private int chunks;

    StreamTimer(int rounds, long[] ttftErr, long[] itlErr, int[] counters, CountDownLatch done) {
      this.roundsLeft = rounds;
      this.ttftErr = ttftErr;
      this.itlErr = itlErr;
      this.counters = counters;
      this.done = done;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      send(ctx.channel());
    }

    private void send(Channel ch) {
      FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
          "/v1/completions", Unpooled.wrappedBuffer(BODY));
      req.headers().set(HttpHeaderNames.HOST, "127.0.0.1")
          .set(HttpHeaderNames.CONTENT_TYPE, "application/json")
          .setInt(HttpHeaderNames.CONTENT_LENGTH, BODY.length);
      chunks = 0;
      start = System.nanoTime();
      ch.writeAndFlush(req);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
      long now = System.nanoTime();
      if (msg instanceof HttpContent content && content.content().isReadable() && chunks < TOKENS) {
        if (chunks == 0) {
          ttftErr[counters[0]++] = now - start - TTFT_MS * 1_000_000;
        } else {
          itlErr[counters[1]++] = now - previous - ITL_MS * 1_000_000;
        }
        previous = now;
        chunks++;
      }
      if (msg instanceof LastHttpContent) {
        if (--roundsLeft > 0) {
          send(ctx.channel());
        } else {
          ctx.close();
          done.countDown();
        }
      }
    }
  }
}
