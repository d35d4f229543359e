package dev.gatlingllm.internal.client;

import static dev.gatlingllm.internal.client.Connector.handlerOf;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
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

/**
 * The client's idle connections: one pool per event loop and server, each connection kept
 * alive within the server's limits ({@code Keep-Alive: timeout/max}, {@code Connection:
 * close}) and the client's own keep-alive timeout, and the {@link ReuseWatch} that stops
 * reusing connections when the server closes each one right after its response. A pool is
 * only touched on its loop; its size is readable from any, to find a loop that can lend one.
 */
final class ConnectionPools {

  private final Connector connector;
  private final int targets;
  private final long keepAliveNanos;
  /** Each loop's idle connections, one pool per server (index of {@link ClientConfig#targets()}). */
  private final Map<EventLoop, Pool[]> pools = new ConcurrentHashMap<>();
  private final ReuseWatch reuse = new ReuseWatch();
  private volatile boolean closed;

  ConnectionPools(Connector connector, ClientConfig config) {
    this.connector = connector;
    this.targets = config.targets().size();
    this.keepAliveNanos = config.keepAliveTimeout().toNanos();
  }

  /** Whether {@link #close} was called: nothing is pooled or sent any more. */
  boolean closed() {
    return closed;
  }

  /** Whether connections are reused: false once the server was seen to close each one. */
  boolean reusing() {
    return reuse.reusing();
  }

  /**
   * Another loop with an idle connection to {@code target} when {@code loop} has none, or
   * null: the pools act as one, as a single-loop client's would (see
   * {@link LlmClient#send(EventLoop, LlmRequest, java.util.function.Consumer)}).
   */
  EventLoop lender(EventLoop loop, int target) {
    if (pool(loop, target).size() != 0 || closed || !reuse.reusing()) {
      return null;
    }
    for (Map.Entry<EventLoop, Pool[]> other : pools.entrySet()) {
      if (other.getKey() != loop && other.getValue()[target].size() > 0) {
        return other.getKey();
      }
    }
    return null;
  }

  private Pool[] pools(EventLoop loop) {
    return pools.computeIfAbsent(loop, l -> {
      Pool[] perTarget = new Pool[targets];
      Arrays.setAll(perTarget, t -> new Pool());
      return perTarget;
    });
  }

  private Pool pool(EventLoop loop, int target) {
    return pools(loop)[target];
  }

  /** See {@link LlmClient#openPooledConnections}. */
  int openPooledConnections(EventLoop loop) throws Exception {
    return loop.submit(() -> (int) Arrays.stream(pools(loop))
        .flatMap(pool -> pool.channels.stream()).filter(Channel::isActive)
        .count()).get(10, TimeUnit.SECONDS);
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

  /** Most connects {@link #openIdle} has in flight at once: no SYN storm at the server. */
  static final int OPEN_IDLE_AT_ONCE = 64;

  /** See {@link LlmClient#openIdle}. */
  int openIdle(List<EventLoop> loops, int count, Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    AtomicInteger pooled = new AtomicInteger();
    for (int first = 0; first < count && System.nanoTime() < deadline;
        first += OPEN_IDLE_AT_ONCE) {
      List<ChannelFuture> batch = new ArrayList<>();
      for (int i = first; i < Math.min(count, first + OPEN_IDLE_AT_ONCE); i++) {
        // each server in turn, each server's spread over the loops
        int target = i % targets;
        EventLoop loop = loops.get((i / targets) % loops.size());
        ChannelFuture connect = connector.connect(loop, target);
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

  /**
   * The most recently released connection that can take a request, or null. This runs
   * between a request's clock start and its write, so it never closes a connection itself:
   * closing one on loopback costs tens of µs (the FIN is processed on this core), and when a
   * dip in load once let the warm-up's connections expire, the send path closed them all in
   * a row, 12 ms that every send then due waited for (1,000 req/s, 2.3 s into the run).
   * Expired connections are closed one per release instead ({@link #release}); one found
   * here is closed after this send.
   */
  Channel pollIdle(EventLoop loop, int target) {
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
  void release(EventLoop loop, int target, Channel ch, boolean reusable) {
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
  void closedByServer(ResponseHandler handler) {
    if (handler.responses() != 1) {
      return;
    }
    long closedAt = handler.closedNanos();
    reuse.closedByServer((closedAt < 0 ? System.nanoTime() : closedAt) - handler.idleSince());
  }

  /** Stops pooling and closes the idle connections, each from its loop. */
  void close() {
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
