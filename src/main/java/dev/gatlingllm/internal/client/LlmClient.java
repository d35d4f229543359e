package dev.gatlingllm.internal.client;

import static dev.gatlingllm.internal.client.Connector.handlerOf;

import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

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
 *
 * <p>This class is the request's way out and back; how a connection is made is
 * {@link Connector}'s, and which idle connections are kept {@link ConnectionPools}'.
 */
public final class LlmClient implements AutoCloseable {

  private final ClientConfig config;
  private final Connector connector;
  private final ConnectionPools pools;
  private final List<Target> targets;
  /** Picks each request's server; null for one server, whose requests all go to it. */
  private final TargetChooser chooser;
  /** Told how long each request took from its clock start to its bytes being written. */
  private volatile LongConsumer writeTimes = nanos -> { };
  /** Told of every request sent again because its reused connection was stale. */
  private volatile Runnable resends = () -> { };

  public LlmClient(ChannelFactory<? extends SocketChannel> channelFactory, ClientConfig config) {
    this.config = config;
    this.targets = config.targets();
    this.chooser = targets.size() > 1 ? TargetChooser.of(config.strategy(), targets.size()) : null;
    this.connector = new Connector(channelFactory, config);
    this.pools = new ConnectionPools(connector, config);
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
    return pools.reusing();
  }

  /**
   * How many of {@code loop}'s pooled connections are still open as far as the client knows
   * (it learns of a server's close when the loop reads it). Read on the loop; for tests that
   * must wait until a close has reached the client.
   */
  int openPooledConnections(EventLoop loop) throws Exception {
    return pools.openPooledConnections(loop);
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
      EventLoop lender = pools.lender(loop, target);
      if (lender != null) {
        try {
          lender.execute(() -> sendOn(lender, target, request, onDone));
          return;
        } catch (RejectedExecutionException shuttingDown) {
          // send from our own loop
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
      pools.release(loop, target, exchange.channel(), reusable);
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
    if (pools.closed()) {
      // Never complete inside the caller's stack: the caller may be an action's execute().
      loop.execute(() -> exchange.failBeforeSend("client closed"));
      return;
    }
    Channel pooled = pools.pollIdle(loop, target);
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
    if (pools.closed()) {
      return false;
    }
    Channel stale = exchange.channel();
    ResponseHandler handler = handlerOf(stale);
    if (handler != null) {
      pools.closedByServer(handler);
    }
    pools.release(loop, target, stale, false);
    resends.run();
    exchange.restart(System.nanoTime());
    connectAndWrite(loop, target, exchange, request);
    return true;
  }

  /** Sends on a new connection, which goes to {@code loop}'s pool after the response. */
  private void connectAndWrite(EventLoop loop, int target, Exchange exchange,
      EncodedRequest request) {
    ChannelFuture connect = connector.connect(loop, target);
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
          : () -> exchange.failBeforeSend(Connector.connectError(f.cause()));
      if (loop.inEventLoop()) {
        then.run();
      } else {
        loop.execute(then);
      }
    });
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
   * Opens a connection with the run's pipeline and closes it from its loop, as an idle one
   * past the keep-alive timeout is closed. For the warm-up: in a run, connections the
   * warm-up opened expire while the load is low, and the first ones closed compiled
   * Netty's whole close path on the client's core, in the run (96 methods in 150 ms, a
   * 69 ms loop lag, at 1,000 req/s). Waits; never call it from an event loop.
   *
   * @return null when it worked, else why it did not
   */
  public String openAndClose(EventLoop loop) {
    return connector.openAndClose(loop);
  }

  /**
   * Opens {@code count} connections with the run's pipeline, spread over {@code loops}, and
   * leaves them idle in the loops' pools (as many to each server, each server's spread over
   * the loops), as a warm-up's requests would have left them, without sending anything on
   * them: the run's first requests then find connections as its later ones do, and their TTFT
   * carries no connect. At most {@value ConnectionPools#OPEN_IDLE_AT_ONCE} connects at once,
   * all within {@code within}: what is not open by then is not waited for
   * (a server that closes idle connections after a few seconds would close the first ones
   * before the run). A connection the server closes while it waits is found closed, or sent
   * on again, as any pooled one. Waits; never call it from an event loop.
   *
   * @return how many were opened and pooled
   */
  public int openIdle(List<EventLoop> loops, int count, Duration within) {
    return pools.openIdle(loops, count, within);
  }

  /** The client's socket options on {@code loop}, with {@code handler} as the pipeline. */
  Bootstrap bootstrap(EventLoop loop, ChannelHandler handler) {
    return connector.bootstrap(loop, handler);
  }

  /** Closes idle connections; requests in flight end with their own outcome. */
  @Override
  public void close() {
    pools.close();
  }
}
