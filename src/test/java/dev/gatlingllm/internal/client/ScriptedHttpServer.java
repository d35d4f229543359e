package dev.gatlingllm.internal.client;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback server whose every request is handled as a script says, from the request's
 * number on its connection and overall: answered (a two-token event stream, with extra
 * headers, the connection kept or closed after it), or dropped unanswered (closed, reset, or
 * closed after an interim response), now or after a delay. It counts connections and keeps
 * each request's connection and {@code x-request-id}, so a test sees what the client sent
 * where: how it reused connections and what it sent again.
 */
final class ScriptedHttpServer implements AutoCloseable {

  /** The text the client reads from an answer. */
  static final String TEXT = " zero one";

  /** One request as received. */
  record Received(int connection, int onConnection, String requestId, long nanos) {}

  /**
   * What to do with one request.
   *
   * @param delayMillis how long before the close, after the answer if there is one
   */
  record Action(Kind kind, String headers, long delayMillis) {
    enum Kind { ANSWER, ANSWER_AND_CLOSE, CLOSE, RESET, INTERIM_AND_CLOSE }

    /** Answers, with {@code headers} (each line ending in CRLF) in the head; keeps the connection. */
    static Action answer(String headers) {
      return new Action(Kind.ANSWER, headers, 0);
    }

    /** Answers, then closes the connection right after the last chunk, without saying so. */
    static Action answerAndClose(String headers) {
      return answerAndClose(headers, 0);
    }

    /** Answers, then closes the connection {@code delayMillis} after the last chunk. */
    static Action answerAndClose(String headers, long delayMillis) {
      return new Action(Kind.ANSWER_AND_CLOSE, headers, delayMillis);
    }

    /** Closes the connection without answering, after {@code delayMillis}. */
    static Action close(long delayMillis) {
      return new Action(Kind.CLOSE, "", delayMillis);
    }

    /** Resets the connection (RST) without answering. */
    static Action reset() {
      return new Action(Kind.RESET, "", 0);
    }

    /** Sends {@code 103 Early Hints}, then closes without the real response. */
    static Action interimAndClose() {
      return new Action(Kind.INTERIM_AND_CLOSE, "", 0);
    }
  }

  /** Decides each request's fate. */
  interface Script {
    /**
     * @param onConnection the request's number on its connection, from 1
     * @param overall      the request's number on the server, from 1
     */
    Action next(int onConnection, int overall);
  }

  private static final String STREAM =
      "data: {\"choices\":[{\"index\":0,\"text\":\" zero\"}]}\n\n"
          + "data: {\"choices\":[{\"index\":0,\"text\":\" one\"}]}\n\n"
          + "data: [DONE]\n\n";

  private final EventLoopGroup group =
      new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel server;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger closed = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final boolean tls;
  private final List<Channel> open = new CopyOnWriteArrayList<>();

  ScriptedHttpServer(Script script) {
    this(script, null);
  }

  /** Over TLS with {@code tls}'s certificate, when not null. */
  ScriptedHttpServer(Script script, SslContext tls) {
    this.tls = tls != null;
    this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            int id = connections.incrementAndGet();
            open.add(ch);
            ch.closeFuture().addListener(f -> {
              open.remove(ch);
              closed.incrementAndGet();
            });
            AtomicInteger onConnection = new AtomicInteger();
            // Once a connection is to be closed, what else comes on it is never read: the
            // write of an answer can still be in flight when the next request arrives.
            AtomicBoolean closing = new AtomicBoolean();
            if (tls != null) {
              ch.pipeline().addLast(tls.newHandler(ch.alloc()));
            }
            // A decoder and an encoder apart, as in CannedHttpServer: Netty's HttpServerCodec
            // stops reading after 128 requests whose responses skipped its encoder.
            ch.pipeline().addLast(new HttpRequestDecoder(), new HttpResponseEncoder(),
                new HttpObjectAggregator(1 << 16),
                new SimpleChannelInboundHandler<FullHttpRequest>() {
                  @Override
                  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
                    if (closing.get()) {
                      return;
                    }
                    int n = onConnection.incrementAndGet();
                    received.add(new Received(id, n, req.headers().get("x-request-id"),
                        System.nanoTime()));
                    Action action = script.next(n, requests.incrementAndGet());
                    closing.set(action.kind() != Action.Kind.ANSWER);
                    act(ctx, action);
                  }
                });
          }
        })
        .bind("127.0.0.1", 0).syncUninterruptibly().channel();
  }

  private static void act(ChannelHandlerContext ctx, Action action) {
    // Raw bytes from the encoder's own context skip it: the test owns the response.
    ChannelHandlerContext raw = ctx.pipeline().context(HttpResponseEncoder.class);
    switch (action.kind()) {
      case ANSWER -> raw.writeAndFlush(bytes(response(action.headers())));
      case ANSWER_AND_CLOSE -> raw.writeAndFlush(bytes(response(action.headers())))
          .addListener(f -> closeAfter(ctx, action.delayMillis()));
      case CLOSE -> closeAfter(ctx, action.delayMillis());
      case RESET -> {
        ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        ctx.close();
      }
      case INTERIM_AND_CLOSE -> raw.writeAndFlush(bytes("HTTP/1.1 103 Early Hints\r\n\r\n"))
          .addListener(ChannelFutureListener.CLOSE);
    }
  }

  private static void closeAfter(ChannelHandlerContext ctx, long delayMillis) {
    if (delayMillis == 0) {
      ctx.close();
    } else {
      ctx.executor().schedule(() -> ctx.close(), delayMillis, TimeUnit.MILLISECONDS);
    }
  }

  private static String response(String headers) {
    int length = STREAM.getBytes(StandardCharsets.UTF_8).length;
    return "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n"
        + headers + "\r\n" + Integer.toHexString(length) + "\r\n" + STREAM + "\r\n0\r\n\r\n";
  }

  private static ByteBuf bytes(String s) {
    return Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.UTF_8));
  }

  String baseUrl() {
    return (tls ? "https" : "http") + "://127.0.0.1:"
        + ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** Connections accepted so far. */
  int connections() {
    return connections.get();
  }

  /** Connections closed so far, by either side. */
  int closedConnections() {
    return closed.get();
  }

  /** Closes every open connection, as a server that restarts does. */
  void closeConnections() {
    open.forEach(Channel::close);
  }

  /** Every request received, in order. */
  List<Received> received() {
    return received;
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
