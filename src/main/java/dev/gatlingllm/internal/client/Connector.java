package dev.gatlingllm.internal.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.AttributeKey;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * How the client's connections are made: the socket options, TLS for an {@code https} server,
 * and the response pipeline, one {@link ResponseHandler} per connection, kept on the channel.
 * A new connection to one of the run's servers, on the loop that will use it; nothing here
 * sends a request or keeps a connection (that is {@link LlmClient} and {@link ConnectionPools}).
 */
final class Connector {

  /**
   * A connection's {@link ResponseHandler}, kept on the channel: a closed channel's pipeline is
   * emptied, and the pool still asks a connection the server closed what it served.
   */
  private static final AttributeKey<ResponseHandler> HANDLER =
      AttributeKey.valueOf(LlmClient.class, "responseHandler");

  private final ClientConfig config;
  private final List<Target> targets;
  private final Bootstrap bootstrap;
  private final SslContext sslContext;

  Connector(ChannelFactory<? extends SocketChannel> channelFactory, ClientConfig config) {
    this.config = config;
    this.targets = config.targets();
    this.sslContext = targets.stream().anyMatch(Target::tls)
        ? newSslContext(config.insecureTls()) : null;
    this.bootstrap = new Bootstrap()
        .channelFactory(channelFactory)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.SO_KEEPALIVE, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
            (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()));
  }

  /** The response handler of one of this client's connections, open or closed. */
  static ResponseHandler handlerOf(Channel ch) {
    return ch.attr(HANDLER).get();
  }

  /** A new connection to server {@code target} on {@code loop}, with the response pipeline. */
  ChannelFuture connect(EventLoop loop, int target) {
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

  /** The client's socket options on {@code loop}, with {@code handler} as the pipeline. */
  Bootstrap bootstrap(EventLoop loop, ChannelHandler handler) {
    return bootstrap.clone(loop).handler(handler);
  }

  /**
   * Opens a connection with the run's pipeline and closes it from its loop, as an idle one
   * past the keep-alive timeout is closed; see {@link LlmClient#openAndClose}. Waits.
   *
   * @return null when it worked, else why it did not
   */
  String openAndClose(EventLoop loop) {
    ChannelFuture connect = connect(loop, 0);
    if (!connect.awaitUninterruptibly(config.connectTimeout().toMillis() + 1_000)) {
      connect.cancel(false);
    }
    if (!connect.isSuccess()) {
      return connect.isDone() && connect.cause() != null && !connect.isCancelled()
          ? connectError(connect.cause()) : "connect failed: timeout";
    }
    long waitMillis = config.connectTimeout().toMillis() + 1_000;
    Channel ch = connect.channel();
    loop.execute(ch::close);
    ch.closeFuture().awaitUninterruptibly(waitMillis);
    return null;
  }

  /** A failed connect in a few words, for the request's error and the run's checks. */
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
}
