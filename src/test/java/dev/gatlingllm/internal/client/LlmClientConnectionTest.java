package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client's connection handling over real loopback sockets: the request, connect and
 * keep-alive timeouts, and the reuse of kept-alive connections, counted on the server side.
 * Every wait is bounded by the test; no assertion needs the machine to be fast, only the
 * time bounds that are the feature itself (a timeout cannot fire before it is due).
 */
@Timeout(60)
class LlmClientConnectionTest {

  private static final Duration NONE = Duration.ZERO;
  private static final Duration LONG = Duration.ofMinutes(1);

  /** One event loop, as a virtual user has: all requests go out from it, so they share its pool. */
  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final EventLoop loop = group.next();
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : toClose) {
      c.close();
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
  }

  private LlmClient client(String baseUrl, Duration connect, Duration request, Duration keepAlive) {
    LlmClient client = new LlmClient(NioSocketChannel::new, new ClientConfig(
        Target.parse(baseUrl), connect, NONE, LONG, request, keepAlive));
    toClose.add(client);
    return client;
  }

  /** Sends one streamed completion of {@code maxTokens} tokens and waits for its record. */
  private RequestRecord send(LlmClient client, int maxTokens) throws Exception {
    byte[] body = ("{\"model\":\"sim-model\",\"prompt\":\"p\",\"max_tokens\":" + maxTokens
        + ",\"stream\":true}").getBytes(StandardCharsets.UTF_8);
    CompletableFuture<RequestRecord> done = new CompletableFuture<>();
    client.send(loop, new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(), body, 1,
        LlmRequest.NOT_SCHEDULED), done::complete);
    return done.get(20, TimeUnit.SECONDS);
  }

  private static double elapsedMillis(RequestRecord r) {
    return (r.endNanos() - r.startNanos()) / 1e6;
  }

  @Test
  void requestTimeoutEndsAStreamThatIsStillSendingTokens() throws Exception {
    // 1000 tokens 20 ms apart: a 20 s stream that never goes quiet, so only the request
    // timeout can end it (idle timeout 1 min, no first-token timeout).
    Simulator sim = Simulator.start(SimulatorConfig.builder()
        .ttft(Duration.ofMillis(10)).itl(Duration.ofMillis(20)).build());
    toClose.add(sim);
    // A fresh JVM's first request takes seconds of class loading: pay that before timing one.
    assertTrue(send(client(sim.baseUrl(), Duration.ofSeconds(5), LONG, LONG), 2).success());
    LlmClient client = client(sim.baseUrl(), Duration.ofSeconds(5), Duration.ofSeconds(1), LONG);

    RequestRecord r = send(client, 1000);

    assertFalse(r.success());
    assertEquals("request timeout (1 s)", r.error());
    assertEquals(200, r.httpStatus());
    assertTrue(r.chunkMicros().length > 1, "tokens were flowing: " + r.chunkMicros().length);
    assertTrue(elapsedMillis(r) >= 1000, "not before it is due: " + elapsedMillis(r) + " ms");
    // The half-read stream cannot be reused: the client hangs up and the server frees the slot.
    await("the server sees the client leave", () -> sim.inFlight() == 0);
  }

  @Test
  void connectTimeoutFailsAConnectionTheServerNeverAnswers() throws Exception {
    try (Blackhole blackhole = new Blackhole()) {
      LlmClient client = client(blackhole.baseUrl(), Duration.ofMillis(300), LONG, LONG);

      RequestRecord r = send(client, 1);

      assertFalse(r.success());
      assertEquals("connect failed: timeout", r.error());
      assertEquals(0, r.httpStatus());
      assertTrue(elapsedMillis(r) >= 300, "not before it is due: " + elapsedMillis(r) + " ms");
    }
  }

  @Test
  void sequentialRequestsReuseOneConnection() throws Exception {
    CountingServer server = new CountingServer();
    LlmClient client = client(server.baseUrl(), Duration.ofSeconds(5), LONG, Duration.ofSeconds(30));

    for (int i = 0; i < 3; i++) {
      if (i > 0) {
        Thread.sleep(300); // the same pause as below, well within the 30 s keep-alive timeout
      }
      RequestRecord r = send(client, 2);
      assertTrue(r.success(), r.error());
      assertEquals(" zero one", r.generatedText());
    }

    assertEquals(1, server.accepted.get(), "connections opened");
    assertEquals(3, server.requestPorts.size());
    assertEquals(1, server.requestPorts.stream().distinct().count(), server.requestPorts.toString());
  }

  /** The warm-up's open-and-close: its own connection, closed, the pool left as it was. */
  @Test
  void openAndCloseUsesAConnectionOfItsOwnAndLeavesThePoolAlone() throws Exception {
    CountingServer server = new CountingServer();
    LlmClient client = client(server.baseUrl(), Duration.ofSeconds(5), LONG, Duration.ofSeconds(30));
    assertTrue(send(client, 2).success());

    for (int i = 0; i < 3; i++) {
      assertEquals(null, client.openAndClose(loop));
    }
    await("the three opened connections closed", () -> server.closed.get() == 3);
    assertEquals(4, server.accepted.get(), "connections opened");

    RequestRecord again = send(client, 2);
    assertTrue(again.success(), again.error());
    assertEquals(4, server.accepted.get(), "the request reused the pooled connection");
    assertEquals(3, server.closed.get());
  }

  @Test
  void openAndCloseSaysWhyItCouldNotConnect() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    LlmClient client = client("http://127.0.0.1:" + port, Duration.ofSeconds(5), LONG,
        Duration.ofSeconds(30));
    assertEquals("connect failed: connection refused", client.openAndClose(loop));
  }

  @Test
  void aLoopWithoutAnIdleConnectionBorrowsAnotherLoopsInsteadOfConnecting() throws Exception {
    EventLoopGroup second = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    toClose.add(() -> second.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
    EventLoop other = second.next();
    CountingServer server = new CountingServer();
    LlmClient client = client(server.baseUrl(), Duration.ofSeconds(5), LONG, Duration.ofSeconds(30));
    assertTrue(send(client, 2).success()); // leaves one idle connection, owned by `loop`

    CompletableFuture<RequestRecord> done = new CompletableFuture<>();
    CompletableFuture<Boolean> onItsLoop = new CompletableFuture<>();
    client.send(other, new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
        "{\"model\":\"m\",\"prompt\":\"p\",\"stream\":true}".getBytes(StandardCharsets.UTF_8),
        1, LlmRequest.NOT_SCHEDULED), r -> {
          onItsLoop.complete(loop.inEventLoop());
          done.complete(r);
        });
    assertTrue(done.get(20, TimeUnit.SECONDS).success());

    assertEquals(1, server.accepted.get(), "the idle connection of the other loop was used");
    assertEquals(1, server.requestPorts.stream().distinct().count(), server.requestPorts.toString());
    assertTrue(onItsLoop.get(), "the record is delivered on the connection's loop");
  }

  @Test
  void aConnectionIdleLongerThanTheKeepAliveTimeoutIsNotReused() throws Exception {
    CountingServer server = new CountingServer();
    LlmClient client = client(server.baseUrl(), Duration.ofSeconds(5), LONG, Duration.ofMillis(100));

    assertTrue(send(client, 2).success());
    Thread.sleep(300); // idle three times the keep-alive timeout
    assertTrue(send(client, 2).success());

    assertEquals(2, server.accepted.get(), "connections opened");
    assertNotEquals(server.requestPorts.get(0), server.requestPorts.get(1));
    // The stale connection is closed by the client, not left open on the server.
    await("the stale connection is closed", () -> server.closed.get() == 1);
  }

  /**
   * A send never closes a pool's worth of expired connections in a row (that once held a
   * 1,000 req/s run's sends for 12 ms): it closes the one it tried after its write, and each
   * release closes one more, the longest idle.
   */
  @Test
  void expiredConnectionsAreClosedOneAtATimeNotAllByTheNextSend() throws Exception {
    CountingServer server = new CountingServer();
    LlmClient client = client(server.baseUrl(), Duration.ofSeconds(5), LONG, Duration.ofSeconds(1));
    List<CompletableFuture<RequestRecord>> three = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      CompletableFuture<RequestRecord> done = new CompletableFuture<>();
      three.add(done);
      // queued on the loop together: each finds the pool empty and opens its own connection
      client.send(loop, new LlmRequest("gen", "/v1/completions", new DefaultHttpHeaders(),
          "{\"prompt\":\"p\",\"stream\":true}".getBytes(StandardCharsets.UTF_8), 1,
          LlmRequest.NOT_SCHEDULED), done::complete);
    }
    for (CompletableFuture<RequestRecord> done : three) {
      assertTrue(done.get(20, TimeUnit.SECONDS).success());
    }
    assertEquals(3, server.accepted.get(), "connections opened");
    Thread.sleep(1_500); // all three idle past the keep-alive timeout

    assertTrue(send(client, 2).success());
    // the send tried the newest (closed after its write), opened a fourth, and its release
    // closed the oldest: one expired connection is still open
    await("two stale connections closed", () -> server.closed.get() == 2);
    assertEquals(4, server.accepted.get(), "connections opened");
    Thread.sleep(100);
    assertEquals(2, server.closed.get(), "nothing else closed the third");

    assertTrue(send(client, 2).success());
    assertEquals(4, server.accepted.get(), "the fresh connection was reused");
    await("the last stale connection closed by the next release", () -> server.closed.get() == 3);
  }

  /** Polls {@code condition} every 10 ms for at most 10 s. */
  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(10);
    }
  }

  /**
   * A loopback address where a connection attempt gets no answer: a listening socket with a
   * backlog of 1 that never accepts, its accept queue filled by connections of our own. The
   * kernel then drops every new SYN (Linux does, whatever tcp_syncookies says), so the client's
   * connect neither succeeds nor is refused, exactly like a firewalled host, with no network.
   */
  private static final class Blackhole implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> fillers = new ArrayList<>();

    Blackhole() throws IOException {
      server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
      // Full once two attempts in a row get no answer (one could just have been slow).
      int unanswered = 0;
      for (int i = 0; i < 64 && unanswered < 2; i++) {
        Socket filler = new Socket();
        try {
          filler.connect(server.getLocalSocketAddress(), 200);
          fillers.add(filler);
          unanswered = 0;
        } catch (SocketTimeoutException noAnswer) {
          filler.close();
          unanswered++;
        }
      }
      if (unanswered < 2) {
        close();
        throw new IllegalStateException("the accept queue of a backlog-1 socket never filled up");
      }
    }

    String baseUrl() {
      return "http://127.0.0.1:" + server.getLocalPort();
    }

    @Override
    public void close() throws IOException {
      for (Socket s : fillers) {
        s.close();
      }
      server.close();
    }
  }

  /**
   * A minimal streaming completions server that counts the connections it accepts and closes,
   * and notes the client port each request came from. Every request gets the same two-token
   * stream, kept alive.
   */
  private final class CountingServer {
    private static final String STREAM =
        "data: {\"choices\":[{\"index\":0,\"text\":\" zero\"}]}\n\n"
            + "data: {\"choices\":[{\"index\":0,\"text\":\" one\"}]}\n\n"
            + "data: [DONE]\n\n";

    final AtomicInteger accepted = new AtomicInteger();
    final AtomicInteger closed = new AtomicInteger();
    final List<Integer> requestPorts = new CopyOnWriteArrayList<>();
    private final EventLoopGroup serverGroup =
        new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel channel;

    CountingServer() {
      channel = new ServerBootstrap()
          .group(serverGroup)
          .channel(NioServerSocketChannel.class)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              accepted.incrementAndGet();
              ch.closeFuture().addListener(f -> closed.incrementAndGet());
              ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 16),
                  new SimpleChannelInboundHandler<FullHttpRequest>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
                      requestPorts.add(((InetSocketAddress) ctx.channel().remoteAddress()).getPort());
                      ByteBuf body = ByteBufUtil.writeUtf8(ctx.alloc(), STREAM);
                      FullHttpResponse response = new DefaultFullHttpResponse(
                          HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
                      response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream");
                      HttpUtil.setContentLength(response, body.readableBytes());
                      ctx.writeAndFlush(response);
                    }
                  });
            }
          })
          .bind(InetAddress.getLoopbackAddress(), 0)
          .syncUninterruptibly()
          .channel();
      toClose.add(() -> {
        channel.close().syncUninterruptibly();
        serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
      });
    }

    String baseUrl() {
      return "http://127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort();
    }
  }
}
