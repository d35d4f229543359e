package dev.gatlingllm.internal.client;

import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.AttributeKey;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import javax.net.ssl.SSLException;

/**
 * Streaming HTTP/1.1 client on the caller's event loops: a request is sent on the event loop
 * of the virtual user that asked for it, over a kept-alive connection owned by that loop
 * when one is idle, else a new one. No thread per request and no blocking call.
 *
 * <p>Connections are reused as forgivingly as the standard HTTP clients do. A response with
 * {@code Connection: close} leaves its connection out of the pool; {@code Keep-Alive: max=N}
 * and {@code timeout=T} bound its reuse ({@link ResponseHandler}). A request whose reused
 * connection turns out stale (closed or reset before any of its response) goes out once more
 * on a new connection ({@link Exchange}). A server that closes every connection after its
 * response is noticed, and its connections are no longer reused ({@link ReuseWatch}).
 *
 * <p>Several servers (replicas of one model, {@code --base-url} repeated) each have their
 * own pools: a request's server is picked as it is sent ({@link TargetChooser}), unless the
 * request names one ({@link LlmRequest#target()}: a conversation's later turns go to the
 * server of its first), and it goes out on a connection to that server, with that server's
 * Host header and path prefix.
 */
public final class LlmClient implements AutoCloseable {

  /**
   * A connection's {@link ResponseHandler}, kept on the channel: a closed channel's pipeline is
   * emptied, and the pool still asks a connection the server closed what it served.
   */
  private static final AttributeKey<ResponseHandler> HANDLER =
      AttributeKey.valueOf(LlmClient.class, "responseHandler");

  private final ClientConfig config;
  private final long keepAliveNanos;
  private final Bootstrap bootstrap;
  private final SslContext sslContext;
  /** Each loop's idle connections, one pool per server (index of {@link ClientConfig#targets()}). */
  private final Map<EventLoop, Pool[]> pools = new ConcurrentHashMap<>();
  private final List<Target> targets;
  /** Picks each request's server; null for one server, whose requests all go to it. */
  private final TargetChooser chooser;
  private volatile boolean closed;
  /** Told how long each request took from its clock start to its bytes being written. */
  private volatile LongConsumer writeTimes = nanos -> { };
  /** Told of every request sent again because its reused connection was stale. */
  private volatile Runnable resends = () -> { };
  private final ReuseWatch reuse = new ReuseWatch();

