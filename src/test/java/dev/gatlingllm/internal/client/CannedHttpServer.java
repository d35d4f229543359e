package dev.gatlingllm.internal.client;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP server for client tests that answers every request with the same raw bytes
 * and remembers what came over the wire: how many connections were opened and closed, and
 * each request's connection, method, URI, headers and body. Unlike the simulator it lets a
 * test see the client's own bytes and its connection reuse. Public for the action tests.
 */
public final class CannedHttpServer implements AutoCloseable {

  /** One request as the server received it. */
  public record Received(int connection, String method, String uri, HttpHeaders headers, String body) {}

  private final EventLoopGroup group =
      new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel server;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger closedConnections = new AtomicInteger();
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final byte[] response;
  private final int pauseAt;
  private final long pauseMillis;
  private final boolean closeAfterResponse;

  /** Sends {@code rawResponse}, waiting {@code pauseMillis} after its first {@code pauseAt} bytes. */
  private CannedHttpServer(String rawResponse, int pauseAt, long pauseMillis,
      boolean closeAfterResponse) {
    this(rawResponse.getBytes(StandardCharsets.UTF_8), pauseAt, pauseMillis, closeAfterResponse,
        null);
  }

  private CannedHttpServer(byte[] rawResponse, int pauseAt, long pauseMillis,
      boolean closeAfterResponse, SslContext tls) {
    this.response = rawResponse;
    this.pauseAt = pauseAt;
    this.pauseMillis = pauseMillis;
    this.closeAfterResponse = closeAfterResponse;
    this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            int id = connections.incrementAndGet();
            ch.closeFuture().addListener(f -> closedConnections.incrementAndGet());
            if (tls != null) {
              ch.pipeline().addLast(tls.newHandler(ch.alloc()));
            }
            // A decoder and an encoder apart, not Netty's HttpServerCodec: the canned bytes
            // skip the encoder, and since Netty 4.2.18 that codec stops reading a connection
            // (maxPipelineDepth) once 128 requests wait for a response it did not encode.
            ch.pipeline().addLast(new HttpRequestDecoder(), new HttpResponseEncoder(),
                new HttpObjectAggregator(1 << 20),
                new SimpleChannelInboundHandler<FullHttpRequest>() {
                  @Override
                  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
                    if (req.method().name().equals("GET") && req.uri().equals("/v1/models")) {
                      // the run's model check: answered as a server without the endpoint, and
                      // not counted, since these tests count what the actions send
                      ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                          HttpResponseStatus.NOT_FOUND)).addListener(ChannelFutureListener.CLOSE);
                      return;
                    }
                    received.add(new Received(id, req.method().name(), req.uri(),
                        req.headers().copy(), req.content().toString(StandardCharsets.UTF_8)));
                    // Written from the encoder's own context, so the raw bytes skip it: the
                    // test owns the exact response.
                    ChannelHandlerContext raw = ctx.pipeline().context(HttpResponseEncoder.class);
                    raw.writeAndFlush(Unpooled.wrappedBuffer(response, 0, pauseAt));
                    ctx.executor().schedule(() -> {
                      var write = raw.writeAndFlush(Unpooled.wrappedBuffer(response, pauseAt,
                          response.length - pauseAt));
                      if (closeAfterResponse) {
                        write.addListener(ChannelFutureListener.CLOSE);
                      }
                    }, pauseMillis, TimeUnit.MILLISECONDS);
                  }
                });
          }
        })
        .bind("127.0.0.1", 0).syncUninterruptibly().channel();
  }

  private static final String SSE_HEAD = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
      + "transfer-encoding: chunked\r\n\r\n";

  private static String chunk(String piece) {
    return Integer.toHexString(piece.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + piece
        + "\r\n";
  }

  /** A keep-alive server that streams {@code sse} (already SSE-framed) as one chunked body. */
  public static CannedHttpServer streaming(String sse) {
    String all = SSE_HEAD + chunk(sse) + "0\r\n\r\n";
    return new CannedHttpServer(all, all.getBytes(StandardCharsets.UTF_8).length, 0, false);
  }

  /** Streams {@code first}, waits {@code pauseMillis}, then streams {@code rest}. */
  public static CannedHttpServer streamingWithPause(String first, long pauseMillis, String rest) {
    String head = SSE_HEAD + chunk(first);
    return new CannedHttpServer(head + chunk(rest) + "0\r\n\r\n",
        head.getBytes(StandardCharsets.UTF_8).length, pauseMillis, false);
  }

  /** A server that sends {@code raw} and, when asked, closes the connection after it. */
  public static CannedHttpServer raw(String raw, boolean closeAfterResponse) {
    return new CannedHttpServer(raw, raw.getBytes(StandardCharsets.UTF_8).length, 0,
        closeAfterResponse);
  }

  /** {@link #raw} with bytes that need not be UTF-8 (compressed bodies, broken text). */
  public static CannedHttpServer rawBytes(byte[] raw, boolean closeAfterResponse) {
    return new CannedHttpServer(raw, raw.length, 0, closeAfterResponse, null);
  }

  /** A TLS server that streams {@code sse} with the certificate of {@code tls}. */
  public static CannedHttpServer streamingOverTls(String sse, SslContext tls) {
    byte[] all = (SSE_HEAD + chunk(sse) + "0\r\n\r\n").getBytes(StandardCharsets.UTF_8);
    return new CannedHttpServer(all, all.length, 0, false, tls);
  }

  /** A server that answers {@code raw} only after {@code delayMillis}. */
  public static CannedHttpServer delayed(String raw, long delayMillis) {
    return new CannedHttpServer(raw, 0, delayMillis, false);
  }

  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + port();
  }

  public int connections() {
    return connections.get();
  }

  public int closedConnections() {
    return closedConnections.get();
  }

  public List<Received> received() {
    return received;
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
