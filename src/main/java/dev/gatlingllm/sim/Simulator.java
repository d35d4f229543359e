package dev.gatlingllm.sim;

import dev.gatlingllm.internal.sim.ChunkLog;
import dev.gatlingllm.internal.sim.ConfigCheck;
import dev.gatlingllm.internal.sim.ConnectionHandler;
import dev.gatlingllm.internal.sim.Generation;
import dev.gatlingllm.internal.sim.Routes;
import dev.gatlingllm.internal.sim.ServerState;
import dev.gatlingllm.internal.sim.SimTokenizer;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.internal.sim.TimerLateness;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An embedded server that behaves like vLLM's OpenAI-compatible server, for testing load
 * generators without a GPU: {@code POST /v1/completions}, {@code POST /v1/chat/completions}
 * (streaming and not, text or multimodal content parts, optionally reasoning first),
 * {@code POST /v1/embeddings} (and Infinity's {@code /embeddings}, vLLM's {@code /pooling}),
 * {@code POST /v1/rerank} (and {@code /rerank}), {@code POST /v1/audio/transcriptions} and
 * {@code /v1/audio/translations} (multipart upload, streamed answer), {@code POST /v1/responses},
 * {@code POST /tokenize} and {@code /detokenize}, {@code GET /v1/models}, {@code GET /health},
 * {@code GET /metrics} (the table of them is {@code Routes}).
 * Timing, output and injected faults follow {@link SimulatorConfig}; the output text
 * follows {@link SimTokens}.
 *
 * <pre>{@code
 * try (Simulator sim = Simulator.start(SimulatorConfig.builder()
 *     .ttft(Duration.ofMillis(100)).itl(Duration.ofMillis(20)).build())) {
 *   String url = sim.baseUrl() + "/v1/completions";
 *   ...
 * }
 * }</pre>
 *
 * <p>All work runs on the simulator's own Netty event loops (daemon threads, see
 * {@link SimulatorConfig#ioThreads()}); every delay is an event-loop timer, no thread is
 * held per request. Only prompts counted with a real tokenizer ({@link
 * SimulatorConfig#tokenizer()}) are counted on a thread of their own.
 */
public final class Simulator implements AutoCloseable {

  /** Largest request body accepted (a prompt of a few million characters). */
  private static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

  private final SimulatorConfig config;
  private final EventLoopGroup group;
  private final Channel serverChannel;
  private final ChannelGroup connections;
  private final ServerState state;
  private final TimerLateness lateness;
  private final SimulatorConfig.Transport transport;
  private final int port;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Queue<RecordedRequest> recorded;
  private final AtomicLong accepted;
  private final SimTokenizer tokens;
  /** Null unless a real tokenizer counts the prompts. */
  private final ExecutorService counting;

  private Simulator(SimulatorConfig config, EventLoopGroup group, Channel serverChannel,
      ChannelGroup connections, ServerState state, TimerLateness lateness,
      SimulatorConfig.Transport transport, Queue<RecordedRequest> recorded, AtomicLong accepted,
      SimTokenizer tokens, ExecutorService counting) {
    this.recorded = recorded;
    this.tokens = tokens;
    this.counting = counting;
    this.accepted = accepted;
    this.config = config;
    this.group = group;
    this.serverChannel = serverChannel;
    this.connections = connections;
    this.state = state;
    this.lateness = lateness;
    this.transport = transport;
    this.port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
  }

  /**
   * Binds and starts serving, after the configuration's start-up delay; returns once the port
   * is open.
   *
   * @throws IllegalStateException when the address cannot be bound, the requested transport
   *     is not available, or the thread is interrupted during the start-up delay
   * @throws IllegalArgumentException when the configured tokenizer cannot be loaded or does
   *     not count the simulator's output words one token each, or a value of {@code config}
   *     is out of range (a configuration made with the record's constructor is checked here)
   */
  public static Simulator start(SimulatorConfig config) {
    ConfigCheck.check(config);
    if (!config.startupDelay().isZero()) {
      try {
        Thread.sleep(config.startupDelay().toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted during the start-up delay", e);
      }
    }
    SimulatorConfig.Transport transport = resolve(config.transport());
    SimTokenizer tokens = config.tokenizer() == null ? SimTokenizer.WORDS
        : SimTokenizer.load(config.tokenizer());
    // one thread: counting a 1,024-token prompt takes a few ms, so it serves hundreds a second
    ExecutorService counting = tokens.costly() ? Executors.newSingleThreadExecutor(
        new DefaultThreadFactory("gatling-llm-sim-tokenizer", true)) : null;
    boolean epoll = transport == SimulatorConfig.Transport.EPOLL;
    IoHandlerFactory handlers = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerChannel> channelType =
        epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(config.ioThreads(),
        new DefaultThreadFactory("gatling-llm-sim", true), handlers);
    // Open connections are closed explicitly on close(): the event loop's shutdown alone
    // did not reliably close them in time.
    ChannelGroup connections = new DefaultChannelGroup("gatling-llm-sim", GlobalEventExecutor.INSTANCE);
    ServerState state = ServerState.of(config);
    TimerLateness lateness = new TimerLateness();
    ChunkLog chunkLog = config.chunkLog() ? new ChunkLog() : null;
    Queue<RecordedRequest> recorded = config.recordRequests() ? new ConcurrentLinkedQueue<>() : null;
    long started = System.currentTimeMillis() / 1000;
    AtomicLong accepted = new AtomicLong();
    try {
      Channel channel = new ServerBootstrap()
          .group(group)
          .channel(channelType)
          .option(ChannelOption.SO_BACKLOG, 1024)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              connections.add(ch);
              accepted.incrementAndGet();
              ch.pipeline().addLast(
                  new HttpServerCodec(),
                  new HttpObjectAggregator(MAX_BODY_BYTES),
                  new ConnectionHandler(config, state, lateness, chunkLog, started, recorded,
                      tokens, counting));
            }
          })
          .bind(new InetSocketAddress(config.host(), config.port()))
          .syncUninterruptibly()
          .channel();
      return new Simulator(config, group, channel, connections, state, lateness, transport,
          recorded, accepted, tokens, counting);
    } catch (Exception e) {
      // bind() failures arrive as checked exceptions rethrown without being declared.
      boolean idle = stopCounting(counting);
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      closeTokenizer(tokens, idle);
      throw new IllegalStateException("simulator cannot listen on " + config.host() + ":"
          + config.port() + ": " + e.getMessage(), e);
    }
  }

  private static SimulatorConfig.Transport resolve(SimulatorConfig.Transport wanted) {
    switch (wanted) {
      case NIO:
        return SimulatorConfig.Transport.NIO;
      case EPOLL:
        if (!Epoll.isAvailable()) {
          throw new IllegalStateException("transport EPOLL is not available here: "
              + Epoll.unavailabilityCause() + "; use AUTO or NIO");
        }
        return SimulatorConfig.Transport.EPOLL;
      default:
        return Epoll.isAvailable() ? SimulatorConfig.Transport.EPOLL : SimulatorConfig.Transport.NIO;
    }
  }

  /** The port the server listens on (the chosen one when the configuration said 0). */
  public int port() {
    return port;
  }

  /** {@code http://host:port}, without a trailing slash. */
  public String baseUrl() {
    String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
    return "http://" + host + ":" + port;
  }

  /** The configuration this simulator runs with. */
  public SimulatorConfig config() {
    return config;
  }

  /** The transport in use: {@link SimulatorConfig.Transport#NIO} or {@code EPOLL}. */
  public SimulatorConfig.Transport transport() {
    return transport;
  }

  /**
   * Valid generation requests received since start or {@link #resetStats()} (requests
   * refused with 400/404 are not counted). Their arrival numbers, 0-based in this order,
   * decide fault injection.
   */
  public long requestsReceived() {
    return state.snapshot().received();
  }

  /**
   * Every request received so far, in arrival order, when {@link
   * SimulatorConfig#recordRequests()} is on.
   *
   * @throws IllegalStateException when recording is off
   */
  public List<RecordedRequest> recordedRequests() {
    if (recorded == null) {
      throw new IllegalStateException("requests are not recorded: build the simulator with "
          + "SimulatorConfig.builder().recordRequests(true)");
    }
    return List.copyOf(recorded);
  }

  /**
   * Connections accepted since start, to see how a client reuses them (not reset by
   * {@link #resetStats()}).
   */
  public long connectionsAccepted() {
    return accepted.get();
  }

  /** Generation requests received and not finished right now, queued ones included. */
  public int inFlight() {
    return state.snapshot().inFlight();
  }

  /** Most requests in flight at once (received and not finished, queued included). */
  public int maxInFlight() {
    return state.snapshot().maxInFlight();
  }

  /** Requests generating right now. */
  public int running() {
    return state.snapshot().running();
  }

  /** Most requests generating at once; never above {@link SimulatorConfig#maxRunning()}. */
  public int maxRunning() {
    return state.snapshot().maxRunning();
  }

  /** Requests waiting for a running slot right now. */
  public int waiting() {
    return state.snapshot().waiting();
  }

  /** Paths of the profiler calls ({@code /start_profile}, {@code /stop_profile}) received, in order. */
  public List<String> profilerCalls() {
    return state.profilerCalls();
  }

  /** Faults of {@code kind} actually applied (a client that left early avoids its fault). */
  public long faultsInjected(Fault kind) {
    return state.snapshot().faults(kind);
  }

  /**
   * Zeroes the counters, sets the maxima to what is open now and restarts the arrival
   * numbering, so the next request is number 0 again for fault injection.
   */
  public void resetStats() {
    state.reset();
    lateness.reset();
  }

  /**
   * Stops accepting, drops open connections and releases the threads. Idempotent. Must not
   * be called from the simulator's own event-loop threads.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      serverChannel.close().syncUninterruptibly();
      connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
      // a count still running hands its request back to an event loop that is still there
      boolean idle = stopCounting(counting);
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      closeTokenizer(tokens, idle);
    }
  }

  /** @return whether no count is running any more */
  private static boolean stopCounting(ExecutorService counting) {
    if (counting == null) {
      return true;
    }
    counting.shutdown();
    try {
      return counting.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void closeTokenizer(SimTokenizer tokens, boolean idle) {
    if (idle) {
      // freed under a count still running, the native tokenizer could crash the JVM
      tokens.close();
    }
  }

}