  public LlmClient(ChannelFactory<? extends SocketChannel> channelFactory, ClientConfig config) {
    this.config = config;
    this.keepAliveNanos = config.keepAliveTimeout().toNanos();
    this.targets = config.targets();
    this.chooser = targets.size() > 1 ? TargetChooser.of(config.strategy(), targets.size()) : null;
    this.sslContext = targets.stream().anyMatch(Target::tls)
        ? newSslContext(config.insecureTls()) : null;
    this.bootstrap = new Bootstrap()
        .channelFactory(channelFactory)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.SO_KEEPALIVE, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
            (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()));
  }

  public ClientConfig config() {
    return config;
  }

  /**
   * Requests picked for server {@code target} and not over yet; always 0 with one server,
   * whose requests are not counted.
   */
  public int inFlight(int target) {
    return chooser == null ? 0 : chooser.inFlight(target);
  }

  /** Receives, for every request written from now on, the nanos from its clock start. */
  public void onWritten(LongConsumer observer) {
    this.writeTimes = observer;
  }

  /** Is told of every request sent again from now on because its reused connection was stale. */
  public void onResent(Runnable observer) {
    this.resends = observer;
  }

  /**
   * Whether connections are reused: false once the server was seen to close each one right
   * after its response ({@link ReuseWatch}).
   */
  public boolean reusesConnections() {
    return reuse.reusing();
  }

  /**
   * How many of {@code loop}'s pooled connections are still open as far as the client knows
   * (it learns of a server's close when the loop reads it). Read on the loop; for tests that
   * must wait until a close has reached the client.
   */
  int openPooledConnections(EventLoop loop) throws Exception {
    return loop.submit(() -> (int) Arrays.stream(pools(loop))
        .flatMap(pool -> pool.channels.stream()).filter(Channel::isActive)
        .count()).get(10, TimeUnit.SECONDS);
  }

  /**
   * Sends {@code request} from {@code loop} and calls {@code onDone} exactly once with the
   * record, on the event loop of the connection it went out on.
   *
   * <p>Connections belong to a loop, and Gatling spreads users over several. When this
   * loop has no idle connection but another loop has, the request goes out there instead:
   * the pools act as one, as a single-loop client's would. Otherwise a permit freed by a
   * stream ending on one loop, handed to a user of another, would open a new connection
   * (inside that request's TTFT) while the idle one waits next door; at high concurrency
   * that was a connection storm, whose dropped SYNs cost seconds. The clock starts on the
   * loop that writes, right before it writes.
   */
  public void send(EventLoop loop, LlmRequest request, Consumer<RequestRecord> onDone) {
    send(loop, encode(request), onDone);
  }

  /**
   * The request as it will go on the wire. Encoding costs about as much CPU as writing: a
   * caller that knows a request ahead of its send time encodes it then and sends the result
   * with {@link #send(EventLoop, EncodedRequest, Consumer)}.
   *
   * @throws IllegalArgumentException a header name or value that HTTP does not allow
   */
  public EncodedRequest encode(LlmRequest request) {
    return EncodedRequest.encode(request, targets);
  }

  /** {@link #send(EventLoop, LlmRequest, Consumer)} for a request encoded by this client. */
  public void send(EventLoop loop, EncodedRequest request, Consumer<RequestRecord> onDone) {
    if (!loop.inEventLoop()) {
      loop.execute(() -> send(loop, request, onDone));
      return;
    }
    int target = target(request.request().target());
    try {
      if (pool(loop, target).size() == 0 && !closed && reuse.reusing()) {
        for (Map.Entry<EventLoop, Pool[]> other : pools.entrySet()) {
          if (other.getKey() != loop && other.getValue()[target].size() > 0) {
            EventLoop lender = other.getKey();
            try {
              lender.execute(() -> sendOn(lender, target, request, onDone));
              return;
            } catch (RejectedExecutionException shuttingDown) {
              break; // send from our own loop
            }
          }
        }
      }
      sendOn(loop, target, request, onDone);
    } catch (RuntimeException e) {
      if (chooser != null) {
        chooser.done(target); // never sent: not in flight
      }
      throw e;
    }
  }

  /**
   * The server of a request about to go out, counted in flight from now: the one it was
   * given (its conversation's), else the chooser's pick.
   */
  private int target(int given) {
    if (chooser == null) {
      return 0;
    }
    return given == LlmRequest.ANY_TARGET ? chooser.pick() : chooser.take(given);
  }

  private Pool[] pools(EventLoop loop) {
    return pools.computeIfAbsent(loop, l -> {
      Pool[] perTarget = new Pool[targets.size()];
      Arrays.setAll(perTarget, t -> new Pool());
      return perTarget;
    });
  }

  private Pool pool(EventLoop loop, int target) {
    return pools(loop)[target];
  }

  /**
   * A loop's idle connections, in the order they were released: the most recent is taken
   * first, so the longest idle are at the other end, where they expire. Only that loop
   * touches the deque; its size is readable from any loop, to find a lender.
   */
  private static final class Pool {
    private final ArrayDeque<Channel> channels = new ArrayDeque<>();
    private final AtomicInteger size = new AtomicInteger();

    int size() {
      return size.get();
    }

    /** The most recently released connection, or null. */
    Channel pollLast() {
      Channel ch = channels.pollLast();
      if (ch != null) {
        size.decrementAndGet();
      }
      return ch;
    }

    /** The longest idle connection, or null. */
    Channel peekFirst() {
      return channels.peekFirst();
    }

    Channel pollFirst() {
      Channel ch = channels.pollFirst();
      if (ch != null) {
        size.decrementAndGet();
      }
      return ch;
    }

    void add(Channel ch) {
      channels.addLast(ch);
      size.incrementAndGet();
    }
  }

  /**
   * One request's way through the client: the loop and server whose pool its connection goes
   * back to, its bytes (kept to send again), and who gets its record.
   */
  private final class Sending implements Exchange.Completion {
    private final EventLoop loop;
    private final int target;
    private final EncodedRequest request;
    private final Consumer<RequestRecord> onDone;

    Sending(EventLoop loop, int target, EncodedRequest request, Consumer<RequestRecord> onDone) {
      this.loop = loop;
      this.target = target;
      this.request = request;
      this.onDone = onDone;
    }

    @Override
    public void done(Exchange exchange, RequestRecord record, boolean reusable) {
      release(loop, target, exchange.channel(), reusable);
      if (chooser != null) {
        chooser.done(target); // whatever the end: answer, failure, timeout or cancel
      }
      onDone.accept(target == 0 ? record : record.withTarget(target));
    }

    @Override
    public boolean resend(Exchange exchange) {
      return LlmClient.this.resend(loop, target, exchange, request);
    }
  }

  private void sendOn(EventLoop loop, int target, EncodedRequest request,
      Consumer<RequestRecord> onDone) {
    long startNanos = System.nanoTime();
    Exchange exchange = new Exchange(request.request(), startNanos, config,
        new Sending(loop, target, request, onDone));
    if (closed) {
      // Never complete inside the caller's stack: the caller may be an action's execute().
      loop.execute(() -> exchange.failBeforeSend("client closed"));
      return;
    }
    Channel pooled = pollIdle(loop, target);
    if (pooled != null) {
      write(pooled, target, exchange, request, true);
      return;
    }
    connectAndWrite(loop, target, exchange, request);
  }

  /**
   * The request of {@code exchange}, written on a reused connection that closed (or was reset)
   * before any byte of its response came, goes out again on a new connection, as the
   * standard clients do with a stale pooled connection. Safe to send twice: the server did
   * not answer it, so it either never read it (it had closed the connection) or dropped it
   * unanswered; the benchmark wants its answer either way. The clock restarts now, as for a
   * request that opens a connection, so the stale attempt is in none of its times; its
   * {@code x-request-id} and concurrency permit are the same. Runs on {@code loop}, the
   * stale connection's.
   */
  private boolean resend(EventLoop loop, int target, Exchange exchange,
      EncodedRequest request) {
    if (closed) {
      return false;
    }
    Channel stale = exchange.channel();
    ResponseHandler handler = handlerOf(stale);
    if (handler != null) {
      closedByServer(handler);
    }
    release(loop, target, stale, false);
    resends.run();
    exchange.restart(System.nanoTime());
    connectAndWrite(loop, target, exchange, request);
    return true;
  }

  /** Sends on a new connection, which goes to {@code loop}'s pool after the response. */
  private void connectAndWrite(EventLoop loop, int target, Exchange exchange,
      EncodedRequest request) {
    ChannelFuture connect = connect(loop, target);
    connect.addListener(f -> {
      if (f.isSuccess()) {
        ResponseHandler handler = handlerOf(connect.channel());
        if (handler != null) {
          handler.connected(System.nanoTime()); // before the write this listener starts
        }
      }
      // A channel that could not even be created reports on a global executor: come back.
      Runnable then = f.isSuccess()
          ? () -> write(connect.channel(), target, exchange, request, false)
          : () -> exchange.failBeforeSend(connectError(f.cause()));
      if (loop.inEventLoop()) {
        then.run();
      } else {
        loop.execute(then);
      }
    });
  }

  /** The response handler of one of this client's connections, open or closed. */
  private static ResponseHandler handlerOf(Channel ch) {
    return ch.attr(HANDLER).get();
  }

  /** A new connection to server {@code target} on {@code loop}, with the response pipeline. */
  private ChannelFuture connect(EventLoop loop, int target) {
    long asked = System.nanoTime();
    Target server = targets.get(target);
    return bootstrap(loop, new ChannelInitializer<SocketChannel>() {
      @Override
      protected void initChannel(SocketChannel ch) {
        ResponseHandler handler = new ResponseHandler();
        handler.asked(asked);
        ch.attr(HANDLER).set(handler);
        ChannelHandler[] handlers = handler.handlers();
        // First in the pipeline: the stamp is the socket read, before TLS and HTTP decoding.
        ch.pipeline().addLast(handlers[0]);
        if (server.tls()) {
          ch.pipeline().addLast(sslContext.newHandler(ch.alloc(), server.host(), server.port()));
        }
        ch.pipeline().addLast(Arrays.copyOfRange(handlers, 1, handlers.length));
      }
    }).connect(server.host(), server.port());
  }

  /**
   * Opens a connection with the run's pipeline and closes it from its loop, as an idle one
   * past the keep-alive timeout is closed. For the warm-up: in a run, connections the
   * warm-up opened expire while the load is low, and the first ones closed compiled
   * Netty's whole close path on the client's core, in the run (96 methods in 150 ms, a
   * 69 ms loop lag, at 1,000 req/s). Waits; never call it from an event loop.
   *
   * @return null when it worked, else why it did not
   */
  public String openAndClose(EventLoop loop) {
    ChannelFuture connect = connectAndWait(loop, 0);
    if (!connect.isSuccess()) {
      return connectProblem(connect);
    }
    long waitMillis = config.connectTimeout().toMillis() + 1_000;
    Channel ch = connect.channel();
    loop.execute(ch::close);
    ch.closeFuture().awaitUninterruptibly(waitMillis);
    return null;
  }

  /** Most connects {@link #openIdle} has in flight at once: no SYN storm at the server. */
  static final int OPEN_IDLE_AT_ONCE = 64;

  /**
   * Opens {@code count} connections with the run's pipeline, spread over {@code loops}, and
   * leaves them idle in the loops' pools (as many to each server, each server's spread over
   * the loops), as a warm-up's requests would have left them,
   * without sending anything on them: the run's first requests then find connections as its
   * later ones do, and their TTFT carries no connect. At most {@value #OPEN_IDLE_AT_ONCE}
   * connects at once, all within {@code within}: what is not open by then is not waited for
   * (a server that closes idle connections after a few seconds would close the first ones
   * before the run). A connection the server closes while it waits is found closed, or sent
   * on again, as any pooled one. Waits; never call it from an event loop.
   *
   * @return how many were opened and pooled
   */
  public int openIdle(List<EventLoop> loops, int count, Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    AtomicInteger pooled = new AtomicInteger();
    for (int first = 0; first < count && System.nanoTime() < deadline;
        first += OPEN_IDLE_AT_ONCE) {
      List<ChannelFuture> batch = new ArrayList<>();
      for (int i = first; i < Math.min(count, first + OPEN_IDLE_AT_ONCE); i++) {
        // each server in turn, each server's spread over the loops
        int target = i % targets.size();
        EventLoop loop = loops.get((i / targets.size()) % loops.size());
        ChannelFuture connect = connect(loop, target);
        connect.addListener(f -> {
          Channel ch = connect.channel();
          if (!f.isSuccess()) {
            return;
          }
          // on the channel's own loop (listeners run there): pool it, or close it when late
          if (closed || !reuse.reusing() || System.nanoTime() > deadline) {
            ch.close();
          } else {
            handlerOf(ch).end(); // idle from now
            putBack(loop, target, ch);
            pooled.incrementAndGet();
          }
        });
        batch.add(connect);
      }
      for (ChannelFuture connect : batch) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || !connect.awaitUninterruptibly(TimeUnit.NANOSECONDS.toMillis(left))) {
          connect.channel().close(); // still connecting: not waited for
        }
      }
    }
    // the pooling listeners run on the loops right after their connects complete: let them
    for (EventLoop loop : loops) {
      try {
        loop.submit(() -> { }).get(1, TimeUnit.SECONDS);
      } catch (Exception e) {
        break; // a loop shutting down: the count is what it is
      }
    }
    return pooled.get();
  }

  /** Connects from {@code loop} with the run's pipeline and waits, a second past the timeout. */
  private ChannelFuture connectAndWait(EventLoop loop, int target) {
    ChannelFuture connect = connect(loop, target);
    if (!connect.awaitUninterruptibly(config.connectTimeout().toMillis() + 1_000)) {
      connect.cancel(false);
    }
    return connect;
  }

  /** Why a connect that {@link #connectAndWait} gave back did not succeed. */
  private static String connectProblem(ChannelFuture connect) {
    return connect.isDone() && connect.cause() != null && !connect.isCancelled()
        ? connectError(connect.cause()) : "connect failed: timeout";
  }

  Bootstrap bootstrap(EventLoop loop, ChannelHandler handler) {
    return bootstrap.clone(loop).handler(handler);
  }

  private void write(Channel ch, int target, Exchange exchange, EncodedRequest request,
      boolean reused) {
    ResponseHandler handler = handlerOf(ch);
    handler.begin(exchange);
    exchange.attach(ch, reused, handler);
    // Already encoded (the pipeline has no request encoder): one buffer, one write.
    ChannelFuture written = ch.writeAndFlush(request.perTarget()
        ? handler.outbound(ch.alloc(), request.head(target), request.bytes())
        : handler.outbound(ch.alloc(), request.bytes()));
    if (written.isDone()) { // the usual case: no listener to allocate and notify
      written(written, exchange);
    } else {
      written.addListener(f -> written((ChannelFuture) f, exchange));
    }
    // The timeouts after the sends this task makes, not between them (see armTimers).
    try {
      ch.eventLoop().execute(exchange::armTimers);
    } catch (RejectedExecutionException shuttingDown) {
      exchange.armTimers();
    }
  }

  private void written(ChannelFuture write, Exchange exchange) {
    if (exchange.channel() != write.channel()) {
      return; // the connection was stale and the request went out again: that write counts
    }
    if (write.isSuccess()) {
      long now = System.nanoTime();
      exchange.written(now);
      writeTimes.accept(now - exchange.startNanos());
    } else {
      exchange.onException(write.cause());
    }
  }

  /**
   * The most recently released connection that can take a request, or null. This runs
   * between a request's clock start and its write, so it never closes a connection itself:
   * closing one on loopback costs tens of µs (the FIN is processed on this core), and when a
   * dip in load once let the warm-up's connections expire, the send path closed them all in
   * a row, 12 ms that every send then due waited for (1,000 req/s, 2.3 s into the run).
   * Expired connections are closed one per release instead ({@link #release}); one found
   * here is closed after this send.
   */
  private Channel pollIdle(EventLoop loop, int target) {
    if (!reuse.reusing()) {
      return null;
    }
    Pool pool = pool(loop, target);
    long now = System.nanoTime();
    Channel ch;
    while ((ch = pool.pollLast()) != null) {
      ResponseHandler handler = handlerOf(ch);
      if (usable(ch, handler, now)) {
        return ch;
      }
      if (!ch.isActive()) {
        if (handler != null) {
          closedByServer(handler);
        }
        ch.close(); // the peer closed it already: nothing left to send
        continue;
      }
      try {
        loop.execute(ch::close);
      } catch (RejectedExecutionException shuttingDown) {
        ch.close();
      }
      if (handler != null && expired(handler, now)) {
        // The rest of the pool was released earlier: expired too (its server's limit, when it
        // announced one, is the same on each of its connections).
        return null;
      }
    }
    return null;
  }

  private boolean usable(Channel ch, ResponseHandler handler, long now) {
    return ch.isActive() && handler != null && handler.readyForNext() && !expired(handler, now);
  }

  private boolean expired(ResponseHandler handler, long now) {
    return now - handler.idleSince() >= handler.idleLimitNanos(keepAliveNanos);
  }

  /**
   * Gives a connection back after a response, to its loop's pool when it can carry another
   * request ({@code reusable}: the response was read whole and did not say
   * {@code Connection: close}; and within the server's {@code Keep-Alive: max}), else closes
   * it. A connection the server already closed is noted for the {@link ReuseWatch}, as is one
   * that served more than one response (its server keeps connections open).
   */
  private void release(EventLoop loop, int target, Channel ch, boolean reusable) {
    if (ch == null) {
      return;
    }
    ResponseHandler handler = handlerOf(ch);
    if (handler != null) {
      handler.end();
      if (handler.responses() > 1) {
        reuse.keptOpen(); // the server left it open after a response
      }
    }
    if (reusable && !closed && handler != null && handler.mayServeAnother()) {
      if (!ch.isActive()) {
        closedByServer(handler);
      } else if (reuse.reusing()) {
        putBack(loop, target, ch);
        return;
      }
    }
    ch.close();
    if (!reuse.reusing()) {
      // Connections pooled before the reuse stopped: one closed per release, as expired ones.
      Channel leftover = pool(loop, target).pollFirst();
      if (leftover != null) {
        leftover.close();
      }
    }
  }

  private void putBack(EventLoop loop, int target, Channel ch) {
    Pool pool = pool(loop, target);
    pool.add(ch);
    // Keep the pool free of expired connections a little at a time, oldest first.
    Channel oldest = pool.peekFirst();
    if (oldest == ch) {
      return;
    }
    ResponseHandler handler = handlerOf(oldest);
    if (!usable(oldest, handler, System.nanoTime())) {
      if (handler != null && !oldest.isActive()) {
        closedByServer(handler);
      }
      pool.pollFirst().close();
    }
  }

  /**
   * The server closed a connection that had served a response: how soon after it? Only a
   * connection's first response counts: one that served more proves the server keeps them
   * (and a restart of the server, closing every connection at once, is not a habit).
   */
  private void closedByServer(ResponseHandler handler) {
    if (handler.responses() != 1) {
      return;
    }
    long closedAt = handler.closedNanos();
    reuse.closedByServer((closedAt < 0 ? System.nanoTime() : closedAt) - handler.idleSince());
  }

  static String connectError(Throwable cause) {
    String kind = cause == null ? "unknown" : cause.getClass().getSimpleName();
    String message = cause == null ? null : cause.getMessage();
    if (message != null && message.contains("Connection refused")) {
      return "connect failed: connection refused";
    }
    if (kind.contains("Timeout")) {
      return "connect failed: timeout";
    }
    return "connect failed: " + kind + (message == null ? "" : ": " + message);
  }

  private static SslContext newSslContext(boolean insecure) {
    try {
      SslContextBuilder builder = SslContextBuilder.forClient();
      if (insecure) {
        builder.trustManager(InsecureTrustManagerFactory.INSTANCE)
            .endpointIdentificationAlgorithm(null);
      }
      return builder.build();
    } catch (SSLException e) {
      throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /** Closes idle connections; requests in flight end with their own outcome. */
  @Override
  public void close() {
    closed = true;
    pools.forEach((loop, perTarget) -> {
      try {
        loop.execute(() -> {
          for (Pool pool : perTarget) {
            Channel ch;
            while ((ch = pool.pollLast()) != null) {
              ch.close();
            }
          }
        });
      } catch (RejectedExecutionException loopAlreadyDown) {
        // its channels were closed with it
      }
    });
  }
}
